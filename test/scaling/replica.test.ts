// Reads on a streaming replica (READ_DATABASE_URL, docs/scaling.md "Read replicas"): a real
// standby of the test run's cluster (test/scaling/replica.ts), the example app served with GET
// standard routes on it. Shown: GETs are answered by the replica and writes by the primary; a
// write becomes visible on the replica once replay catches up, and `X-Read-Primary: 1` reads it
// at once; with the replica gone, reads fall back to the primary and keep answering.

import pg from "pg";
import t from "tap";
import { freePort } from "../../db/postgres.ts";
import { readDatabaseUrl } from "../../gateway/readPool.ts";
import { routeFunctionName } from "../../generator/routes/index.ts";
import { caller } from "../gateway/helpers.ts";
import { serverUrl, testDatabase } from "../harness/db.ts";
import { token } from "../harness/gateway.ts";
import { scalingGateway, seedExample, serveExample } from "./gateway.ts";
import { caughtUp, one, replicaUnsupported, startReplica } from "./replica.ts";

// Copying the whole test cluster and starting `make serve` take long on a busy machine (the
// full suite runs beside it): more than the default 120 s per file.
t.setTimeout(300_000);

const member = caller("member1", ["tasks:write"]);
const auth = { authorization: `Bearer ${token(member)}` };

t.test("READ_DATABASE_URL: the gateway's credentials on the replica's address", async (t) => {
  const gateway = "postgres://api_gateway:s3cret@primary.internal:5432/app";
  t.equal(
    readDatabaseUrl({ READ_DATABASE_URL: "postgres://replica.internal:6432/app" }, gateway),
    "postgres://api_gateway:s3cret@replica.internal:6432/app",
  );
  t.equal(
    readDatabaseUrl({ READ_DATABASE_URL: "postgres://reader:pw@replica.internal/app" }, gateway),
    "postgres://reader:pw@replica.internal/app",
    "a URL with its own user is used as is",
  );
  t.equal(readDatabaseUrl({}, gateway), undefined);
  t.throws(() => readDatabaseUrl({ READ_DATABASE_URL: "mysql://x/y" }, gateway), {
    message: "READ_DATABASE_URL must be a postgres:// URL",
  });
});

const unsupported = await replicaUnsupported(serverUrl());

