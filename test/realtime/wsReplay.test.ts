// Realtime streams over time (docs/realtime.md "Resuming", "Slow consumers", "Close codes",
// "Several instances"): `since` after a disconnect replays in order with nothing lost or
// repeated, even while writes go on; a `since` older than the retention window is an error; a
// slow consumer is dropped while another keeps receiving; shutdown closes with 1001; two
// gateways on one database each deliver every event; the metrics count what was sent.

import pg from "pg";
import t from "tap";
import { PRUNE_SQL } from "../../gateway/realtime/hub.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { type Client, client, type Message, realtimeGateway, USERS, until } from "./wsHarness.ts";

const gw = await realtimeGateway(t, { metrics: true });

async function insertTasks(titles: string[], companyId = 1): Promise<void> {
  const projectId = companyId === 1 ? 1 : 4;
  await gw.su.query(
    `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "priority")
     SELECT $1, $2, $3, title, 'low' FROM unnest($4::text[]) AS title`,
    [companyId, projectId, companyId === 1 ? 2 : 5, titles],
  );
}

const titles = (events: Message[]) => events.map((e) => (e.data as { title: string }).title);

t.test("since: after a disconnect, the missed events in order, then live ones, none twice", async (t) => {
  const first = await client(t, gw.url, USERS.miaMember);
  await first.subscribe("t", "task");
  await insertTasks(["R1", "R2"]);
  const seen = await first.events(2);
  t.same(titles(seen), ["R1", "R2"]);
  first.close();
  await first.closed;
  await insertTasks(["R3"]);
  await insertTasks(["R4", "R5"]);
  await insertTasks(["other tenant"], 2);
  const second = await client(t, gw.url, USERS.miaMember);
  const since = String(seen[1]?.eventId);
  const answer = await second.subscribe("t", "task", { since });
  t.match(answer, { type: "subscribed", id: "t", lastEventId: String });
  const replayed = await second.events(3);
  t.same(titles(replayed), ["R3", "R4", "R5"], "the missed events, in commit order");
  await insertTasks(["R6"]);
  t.same(titles(await second.events(1)), ["R6"], "then live");
  t.same(await second.quiet(), [], "nothing twice");
  const ids = [...seen, ...replayed].map((e) => String(e.eventId));
  t.equal(new Set(ids).size, ids.length, "event ids are distinct");
});

t.test("since while writes go on: every event exactly once, in order", async (t) => {
  const a = await client(t, gw.url, USERS.miaMember);
  await a.subscribe("t", "task", { filter: "(title,sw,W-)" });
  const total = 60;
  let written = 0;
  const writer = (async () => {
    for (; written < total; written++) {
      await insertTasks([`W-${String(written).padStart(3, "0")}`]);
      if (written % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 15));
    }
  })();
  const before = await a.events(10);
  a.ws.terminate();
  await a.closed;
  // Reconnect while the writer keeps writing.
  await until(() => written >= 25);
  const b = await client(t, gw.url, USERS.miaMember);
  t.match(
    await b.subscribe("t", "task", { filter: "(title,sw,W-)", since: String(before.at(-1)?.eventId) }),
    {
      type: "subscribed",
    },
  );
  await writer;
  const after = await b.events(total - 10, 10_000);
  const all = titles([...before, ...after]);
  t.same(
    all,
    Array.from({ length: total }, (_, i) => `W-${String(i).padStart(3, "0")}`),
    "no loss, no repeat, in order",
  );
  t.same(await b.quiet(), []);
});

t.test("since older than the retention window: GONE, not silence", async (t) => {
  const c = await client(t, gw.url, USERS.miaMember);
  await c.subscribe("t", "task");
  await insertTasks(["old one"]);
  const [old] = await c.events(1);
  await insertTasks(["old two"]);
  await c.events(1);
  // Everything recorded so far is pruned (as the gateway does with REALTIME_RETENTION).
  await gw.su.query(`SELECT api.realtime_prune('0 seconds'::interval)`);
  const late = await client(t, gw.url, USERS.miaMember);
  const answer = await late.subscribe("t", "task", { since: String(old?.eventId) });
  t.match(answer, { type: "error", id: "t", error: { code: "GONE", message: String } });
  t.same(await late.quiet(), [], "and no subscribed, no events");
  // Subscribing again without since works.
  t.match(await late.subscribe("t", "task"), { type: "subscribed" });
});

t.test(
  "the gateway's own prune call, as api_gateway, removes what is older than the retention",
  async (t) => {
    await insertTasks(["P-old"]);
    await gw.su.query(`UPDATE api_realtime.outbox SET created_at = now() - interval '2 days'`);
    const url = new URL(gw.dbUrl);
    url.username = "api_gateway";
    url.password = GATEWAY_TEST_PASSWORD;
    const gateway = new pg.Client({ connectionString: url.toString() });
    await gateway.connect();
    t.teardown(() => gateway.end());
    const kept = await gw.su.query<{ n: string }>("SELECT count(*) AS n FROM api_realtime.outbox");
    t.ok(Number(kept.rows[0]?.n) > 0);
    const result = await gateway.query<{ deleted: string }>(PRUNE_SQL, [86400, 10_000]);
    t.equal(Number(result.rows[0]?.deleted), Number(kept.rows[0]?.n), "every event older than a day");
    const left = await gw.su.query<{ n: string }>("SELECT count(*) AS n FROM api_realtime.outbox");
    t.equal(Number(left.rows[0]?.n), 0);
  },
);

