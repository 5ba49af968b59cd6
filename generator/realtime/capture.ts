// Recording changes (docs/realtime.md "How events are recorded"): per table with `notify`, one
// trigger function and three statement-level AFTER triggers with transition tables. Each firing
// is one INSERT ... SELECT into the outbox for the whole statement (never a statement per row),
// and a transaction sends at most one NOTIFY (Postgres delivers a channel and payload once per
// transaction however often it is signalled, also across subtransactions; a flag in a setting
// would be session state a writer could set to silence itself, and definer code reads no setting
// but api.ctx: test/security/audit.test.ts). The payload is empty: readers fetch the rows, so
// NOTIFY's 8000-byte limit never matters.
//
// Throttled: Postgres commits notifying transactions one at a time (a database-wide lock held
// through the commit's WAL flush), so a NOTIFY in every transaction cut insert throughput with 8
// writers to about 0.2 of the table without triggers (without NOTIFY: about 0.8). A transaction
// notifies only if it takes a transaction-level advisory lock for the current 20 ms window
// (pg_try_advisory_xact_lock: never waits), so of concurrent writers about one per window
// notifies; the others commit freely. NOTIFY only wakes readers up: an event whose transaction
// did not notify is read with the next notification, or at the reader's poll.
//
// The function is SECURITY DEFINER (owned by api_owner, grants.ts): every writer is recorded,
// whatever its role (route functions, req.service, plain SQL as the table owner or another
// program), and no writer needs a privilege on the outbox. Private columns are removed before
// the row images are stored: they never reach the outbox.

import { textArray } from "../api/globals.ts";
import type { Column } from "../schema/types.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import {
  captureFunctionRef,
  NOTIFY_LOCK_CLASS,
  NOTIFY_WINDOWS_PER_SECOND,
  OUTBOX,
  REALTIME_CHANNEL,
  TRIGGER_NAMES,
} from "./names.ts";
import type { NotifyTable } from "./tables.ts";

const EVENTS = { INSERT: sql`INSERT`, UPDATE: sql`UPDATE`, DELETE: sql`DELETE` } as const;

export function captureStatements(t: NotifyTable): string[] {
  const fn = captureFunctionRef(t.table.name);
  const ref = tableRef(t.table.name);
  const name = literal(t.table.name);
  const privateNames = t.table.columns.filter((c) => c.private === true).map((c) => c.name);
  // to_jsonb(row) minus the private columns: the image of every readable column.
  const image = (alias: string): Sql =>
    privateNames.length > 0
      ? sql`pg_catalog.to_jsonb(${ident(alias)}) - ${textArray(privateNames)}`
      : sql`pg_catalog.to_jsonb(${ident(alias)})`;

  const body = sql`BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ${OUTBOX} (table_name, op, new_row)
    SELECT ${name}, 'insert', ${image("n")} FROM new_rows AS n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ${OUTBOX} (table_name, op, old_row)
    SELECT ${name}, 'delete', ${image("o")} FROM old_rows AS o;
  ELSE
${updateCapture(t, name, image)}
  END IF;
  IF FOUND AND pg_catalog.pg_try_advisory_xact_lock(${literal(NOTIFY_LOCK_CLASS)},
      ((pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) * ${literal(NOTIFY_WINDOWS_PER_SECOND)})::bigint % 2147483647)::integer) THEN
    PERFORM pg_catalog.pg_notify(${literal(REALTIME_CHANNEL)}, '');
  END IF;
  RETURN NULL;
END`;
  const create = sql`CREATE FUNCTION ${fn}() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET timezone = 'UTC'
AS $fn$
${body}
$fn$`;
  const trigger = (event: keyof typeof TRIGGER_NAMES, transition: Sql) =>
    sql`CREATE TRIGGER ${ident(TRIGGER_NAMES[event])} AFTER ${EVENTS[event]} ON ${ref}
  REFERENCING ${transition}
  FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`.toString();
  return [
    create.toString(),
    trigger("INSERT", sql`NEW TABLE AS new_rows`),
    trigger("UPDATE", sql`OLD TABLE AS old_rows NEW TABLE AS new_rows`),
    trigger("DELETE", sql`OLD TABLE AS old_rows`),
  ];
}

/**
 * Old and new rows are paired by primary key. A pair is recorded when a compared column changed
 * (notify columns and the columns row policies read); a row whose key changed is recorded as a
 * delete of the old row and an insert of the new one. Without a primary key rows cannot be
 * paired, so every updated row is recorded that way.
 */
function updateCapture(t: NotifyTable, name: Sql, image: (alias: string) => Sql): Sql {
  if (t.key.length === 0) {
    return sql`    INSERT INTO ${OUTBOX} (table_name, op, new_row, old_row)
    SELECT ${name}, 'delete', NULL, ${image("o")} FROM old_rows AS o
    UNION ALL
    SELECT ${name}, 'insert', ${image("n")}, NULL FROM new_rows AS n;`;
  }
  const col = (alias: string, c: Column) => ident(alias, c.name);
  const on = join(
    t.key.map((c) => sql`${col("o", c)} = ${col("n", c)}`),
    " AND ",
  );
  const first = t.key[0] as Column;
  const changed =
    t.compared.length === 0
      ? sql`false`
      : join(
          t.compared.map((c) => sql`${col("o", c)} IS DISTINCT FROM ${col("n", c)}`),
          "\n       OR ",
        );
  return sql`    INSERT INTO ${OUTBOX} (table_name, op, new_row, old_row)
    SELECT ${name},
      CASE WHEN ${col("o", first)} IS NULL THEN 'insert' WHEN ${col("n", first)} IS NULL THEN 'delete' ELSE 'update' END,
      CASE WHEN ${col("n", first)} IS NOT NULL THEN ${image("n")} END,
      CASE WHEN ${col("o", first)} IS NOT NULL THEN ${image("o")} END
    FROM old_rows AS o FULL JOIN new_rows AS n ON ${on}
    WHERE ${col("o", first)} IS NULL OR ${col("n", first)} IS NULL
       OR ${changed};`;
}
