// The bench's database ceiling under row security (bench/pgbench.ts): the settings pgbench's
// sessions start with must make a hand-written statement run as the route functions read, as
// api_owner under the app's policies with the caller's context, or the "under row security"
// column would measure a statement that sees every tenant's rows.

import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import t from "tap";
import { pipelinedValues, rowSecuritySettings, startupOptions } from "../../bench/pgbench.ts";
import { contextKeys } from "../../generator/api/context.ts";
import { testDatabase } from "../harness/db.ts";
import { REPO } from "../harness/templates.ts";

const EXAMPLE_SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO, "example/api.schema.json"), "utf8"));
const KEYS = contextKeys(EXAMPLE_SCHEMA);

/** A session started with `settings`, ended before the test's database is dropped. */
async function session(url: string, settings: Record<string, string>, open: pg.Client[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options: startupOptions(settings) });
  await client.connect();
  open.push(client);
  return client;
}

const endAll = (open: pg.Client[]) => Promise.all(open.splice(0).map((c) => c.end()));

t.test("a session started with the settings reads as the caller, under the app's policies", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const open: pg.Client[] = [];
  t.teardown(() => endAll(open));
  const admin = await session(url, {}, open);
  await admin.query(fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8"));
  const count = `SELECT count(*)::int AS n FROM "project"`;
  const all = (await admin.query(count)).rows[0].n;
  const perCompany = (
    await admin.query(`SELECT "companyId", count(*)::int AS n FROM "project" GROUP BY 1 ORDER BY 1`)
  ).rows;
  t.ok(perCompany.length >= 2, "the seed has projects of two companies at least");

  const caller = {
    role: "admin",
    scopes: ["billing:read", "tasks:write"],
    userId: 1,
    companyId: perCompany[0].companyId,
  };
  const bound = await session(url, rowSecuritySettings(caller, KEYS), open);
  const who = (await bound.query("SELECT current_user AS u, current_setting('api.ctx.companyId') AS c"))
    .rows[0];
  t.same(who, { u: "api_owner", c: String(caller.companyId) }, "api_owner, with the caller's company");
  t.same(
    (await bound.query("SELECT current_setting('api.ctx.scopes')::jsonb AS s")).rows[0].s,
    caller.scopes,
    "scopes as JSON text",
  );
  const seen = (await bound.query(count)).rows[0].n;
  t.equal(seen, perCompany[0].n, "only the caller's company's projects");
  t.ok(seen < all, "fewer than every tenant's");
  await endAll(open);
});

t.test("startup options keep spaces and backslashes in values", async (t) => {
  const url = await testDatabase(t);
  const open: pg.Client[] = [];
  t.teardown(() => endAll(open));
  const value = String.raw`a b\c  d`;
  const client = await session(url, { "bench.check": value }, open);
  t.equal((await client.query("SELECT current_setting('bench.check') AS v")).rows[0].v, value);
  await endAll(open);
});

// The gateway binds NULL for a parameter its text does not read (gateway/routes/unreadValues.ts),
// and a cursor page's first cursor is NULL: a pgbench variable is always text, so NULL goes in as
// a literal, typed as the gateway declares it.
t.test("pipelined statements write a NULL value as a literal", async (t) => {
  const { sql, vars } = pipelinedValues([
    { text: "SELECT $1, $2, $3", values: [null, "7", null], types: [3802, 20, 3802] },
  ]);
  t.same(sql, ["SELECT (NULL::jsonb), (:s0v2::bigint), (NULL::jsonb)"]);
  t.same(vars, { s0v2: "7" });
});