t.test("a slow consumer is dropped; the others keep receiving", async (t) => {
  const small = await realtimeGateway(t, { dbUrl: gw.dbUrl, realtime: { bufferBytes: 256 * 1024 } });
  const fast = await client(t, small.url, USERS.miaMember);
  const slow = await client(t, small.url, USERS.miaMember);
  await fast.subscribe("t", "task", { filter: "(title,sw,S-)" });
  await slow.subscribe("t", "task", { filter: "(title,sw,S-)" });
  // The slow one stops reading: its socket's buffers fill, then the gateway's send buffer.
  (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  const count = 400;
  const big = "x".repeat(30_000);
  // Batches of 20 rows (600 kB): under the hard limit (8 x 256 kB) for a client that reads. The
  // next batch waits until the fast consumer has read this one, as a live client keeps up: on a
  // loaded machine a writer running ahead would leave even it a backlog past the grace period.
  // The slow one falls further behind with every batch.
  const received: Message[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i += 20) {
    await gw.su.query(
      `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "description", "priority")
       SELECT 1, 1, 2, 'S-' || g, $1, 'low' FROM generate_series($2::int, $3::int) AS g`,
      [big, i, i + 19],
    );
    received.push(...(await fast.events(20, 20_000)));
  }
  t.equal(received.length, count, "the fast consumer got every event");
  t.ok(Date.now() - started < 15_000, "without waiting for the slow one");
  // Past the grace period, the slow one reads again: what reached its socket, then the end.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  const closed = await Promise.race([
    slow.closed,
    new Promise<undefined>((resolve) => setTimeout(resolve, 5000)),
  ]);
  t.ok(closed, "the slow consumer's connection was closed");
  t.ok(
    slow.received.filter((m) => m.type === "event").length < count,
    "the slow consumer did not get everything",
  );
  // The error and the close frame wait behind what the socket already held; when they get
  // through (they usually do), they say why.
  if (closed && closed.code !== 1006) {
    t.equal(closed.code, 1013, "1013 when the close frame gets through");
    t.match(slow.received.at(-1), { type: "error", error: { code: "TOO_MANY_REQUESTS" } });
  }
});

t.test("two gateway instances on one database each deliver every event", async (t) => {
  const other = await realtimeGateway(t, { dbUrl: gw.dbUrl });
  const here = await client(t, gw.url, USERS.miaMember);
  const there = await client(t, other.url, USERS.miaMember);
  await here.subscribe("t", "task", { filter: "(title,sw,I-)" });
  await there.subscribe("t", "task", { filter: "(title,sw,I-)" });
  await insertTasks(["I-1", "I-2", "I-3"]);
  t.same(titles(await here.events(3)), ["I-1", "I-2", "I-3"]);
  t.same(titles(await there.events(3)), ["I-1", "I-2", "I-3"]);
  t.same(await here.quiet(), []);
  t.same(await there.quiet(), []);
});

t.test("a since from another instance resumes on this one without repeats", async (t) => {
  const other = await realtimeGateway(t, { dbUrl: gw.dbUrl, realtime: { pollMs: 5000 } });
  const a = await client(t, gw.url, USERS.miaMember);
  await a.subscribe("t", "task", { filter: "(title,sw,X-)" });
  await insertTasks(["X-1"]);
  const [one] = await a.events(1);
  const b = await client(t, other.url, USERS.miaMember);
  t.match(await b.subscribe("t", "task", { filter: "(title,sw,X-)", since: String(one?.eventId) }), {
    type: "subscribed",
  });
  await insertTasks(["X-2"]);
  t.same(titles(await b.events(1)), ["X-2"]);
  t.same(await b.quiet(), [], "X-1 is not repeated");
});

t.test("metrics: live subscriptions, delivered events, delivery lag", async (t) => {
  const c: Client = await client(t, gw.url, USERS.miaMember);
  await c.subscribe("t", "task", { filter: "(title,eq,M-1)" });
  await insertTasks(["M-1"]);
  await c.events(1);
  const metrics = (await gw.app.inject({ method: "GET", url: "/metrics" })).body;
  t.match(metrics, /^realtime_subscriptions [1-9]\d*$/m);
  t.match(metrics, /^realtime_events_delivered_total [1-9]\d*$/m);
  // Every delivered event is timed from its transaction's time in the outbox to the send.
  const lagCount = Number(/^realtime_delivery_lag_seconds_count (\d+)$/m.exec(metrics)?.[1]);
  const delivered = Number(/^realtime_events_delivered_total (\d+)$/m.exec(metrics)?.[1]);
  t.ok(lagCount > 0, "delivery lag observed");
  t.equal(lagCount, delivered, "once per delivered event");
  const lagSum = Number(/^realtime_delivery_lag_seconds_sum ([\d.e-]+)$/m.exec(metrics)?.[1]);
  t.ok(lagSum >= 0 && lagSum / lagCount < 5, `a plausible mean lag (${lagSum / lagCount} s)`);
});

t.test("shutdown: every WebSocket gets a 1001 close frame", async (t) => {
  const closing = await realtimeGateway(t, { dbUrl: gw.dbUrl });
  const a = await client(t, closing.url, USERS.miaMember);
  const b = await client(t, closing.url);
  await a.subscribe("t", "task");
  await closing.app.close();
  t.same(await a.closed, { code: 1001, reason: "server shutting down" });
  t.equal((await b.closed).code, 1001);
});