t.test(
  "a streaming replica serves the GET routes",
  { skip: unsupported ? `no replica: ${unsupported}` : false },
  async (t) => {
    const url = await testDatabase(t, "tpl_example");
    await seedExample(url);
    const replica = await startReplica(serverUrl());
    t.teardown(() => replica.remove());
    const dbName = new URL(url).pathname;
    const replicaDbUrl = new URL(replica.url);
    replicaDbUrl.pathname = dbName;
    await caughtUp(serverUrl(), replica.url);
    t.equal(
      await one<boolean>(replicaDbUrl.toString(), "SELECT pg_is_in_recovery() AS v"),
      true,
      "it is a standby",
    );

    const gw = await scalingGateway(t, url, {
      readDatabaseUrl: `postgres://127.0.0.1:${replica.port}${dbName}`,
      retryMs: 60_000,
    });
    const get = (headers: Record<string, string> = {}) =>
      gw.app.inject({ method: "GET", url: "/api/v1/task/2", headers: { ...auth, ...headers } });
    const title = async (headers: Record<string, string> = {}) => {
      const res = await get(headers);
      t.equal(res.statusCode, 200, res.body);
      return JSON.parse(res.body).data.title as string;
    };

    t.test("a GET runs on the replica, not on the primary", async (t) => {
      const primary = gw.primaryStatements();
      const onReplica = gw.replicaStatements();
      const res = await get();
      t.equal(res.statusCode, 200, res.body);
      t.equal(gw.primaryStatements() - primary, 0, "no statement on the primary");
      t.equal(gw.replicaStatements() - onReplica, 1, "one statement on the replica");
      t.equal(gw.reads?.counts.fallback, 0);
    });

    t.test("a write runs on the primary and reaches the replica by replication", async (t) => {
      // Replay paused: the replica lags behind the primary for as long as we like.
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_pause() AS v");
      const before = await title();
      const onReplica = gw.replicaStatements();
      const res = await gw.app.inject({
        method: "PATCH",
        url: "/api/v1/task/2",
        headers: auth,
        payload: { title: "Written on the primary" },
      });
      t.equal(res.statusCode, 200, res.body);
      t.equal(gw.replicaStatements(), onReplica, "the write sent nothing to the replica");
      t.equal(await title(), before, "a lagging replica answers with the row as it was");
      t.equal(
        await title({ "x-read-primary": "1" }),
        "Written on the primary",
        "X-Read-Primary: 1 reads the primary: read-your-writes",
      );
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_resume() AS v");
      await caughtUp(serverUrl(), replica.url);
      t.equal(await title(), "Written on the primary", "after catching up the replica has it");
    });

    t.test("writes are refused by the replica itself (it is read-only)", async (t) => {
      const err = await one(replicaDbUrl.toString(), "CREATE TABLE nope (id int)").catch((e: Error) => e);
      t.match(String(err), /read-only transaction/);
    });

    t.test("make serve with READ_DATABASE_URL: GETs on the replica, writes on the primary", async (t) => {
      const port = await freePort();
      const served = await serveExample(t, url, port, {
        READ_DATABASE_URL: `postgres://127.0.0.1:${replica.port}${dbName}`,
        READ_DB_POOL_SIZE: "2",
      });
      t.match(served.output(), /reads: GET standard routes on READ_DATABASE_URL/);
      // Its start-up migration rebuilt the API layer on the primary; the replica replays it.
      await caughtUp(serverUrl(), replica.url);
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_pause() AS v");
      t.teardown(() => one(replicaDbUrl.toString(), "SELECT pg_wal_replay_resume() AS v").catch(() => {}));
      const call = async (method: string, headers: Record<string, string> = {}, body?: unknown) => {
        const res = await fetch(`${served.origin}/api/v1/task/2`, {
          method,
          headers: { ...auth, "content-type": "application/json", ...headers },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: JSON.parse(await res.text()) };
      };
      const before = (await call("GET")).body.data.title;
      const written = await call("PATCH", {}, { title: "Written through make serve" });
      t.equal(written.status, 200, JSON.stringify(written.body));
      t.equal((await call("GET")).body.data.title, before, "the paused replica answers the GET");
      t.equal(
        (await call("GET", { "x-read-primary": "1" })).body.data.title,
        "Written through make serve",
        "X-Read-Primary: 1 reads the primary",
      );
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_resume() AS v");
      await caughtUp(serverUrl(), replica.url);
      t.equal((await call("GET")).body.data.title, "Written through make serve");
      await one(
        url,
        `UPDATE "public"."task" SET "title" = 'Written on the primary' WHERE "id" = 2 RETURNING "title" AS v`,
      );
      await caughtUp(serverUrl(), replica.url);
    });

    t.test("a route function the replica has not replayed yet is read from the primary", async (t) => {
      const fresh = await scalingGateway(t, url, {
        readDatabaseUrl: `postgres://127.0.0.1:${replica.port}${dbName}`,
        retryMs: 60_000,
      });
      // A route its function answers (raw SQL in its answer: generator/routes/kinds/readViews.ts).
      const fn = routeFunctionName({ method: "GET", path: "/:id" }, { baseUrl: "/api/v1/project" });
      // Gone on both, then back on the primary only, with replay paused: a migration that made
      // it, not yet replayed.
      await renameFunction(url, fn, `${fn}_away`);
      t.teardown(() => one(replicaDbUrl.toString(), "SELECT pg_wal_replay_resume() AS v").catch(() => {}));
      await caughtUp(serverUrl(), replica.url);
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_pause() AS v");
      await renameFunction(url, `${fn}_away`, fn);
      const res = await fresh.app.inject({ method: "GET", url: "/api/v1/project/1", headers: auth });
      t.equal(res.statusCode, 200, res.body);
      t.equal(fresh.reads?.counts.fallback, 1, "answered by the primary");
      await one(replicaDbUrl.toString(), "SELECT pg_wal_replay_resume() AS v");
      await caughtUp(serverUrl(), replica.url);
    });

    t.test("the replica down: reads fall back to the primary and keep answering", async (t) => {
      await replica.stop();
      const primary = gw.primaryStatements();
      t.equal(await title(), "Written on the primary");
      t.equal(gw.reads?.counts.fallback, 1, "answered by the primary in the replica's place");
      t.ok(gw.primaryStatements() - primary >= 1, "the statement ran on the primary");
      const again = gw.primaryStatements();
      t.equal(await title(), "Written on the primary");
      t.equal(gw.reads?.counts.fallback, 2, "the replica is left alone for REPLICA_RETRY_MS");
      t.equal(gw.primaryStatements() - again, 1, "straight to the primary: one statement");
      const ready = await gw.app.inject({ method: "GET", url: "/ready" });
      t.equal(ready.statusCode, 200, "/ready checks the primary");
    });
  },
);

/** Renames an api function as the superuser (names made by the generator: no quote in them). */
async function renameFunction(url: string, from: string, to: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ALTER FUNCTION api."${from}" RENAME TO "${to}"`);
  } finally {
    await client.end();
  }
}
