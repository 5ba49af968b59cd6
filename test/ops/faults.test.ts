// Faults on a live database (docs/operations.md "Faults"): the pool exhausted (a bounded wait,
// then 503 with Retry-After, never an unbounded queue), a slow query (STATEMENT_TIMEOUT_MS: 504,
// the route named in the log), and custom handlers that crash mid-transaction or never answer
// (the pool recovers: no connection is lost or left in a transaction).

import t from "tap";
import { withClient } from "../../db/databases.ts";
import { opsDatabase, opsGateway, sleep } from "./helpers.ts";

t.test("pool exhausted: the next request waits POOL_WAIT_MS, then 503 with Retry-After", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl, { poolSize: 1, poolWaitMs: 300 });
  // The one connection is held for six seconds by a handler's pg_sleep.
  const holding = gw.app.inject({ method: "GET", url: "/api/v1/ops/hold" });
  while (gw.pool.idleCount > 0 || gw.pool.totalCount === 0) await sleep(10);

  for (const url of ["/api/v1/item", "/api/v1/ops/sleep", "/ready"]) {
    const started = Date.now();
    const res = await gw.app.inject({ method: "GET", url });
    const took = Date.now() - started;
    t.equal(res.statusCode, 503, `${url}: 503`);
    t.equal(res.json().error.code, "SERVICE_UNAVAILABLE", `${url}: envelope`);
    t.equal(res.headers["retry-after"], "1", `${url}: Retry-After`);
    t.ok(took >= 250 && took < 900, `${url}: answered after the bounded wait (${took} ms)`);
    t.notMatch(res.body, /timeout exceeded|connect/i, "no pool internals in the answer");
  }
  t.equal((await holding).statusCode, 200, "the request holding the connection completes");
  t.equal(gw.pool.waitingCount, 0, "nothing left queued");
  const after = await gw.app.inject({ method: "GET", url: "/api/v1/item" });
  t.equal(after.statusCode, 200, "served again once the connection is free");
  t.equal(after.json().data.length, 3);
});

t.test("a slow query: STATEMENT_TIMEOUT_MS answers 504 and the log names the route", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl, { statementTimeoutMs: 200 });
  for (const url of ["/api/v1/item/slow", "/api/v1/ops/sleep"]) {
    const started = Date.now();
    const res = await gw.app.inject({ method: "GET", url });
    const took = Date.now() - started;
    t.equal(res.statusCode, 504, `${url}: 504`);
    t.same(res.json(), {
      error: { code: "GATEWAY_TIMEOUT", message: "The database did not answer in time" },
    });
    t.ok(took < 900, `${url}: cancelled at the timeout, not after the query (${took} ms)`);
    t.notMatch(res.body, /statement timeout|canceling/i, "Postgres's text stays in the log");
  }
  const logged = gw.log().filter((line) => line.msg === "request failed");
  t.same(
    logged.map((line) => line.route),
    ["GET /api/v1/item/slow", "GET /api/v1/ops/sleep"],
    "each 504 is logged with its route",
  );
  t.match(logged[0], { level: 50, err: { code: "57014" } }, "at error level, with the SQLSTATE");
  // Fast routes are untouched by the timeout, on the same connections.
  const fast = await gw.app.inject({ method: "GET", url: "/api/v1/item/2" });
  t.equal(fast.statusCode, 200);
  t.equal(fast.json().data.label, "two");
});

t.test("without STATEMENT_TIMEOUT_MS the slow standard route completes", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl);
  const res = await gw.app.inject({ method: "GET", url: "/api/v1/item/slow" });
  t.equal(res.statusCode, 200);
  t.equal(res.json().data[0].slept, 1);
});

t.test("handlers that crash mid-transaction or never answer: the pool recovers", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl, { poolSize: 2, handlerTimeoutMs: 300 });
  // More failing requests than connections: a lost connection would starve the pool.
  const failing = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((i) =>
      gw.app.inject({ method: "GET", url: i % 2 ? "/api/v1/ops/throws" : "/api/v1/ops/leaks" }),
    ),
  );
  for (const res of failing) {
    t.equal(res.statusCode, 500);
    t.equal(res.json().error.code, "SERVER_ERROR");
    t.notMatch(res.body, /handler bug/, "the handler's message stays in the log");
  }
  // The leaking handlers' rollback runs when their timeout fires; give it a moment.
  for (let i = 0; i < 50 && gw.pool.idleCount < gw.pool.totalCount; i++) await sleep(20);
  t.ok(gw.pool.totalCount <= 2, `no connection beyond the pool size (${gw.pool.totalCount})`);
  t.equal(gw.pool.idleCount, gw.pool.totalCount, "every connection is back in the pool");
  t.equal(gw.pool.waitingCount, 0, "nothing queued");
  const busy = await withClient(db.url, (client) =>
    client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND usename = 'api_gateway' AND state <> 'idle'",
    ),
  );
  t.equal(busy.rows[0]?.n, 0, "no gateway session is left in a transaction");
  const after = await Promise.all(
    [1, 2, 3, 4].map(() => gw.app.inject({ method: "GET", url: "/api/v1/item" })),
  );
  t.same(
    after.map((res) => res.statusCode),
    [200, 200, 200, 200],
    "subsequent requests succeed",
  );
});
