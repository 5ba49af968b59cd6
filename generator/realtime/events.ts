// Delivery rules (docs/realtime.md "Delivery rules"): `api.realtime_events(ctx, after, upto,
// tables)` returns the events in (after, upto] that one permission context may see, in cursor
// order, deciding a whole batch in ONE query (the gateway calls it once per group of subscribers
// that share a context, never once per event per subscriber).
//
// - the table rule (roles/scopes of the table: its restrictive policy) and the `tables` asked for;
// - only the notify columns the context's column rules let it see (picked by name from the image,
//   then a hidden column's key is left out, as in route responses; the event's `key` too);
// - only rows the table's row policies let it see, decided with the same policy expressions the
//   tables use (generator/api/policies.ts), evaluated on the row images: each image becomes a row
//   of the table's type named like the table (`jsonb_populate_record(NULL::public."t", ...) AS
//   "t"`), so `"t"."col"` and raw policy SQL read it as they read the table;
// - insert: decided on the new row; delete: on the old row (data = the old row's columns);
//   update: visible before and after -> `update` (data and old), only after -> `insert`, only
//   before -> `delete` with the key and no data (the row left this context's view); an update
//   that changes none of the columns this context sees, and moves nothing, is not sent.
//
// It runs as api_owner (SECURITY DEFINER, like route functions) with the context settings set to
// the context (inline, as route functions set them: a call of api.set_ctx costs 6 us more), so
// policies that read other tables see them as a route function would. search_path is `public`
// because policy SQL was bound with it (generator/api/layer.ts); pg_temp last, and the caller
// cannot create objects in `public`.

import { CONTEXT_VARIABLE, contextAssignment, contextKeys } from "../api/context.ts";
import { textArray } from "../api/globals.ts";
import { policyCondition } from "../api/policies.ts";
import { sqlstateOf } from "../model/errors.ts";
import { buildModel } from "../model/index.ts";
import { isRestricted } from "../routes/permissions.ts";
import type { Schema } from "../schema/types.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { columnTypeSql } from "../tables/columnType.ts";
import { TABLE_SCHEMA, tableRef } from "../tables/names.ts";
import { OUTBOX } from "./names.ts";
import { type NotifyTable, notifyTables } from "./tables.ts";

export function eventsFunctionStatement(schema: Schema): string {
  const globalTypes = buildModel(schema).globalTypes;
  const tables = notifyTables(schema);
  const declarations = tables.map(
    (_, i) => sql`  ${v("allow", i)} boolean;\n  ${v("hide", i)} text[];\n  ${v("drop", i)} text[];`,
  );
  const setup = tables.map((t, i) => tableSetup(t, i));
  const branches = tables.map((t, i) => branch(t, i, globalTypes));
  const query =
    branches.length === 0
      ? sql``
      : sql`  RETURN QUERY
  SELECT v.xid::text || ':' || v.seq::text, v.table_name, v.op, v.key, v.data, v.old, v.created_at
  FROM (
${join(branches, "\n    UNION ALL\n")}
  ) AS v
  ORDER BY v.xid, v.seq;
`;
  return sql`CREATE FUNCTION api.realtime_events(ctx jsonb, after text, upto text, tables text[])
RETURNS TABLE (event_id text, table_name text, op text, key jsonb, data jsonb, old jsonb, created_at timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = ${ident(TABLE_SCHEMA)}, pg_temp
AS $fn$
#variable_conflict use_column
DECLARE
  a_xid xid8;
  a_seq bigint;
  u_xid xid8;
  u_seq bigint;
  h_xid xid8;
  h_seq bigint;
  v_tables text[] := tables;
  l_xid xid8;
  ${ident(CONTEXT_VARIABLE)} text[];
${join(declarations, "\n")}
BEGIN
  ${contextAssignment(sql`ctx`, contextKeys(schema), true)}
  SELECT c.xid, c.seq INTO a_xid, a_seq FROM api.realtime_cursor(after) AS c;
  SELECT c.xid, c.seq INTO u_xid, u_seq FROM api.realtime_cursor(upto) AS c;
  SELECT c.xid, c.seq INTO h_xid, h_seq FROM api.realtime_cursor(api.realtime_head()) AS c;
  IF a_xid IS NULL THEN
    -- No cursor: everything still kept.
    SELECT p.xid, p.seq INTO a_xid, a_seq FROM api_realtime.pruned AS p;
  ELSIF a_xid > pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot()) THEN
    -- No event can ever have this id: the cursor was not given by us.
    RAISE EXCEPTION 'The event cursor is not valid' USING ERRCODE = ${literal(sqlstateOf("BAD_REQUEST"))};
  END IF;
  SELECT l.xid INTO l_xid FROM api_realtime.layer AS l;
  -- Never past the head: an event there may still be uncommitted, or appear later.
  IF u_xid IS NULL OR (u_xid, u_seq) > (h_xid, h_seq) THEN
    u_xid := h_xid;
    u_seq := h_seq;
  END IF;
${join(setup, "\n")}
${query}  -- Checked after reading: a prune that committed meanwhile is seen here.
  PERFORM api.realtime_check_retained(a_xid, a_seq);
END
$fn$`.toString();
}

/** A per-table plpgsql variable: allow_0, hide_0, drop_0. */
function v(what: "allow" | "hide" | "drop", i: number): Sql {
  return ident(`${what}_${i}`);
}

