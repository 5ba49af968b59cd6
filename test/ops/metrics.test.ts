// /metrics (docs/operations.md "Metrics"): off by default; on, it counts requests by route pattern
// (never the raw URL: unknown paths share `unmatched`), times them, and reports the pools; with
// METRICS_TOKEN it answers only with that bearer token.

import t from "tap";
import { opsDatabase, opsGateway } from "./helpers.ts";

t.test("off by default: /metrics is an unknown path", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl);
  t.equal((await gw.app.inject({ method: "GET", url: "/metrics" })).statusCode, 404);
});

t.test("on: requests by route pattern and status, latency, pools", async (t) => {
  const db = await opsDatabase(t);
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl, { metrics: { enabled: true } });
  for (const url of ["/api/v1/item/1", "/api/v1/item/2", "/api/v1/item/999", "/no/such/path/42"]) {
    await gw.app.inject({ method: "GET", url });
  }
  const res = await gw.app.inject({ method: "GET", url: "/metrics" });
  t.equal(res.statusCode, 200);
  t.match(res.headers["content-type"], /^text\/plain/);
  const text = res.body;
  t.match(text, /http_requests_total\{route="\/api\/v1\/item\/:id",method="GET",status="200"\} 2/);
  t.match(text, /http_requests_total\{route="\/api\/v1\/item\/:id",method="GET",status="404"\} 1/);
  t.match(text, /http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
  t.notMatch(text, /item\/1"|no\/such/, "no raw URL becomes a label");
  t.match(text, /http_request_duration_seconds_count\{route="\/api\/v1\/item\/:id",method="GET"\} 3/);
  t.match(
    text,
    `db_pool_connections_total{pool="primary"} ${gw.pool.totalCount}\n`,
    "the gauge reads the pool",
  );
  t.match(text, /db_pool_waiting\{pool="primary"\} 0/);
  t.match(text, /process_resident_memory_bytes/);
});

t.test("with a token: 401 without it, 200 with it", async (t) => {
  const db = await opsDatabase(t);
  const token = "a-metrics-token-of-32-characters";
  const gw = await opsGateway(t, db.appDir, db.gatewayUrl, { metrics: { enabled: true, token } });
  const none = await gw.app.inject({ method: "GET", url: "/metrics" });
  t.equal(none.statusCode, 401);
  t.equal(none.json().error.code, "UNAUTHORIZED");
  const wrong = await gw.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: "Bearer nope" },
  });
  t.equal(wrong.statusCode, 401);
  const right = await gw.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${token}` },
  });
  t.equal(right.statusCode, 200);
  t.match(right.body, /http_requests_total/);
});
