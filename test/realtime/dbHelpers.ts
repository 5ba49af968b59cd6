// Shared by the realtime database tests (test/realtime/db*.test.ts): cursors, the outbox as the
// superuser sees it, api.realtime_events as the gateway calls it, and a database migrated from
// the small schema db.schema.json (a table rule, a private column, a column rule, two policies).
// Not a test file. The harness is imported lazily (see test/api/helpers.ts).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import type { Test } from "tap";
import type { Ctx } from "../api/helpers.ts";

export interface OutboxRow {
  table_name: string;
  op: string;
  new_row: Record<string, unknown> | null;
  old_row: Record<string, unknown> | null;
  cursor: string;
}

export interface Event {
  event_id: string;
  table_name: string;
  op: string;
  key: Record<string, unknown>;
  data: Record<string, unknown> | null;
  old: Record<string, unknown> | null;
}

export async function head(client: pg.ClientBase): Promise<string> {
  return (await client.query<{ h: string }>("SELECT api.realtime_head() AS h")).rows[0]?.h as string;
}

/** The outbox rows after `cursor` (no head limit: committed rows the superuser sees), in order. */
export async function outboxAfter(su: pg.ClientBase, cursor: string): Promise<OutboxRow[]> {
  const { rows } = await su.query<OutboxRow>(
    `SELECT o.table_name, o.op, o.new_row, o.old_row, o.xid::text || ':' || o.seq::text AS cursor
     FROM api_realtime.outbox o, api.realtime_cursor($1) c
     WHERE (o.xid, o.seq) > (c.xid, c.seq) ORDER BY o.xid, o.seq`,
    [cursor],
  );
  return rows;
}

/** api.realtime_events as the gateway calls it (upto defaults to the head: everything settled). */
export async function events(
  client: pg.ClientBase,
  ctx: Ctx | null,
  after: string | null,
  options: { upto?: string; tables?: string[] } = {},
): Promise<Event[]> {
  const { rows } = await client.query<Event>("SELECT * FROM api.realtime_events($1, $2, $3, $4)", [
    ctx,
    after,
    options.upto ?? null,
    options.tables ?? null,
  ]);
  return rows;
}

/** The SQLSTATE `run` fails with (undefined when it succeeds). */
export async function failsWith(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** A database migrated from test/realtime/db.schema.json; a superuser client on it; the app directory. */
export async function smallSchemaDatabase(t: Test): Promise<{ url: string; su: pg.Client; appDir: string }> {
  const { connect, testDatabase } = await import("../harness/db.ts");
  const { migrateApp } = await import("../../db/migrate.ts");
  const url = await testDatabase(t);
  const app = fs.mkdtempSync(path.join(os.tmpdir(), "realtime-app-"));
  t.teardown(() => fs.rmSync(app, { recursive: true, force: true }));
  fs.copyFileSync(path.join(import.meta.dirname, "db.schema.json"), path.join(app, "api.schema.json"));
  await migrateApp({ appDir: app, url });
  return { url, su: await connect(t, url), appDir: app };
}