/** The context's table rule and hidden columns for one table, computed once per call. */
function tableSetup(t: NotifyTable, i: number): Sql {
  const { roles, scopes } = t.table;
  const allow = isRestricted(t.table)
    ? sql`api.allowed(${textArray(roles)}, ${textArray(scopes)})`
    : sql`true`;
  const ruled = t.stored.filter(isRestricted);
  const hide =
    ruled.length === 0
      ? sql`'{}'::text[]`
      : sql`ARRAY[${join(
          ruled.map(
            (c) =>
              sql`CASE WHEN api.allowed(${textArray(c.roles)}, ${textArray(c.scopes)}) THEN NULL ELSE ${literal(c.name)} END`,
          ),
          ",\n    ",
        )}]::text[]`;
  // Every column of the table but the notify ones (private ones included) and the hidden ones.
  const notSent = t.table.columns.filter((c) => !t.notify.includes(c)).map((c) => c.name);
  return sql`  ${v("allow", i)} := ${allow};
  ${v("hide", i)} := ${hide};
  ${v("drop", i)} := ${textArray(notSent)} || ${v("hide", i)};`;
}

function branch(t: NotifyTable, i: number, globalTypes: ReadonlyMap<string, string>): Sql {
  const name = literal(t.table.name);
  const visible = (image: Sql) => {
    if (t.table.policies.length === 0) return sql`${image} IS NOT NULL`;
    const cond = join(
      t.table.policies.map((p) => sql`(${policyCondition(t.table, p, globalTypes)})`),
      " OR ",
    );
    return sql`COALESCE(${image} IS NOT NULL AND (SELECT ${cond}
          FROM ${imageRow(t, image)}), false)`;
  };
  const key =
    t.key.length === 0
      ? sql`'{}'::jsonb`
      : sql`pg_catalog.jsonb_build_object(${join(
          t.key.map((c) => sql`${literal(c.name)}, b.key_row -> ${literal(c.name)}`),
        )}) - ${v("hide", i)}`;
  return sql`    SELECT b.xid, b.seq, ${name}::text AS table_name,
      CASE WHEN b.new_in AND b.old_in THEN 'update' WHEN b.new_in THEN 'insert' ELSE 'delete' END AS op,
      ${key} AS key,
      CASE WHEN b.new_in THEN b.new_data WHEN b.op = 'delete' THEN b.old_data END AS data,
      CASE WHEN b.new_in AND b.old_in THEN b.old_data END AS old,
      b.created_at
    FROM (
      SELECT e.xid, e.seq, e.op, e.created_at, COALESCE(e.new_row, e.old_row) AS key_row,
        ${notifyData(t, i, sql`e.new_row`)} AS new_data,
        ${notifyData(t, i, sql`e.old_row`)} AS old_data,
        ${visible(sql`e.new_row`)} AS new_in,
        ${visible(sql`e.old_row`)} AS old_in
      FROM ${OUTBOX} AS e
      WHERE ${v("allow", i)} AND (v_tables IS NULL OR ${name} = ANY (v_tables))
        AND e.table_name = ${name}
        AND (e.xid, e.seq) > (a_xid, a_seq) AND (e.xid, e.seq) <= (u_xid, u_seq)
      OFFSET 0 -- not flattened: each image's policy check runs once, not once per use of new_in/old_in
    ) AS b
    WHERE (b.new_in OR b.old_in) AND NOT (b.new_in AND b.old_in AND b.new_data = b.old_data)`;
}

/**
 * The notify columns of an image that this context may see. Images of this layer hold exactly the
 * table's readable columns, so removing the others (`drop`) is enough and cheap; older images
 * (recorded before the last rebuild: `l_xid`) may hold columns dropped or made private since, so
 * the notify columns are picked by name.
 */
function notifyData(t: NotifyTable, i: number, image: Sql): Sql {
  return sql`CASE WHEN ${image} IS NULL THEN NULL
          WHEN e.xid >= l_xid THEN ${image} - ${v("drop", i)}
          ELSE ${pick(t, image)} - ${v("hide", i)} END`;
}

/**
 * The notify columns of a row image, by name (a whitelist: an image recorded before a column left
 * the notify list, was dropped or became private never sends it). jsonb_build_object takes at
 * most 100 arguments, so wide tables are built in parts and concatenated.
 */
function pick(t: NotifyTable, image: Sql): Sql {
  const pairs = t.notify.map((c) => sql`${literal(c.name)}, ${image} -> ${literal(c.name)}`);
  if (pairs.length === 0) return sql`'{}'::jsonb`;
  const parts: Sql[] = [];
  for (let i = 0; i < pairs.length; i += 50) {
    parts.push(sql`pg_catalog.jsonb_build_object(${join(pairs.slice(i, i + 50))})`);
  }
  return parts.length === 1 ? (parts[0] as Sql) : sql`(${join(parts, " || ")})`;
}

/**
 * The image as a row named like the table, for the policy expressions. Policies with raw SQL may
 * read any column: the whole row of the table's type. Otherwise only the columns they read, each
 * of its column's type (jsonb_to_record parses only those: parsing every column of every event
 * was most of the cost of a batch).
 */
function imageRow(t: NotifyTable, image: Sql): Sql {
  const name = ident(t.table.name);
  if (t.policyColumns === "all") {
    return sql`pg_catalog.jsonb_populate_record(NULL::${tableRef(t.table.name)}, ${image}) AS ${name}`;
  }
  const columns = t.policyColumns.length > 0 ? t.policyColumns : t.stored.slice(0, 1);
  const definitions = join(columns.map((c) => sql`${ident(c.name)} ${columnTypeSql(c)}`));
  return sql`pg_catalog.jsonb_to_record(${image}) AS ${name}(${definitions})`;
}
