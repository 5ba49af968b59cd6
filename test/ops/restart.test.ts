// Postgres restarted under load (docs/operations.md "Faults"), on a cluster of this test's own:
// while it is down every request is answered 503 SERVICE_UNAVAILABLE with Retry-After quickly
// (no hang), /ready says the database is unreachable and /health stays up; once it is back the
// same gateway serves again by itself, with no restart or rebuild.

import t from "tap";
import { createDatabase, withClient } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { deriveGatewayUrl } from "../../gateway/pool.ts";
import { restartableCluster } from "./cluster.ts";
import { OPS_SEED, opsApp, opsGateway, sleep } from "./helpers.ts";

type Phase = "before" | "stopping" | "down" | "restarting" | "after";

interface Outcome {
  /** When the request started: before, while stopping (in flight at shutdown), down, while restarting, after. */
  phase: Phase;
  /** When its answer came. */
  ended: Phase;
  status: number;
  ms: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

t.test("Postgres restarted under load: 503 quickly while down, served again after", async (t) => {
  const cluster = await restartableCluster(t);
  const app = opsApp(t);
  const url = await createDatabase(cluster.url, "app");
  await migrateApp({ appDir: app.dir, url });
  await withClient(url, (client) => client.query(OPS_SEED));
  const gw = await opsGateway(t, app.dir, await deriveGatewayUrl(url), { poolSize: 4, poolWaitMs: 1000 });

  let phase: Phase = "before";
  let running = true;
  const outcomes: Outcome[] = [];
  // Four clients in a loop, each request timed from its own start.
  const client = async (n: number) => {
    while (running) {
      const at = phase;
      const started = Date.now();
      const res = await gw.app.inject({ method: "GET", url: n % 2 ? "/api/v1/item" : "/api/v1/item/1" });
      const body = res.statusCode === 200 ? undefined : (res.json() as { error?: { code?: string } });
      outcomes.push({
        phase: at,
        ended: phase,
        status: res.statusCode,
        ms: Date.now() - started,
        retryAfter: res.headers["retry-after"] as string | undefined,
        code: body?.error?.code,
      });
      await sleep(5);
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(client));

  // Under load before the stop: until requests have been answered, not for a fixed time (the
  // first ones open the pool's connections, which took past 300 ms on a loaded machine).
  const warm = Date.now() + 10_000;
  await sleep(300);
  while (Date.now() < warm && outcomes.filter((o) => o.status === 200).length < 8) await sleep(20);
  phase = "stopping";
  await cluster.stop();
  phase = "down";
  await sleep(1500);
  const ready = await gw.app.inject({ method: "GET", url: "/ready" });
  const health = await gw.app.inject({ method: "GET", url: "/health" });
  phase = "restarting";
  await cluster.start();
  phase = "after";
  // The first requests after the restart may still meet connections the shutdown killed.
  const deadline = Date.now() + 10_000;
  while (
    Date.now() < deadline &&
    outcomes.filter((o) => o.phase === "after" && o.status === 200).length < 20
  ) {
    await sleep(50);
  }
  running = false;
  await load;

  const by = (p: Phase) => outcomes.filter((o) => o.phase === p);
  // Started and answered before the stop began (one started just before it may still be running
  // when the server goes: that one is in flight at the shutdown, below).
  const before = by("before").filter((o) => o.ended === "before");
  t.ok(before.length > 0, "requests ran before the restart");
  const refused = before.filter((o) => o.status !== 200);
  t.same(refused, [], "all served before the restart");
  // Requests in flight when it stopped are served or cut (57P01, a dropped connection): 503.
  const inFlight = outcomes.filter(
    (o) => o.phase === "stopping" || (o.phase === "before" && o.ended !== "before"),
  );
  t.ok(
    inFlight.every((o) => o.status === 200 || o.status === 503),
    "requests in flight at the shutdown: served or 503",
  );
  // Started and answered while the server was down (not those a start-up answered).
  const down = by("down").filter((o) => o.ended === "down");
  t.ok(down.length >= 4, `requests ran during the outage (${down.length})`);
  t.same(
    [...new Set(down.map((o) => o.status))],
    [503],
    "every request during the outage is 503 (not a 500, not a hang)",
  );
  t.ok(
    down.every((o) => o.code === "SERVICE_UNAVAILABLE" && o.retryAfter === "1"),
    "SERVICE_UNAVAILABLE with Retry-After",
  );
  const slowest = Math.max(...down.map((o) => o.ms));
  t.ok(slowest < 2000, `each answered within 2 s (slowest ${slowest} ms)`);
  t.equal(ready.statusCode, 503, "/ready: 503 while the database is down");
  t.equal(ready.json().error.message, "Database unreachable");
  t.equal(health.statusCode, 200, "/health: the process is up");

  const after = [...by("restarting"), ...by("after")];
  t.ok(
    after.every((o) => o.status === 200 || o.status === 503),
    "after the restart: served, or 503 while reconnecting, never anything else",
  );
  t.ok(after.filter((o) => o.status === 200).length >= 20, "the same gateway serves again by itself");
  const last = after.slice(-8);
  t.same(
    last.map((o) => o.status),
    last.map(() => 200),
    "and keeps serving",
  );
  t.equal((await gw.app.inject({ method: "GET", url: "/ready" })).statusCode, 200, "/ready: 200 again");
  const custom = await gw.app.inject({ method: "GET", url: "/api/v1/ops/wait" });
  t.equal(custom.statusCode, 200, "custom handlers too");
});
