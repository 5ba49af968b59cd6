// The instance's memory budget (REALTIME_MEMORY): each connection is bounded by REALTIME_BUFFER,
// but many connections are not, so past the budget for all of them the connections furthest
// behind are dropped as slow consumers while a reading one keeps receiving everything. Real
// gateway, real WebSockets (paused sockets stop reading), real Postgres.

import t from "tap";
import { shedOverBudget } from "../../gateway/realtime/index.ts";
import { client, realtimeGateway, USERS } from "./wsHarness.ts";

t.test("shedOverBudget drops the furthest behind first, only until the rest fit", async (t) => {
  const shed: string[] = [];
  const conn = (name: string, unsent: number) => ({ unsent, shed: () => shed.push(name) });
  const all = [conn("a", 100), conn("b", 700), conn("c", 0), conn("d", 400)];
  t.equal(shedOverBudget(all, 1200), 0, "1,200 bytes in all fit a 1,200 budget");
  t.same(shed, []);
  t.equal(shedOverBudget(all, 600), 1, "over 600: the 700 behind goes, 500 remain");
  t.same(shed, ["b"]);
  shed.length = 0;
  t.equal(shedOverBudget(all, 50), 3, "over 50: every connection that is behind");
  t.same(shed, ["b", "d", "a"], "furthest behind first; an idle one stays");
});

t.test(
  "past REALTIME_MEMORY, paused subscribers are dropped and a reading one gets everything",
  async (t) => {
    // Per connection alone, none would ever be dropped (64 MiB each); together they pass 2 MiB.
    const gw = await realtimeGateway(t, {
      realtime: { bufferBytes: 64 * 1024 * 1024, memoryBytes: 2 * 1024 * 1024 },
    });
    const reader = await client(t, gw.url, USERS.miaMember);
    await reader.subscribe("t", "task", { filter: "(title,sw,M-)" });
    const paused = [];
    for (let i = 0; i < 4; i++) {
      const c = await client(t, gw.url, USERS.miaMember);
      await c.subscribe("t", "task", { filter: "(title,sw,M-)" });
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      paused.push(c);
    }
    const count = 400;
    const big = "x".repeat(30_000);
    for (let i = 0; i < count; i += 20) {
      await gw.su.query(
        `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "description", "priority")
       SELECT 1, 1, 2, 'M-' || g, $1, 'low' FROM generate_series($2::int, $3::int) AS g`,
        [big, i, i + 19],
      );
    }
    const received = await reader.events(count, 30_000);
    t.equal(received.length, count, "the reading subscriber got every event");
    for (const c of paused) (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await Promise.all(
      paused.map((c) =>
        Promise.race([c.closed, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000))]),
      ),
    );
    t.ok(
      closed.every((c) => c !== undefined),
      `every paused subscriber was dropped (${closed.filter(Boolean).length} of ${paused.length})`,
    );
    for (const [i, c] of paused.entries()) {
      t.ok(c.received.filter((m) => m.type === "event").length < count, `paused ${i} did not get everything`);
    }
  },
);
