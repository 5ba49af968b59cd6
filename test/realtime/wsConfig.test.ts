// Realtime settings and connection upkeep (docs/realtime.md "Configuration", "Close codes"):
// REALTIME_* parsing, a custom endpoint path, pings that cut a dead peer, and closeGracefully
// (what `make serve` runs on SIGTERM) closing every WebSocket with 1001.

import t from "tap";
import WebSocket from "ws";
import { REALTIME_DEFAULTS, readGatewayConfig } from "../../gateway/config.ts";
import { closeGracefully } from "../../gateway/ops/index.ts";
import { Client, client, realtimeGateway, USERS } from "./wsHarness.ts";

t.test("settings: defaults, durations, bounds, paths", async (t) => {
  t.same(readGatewayConfig({}).realtime, REALTIME_DEFAULTS);
  const read = (env: Record<string, string>) => readGatewayConfig(env).realtime;
  t.equal(read({ REALTIME_RETENTION: "3600" }).retentionSeconds, 3600);
  t.equal(read({ REALTIME_RETENTION: "90m" }).retentionSeconds, 5400);
  t.equal(read({ REALTIME_RETENTION: "7d" }).retentionSeconds, 7 * 86400);
  t.equal(read({ REALTIME_PATH: "/live/events" }).path, "/live/events");
  t.equal(read({ REALTIME_BUFFER: "65536" }).bufferBytes, 65536);
  t.equal(read({ REALTIME_MEMORY: "1048576" }).memoryBytes, 1048576);
  t.equal(REALTIME_DEFAULTS.memoryBytes, 256 * 1024 * 1024, "256 MiB unless set");
  t.equal(read({ REALTIME_POLL_MS: "250" }).pollMs, 250);
  t.throws(
    () => read({ REALTIME_RETENTION: "10s" }),
    /REALTIME_RETENTION must be a duration from 1m to 365d/,
  );
  t.throws(() => read({ REALTIME_RETENTION: "1 day" }), /REALTIME_RETENTION/);
  t.throws(() => read({ REALTIME_PATH: "realtime" }), /REALTIME_PATH must be a path/);
  t.throws(() => read({ REALTIME_PATH: "/a?b" }), /REALTIME_PATH/);
  t.throws(() => read({ REALTIME_BUFFER: "10" }), /REALTIME_BUFFER must be a whole number from 1024/);
  t.throws(() => read({ REALTIME_POLL_MS: "0" }), /REALTIME_POLL_MS/);
  t.throws(() => read({ REALTIME_MEMORY: "-1" }), /REALTIME_MEMORY/);
});

const gw = await realtimeGateway(t, { realtime: { path: "/live/events", pingMs: 200 } });

t.test("the endpoint lives at REALTIME_PATH", async (t) => {
  const c = await client(t, gw.url, USERS.miaMember);
  t.match(await c.subscribe("p", "project"), { type: "subscribed" });
  await gw.su.query(`UPDATE "project" SET "name" = 'Website Redesign (path)' WHERE "id" = 2`);
  t.match((await c.events(1))[0], { key: { id: 2 } });
  const res = await gw.app.inject({ method: "GET", url: "/realtime" });
  t.equal(res.statusCode, 404, "not at the default path");
});

t.test("pings: a peer that does not answer is cut; one that does stays", async (t) => {
  const dead = new Client(new WebSocket(gw.url, { autoPong: false }));
  t.teardown(() => dead.ws.terminate());
  await dead.opened;
  const alive = await client(t, gw.url);
  const closed = await Promise.race([dead.closed, new Promise((r) => setTimeout(() => r("open"), 3000))]);
  t.not(closed, "open", "the silent peer was closed");
  t.equal(alive.ws.readyState, WebSocket.OPEN, "the answering peer is open");
});

t.test("closeGracefully sends 1001 to every WebSocket", async (t) => {
  const other = await realtimeGateway(t, { dbUrl: gw.dbUrl });
  const a = await client(t, other.url, USERS.miaMember);
  await a.subscribe("t", "task");
  const b = await client(t, other.url);
  const outcome = await closeGracefully(other.app, 5000);
  t.equal(outcome.forced, false, "nothing had to be cut at the deadline");
  t.same(await a.closed, { code: 1001, reason: "server shutting down" });
  t.equal((await b.closed).code, 1001);
});
