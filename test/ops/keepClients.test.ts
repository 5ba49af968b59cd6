// A route function's own answers (404, 409, 422) end a statement, not the connection: the pool
// keeps the client, and with it the named statements prepared on it (gateway/pool.ts
// keepClientsOnStatementErrors). pg-pool's `pool.query` destroyed the client on any error, so
// each refused request cost the next one a new connection. A connection the server really ends
// (pg_terminate_backend) is still discarded.

import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import t, { type Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import { caller, EXAMPLE_DIR } from "../gateway/helpers.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { JWT_SECRET, token } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";

/** The example's gateway on a one-connection pool: every request runs on the same client. */
async function oneConnectionGateway(t: Test) {
  const url = await testDatabase(t, "tpl_example");
  const su = await connect(t, url);
  await su.query(fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8"));
  const gatewayUrl = new URL(url);
  gatewayUrl.username = "api_gateway";
  gatewayUrl.password = GATEWAY_TEST_PASSWORD;
  // One connection: every request runs on the same client unless the pool replaces it.
  const pool = createPool(gatewayUrl.toString(), 1);
  const events = { connect: 0, remove: 0 };
  pool.on("connect", () => events.connect++);
  pool.on("remove", () => events.remove++);
  const schema = readAppSchema(EXAMPLE_DIR).schema;
  if (!schema) throw new Error("the example schema does not load");
  const app = buildGateway({
    schema,
    pool,
    authenticate: builtInAuthenticator(
      readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
      schema.globalParams,
    ),
    config: { maxPerPage: 100, bodyLimit: 1024 * 1024, logLevel: "silent" },
    handlers: await loadHandlers(EXAMPLE_DIR, schema),
  });
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await pool.end();
  });
  const auth = { authorization: `Bearer ${token(caller("member1", ["tasks:write"]))}` };
  const backend = async () =>
    (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
  // The GET /project/:id route's named statement (its function answers it: raw SQL in its
  // answer), on the connection the next statement runs on.
  const prepared = async () =>
    (
      await pool.query<{ name: string }>(
        "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%\"GET /api/v1/project/:id\"%'",
      )
    ).rows.map((r) => r.name);

  return { app, pool, events, su, auth, backend, prepared };
}

t.test("refused requests keep the pooled connection; a terminated one is replaced", async (t) => {
  const { app, pool, events, su, auth, backend, prepared } = await oneConnectionGateway(t);
  const ok = await app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
  t.equal(ok.statusCode, 200);
  const pid = await backend();
  const statementsBefore = await prepared();
  t.equal(statementsBefore.length, 1, "the route's named statement is prepared on the connection");

  // Each of these is answered by Postgres with an error: the route function's A0404, a foreign
  // key violation (23503 -> 409), a check violation (23514 -> 422).
  const refused = [
    { method: "GET" as const, url: "/api/v1/project/999999", status: 404 },
    { method: "POST" as const, url: "/api/v1/task", payload: { projectId: 999, title: "x" }, status: 409 },
    { method: "POST" as const, url: "/api/v1/task", payload: { projectId: 1, title: "   " }, status: 422 },
  ];
  for (let round = 0; round < 5; round++) {
    for (const { status, ...request } of refused) {
      const res = await app.inject({ ...request, headers: auth });
      t.equal(res.statusCode, status, `${request.method} ${request.url}: ${status}`);
    }
  }
  t.equal(await backend(), pid, "the same server process after 15 refused requests");
  t.equal(pool.totalCount, 1);
  t.same(events, { connect: 1, remove: 0 }, "no client was discarded or opened");
  t.same(await prepared(), statementsBefore, "the route's prepared statement is still there");
  const again = await app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
  t.equal(again.body, ok.body, "and serve the next request");

  // A statement running when its backend is terminated: the client is discarded.
  const running = pool.query("SELECT pg_sleep(10)").then(
    () => undefined,
    (error: unknown) => error,
  );
  await waitFor(async () => (await activeSleep(su, pid)) === true);
  await su.query("SELECT pg_terminate_backend($1)", [pid]);
  const error = (await running) as { code?: string } | undefined;
  t.equal(error?.code, "57P01", "the running statement fails: admin shutdown");
  t.equal(pool.totalCount, 0, "the broken client is discarded at once");
  await waitFor(async () => events.remove === 1);
  const replaced = await backend();
  t.not(replaced, pid, "the next statement runs on a new connection");
  const served = await app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
  t.equal(served.body, ok.body, "and the gateway serves on it");
});

t.test("handler SQL that drops the gateway's statements costs no request", async (t) => {
  const { app, pool, events, auth, backend, prepared } = await oneConnectionGateway(t);
  const ok = await app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
  t.equal(ok.statusCode, 200);
  const pid = await backend();
  // What a handler's `req.db.query("DEALLOCATE ALL")` does to the pooled connection it runs on.
  await pool.query("DEALLOCATE ALL");
  t.same(await prepared(), [], "the connection holds no statement; node-postgres still believes it does");
  const again = await app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
  t.equal(again.statusCode, 200, "the route call is answered (26000 on that connection, run again)");
  t.equal(again.body, ok.body);
  t.not(await backend(), pid, "on a new connection");
  t.same(events, { connect: 2, remove: 1 }, "the one whose statements were gone was dropped");
  t.equal((await prepared()).length, 1, "the route's statement is prepared on the new one");
});

async function activeSleep(su: pg.Client, pid: number | undefined): Promise<boolean> {
  const res = await su.query(
    "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep(10)%' AND state = 'active'",
    [pid],
  );
  return res.rowCount === 1;
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("timed out waiting");
}
