// The instance's memory budget (REALTIME_MEMORY): each connection is bounded by REALTIME_BUFFER,
// but many connections are not, so past the budget for all of them the connections furthest
// behind are dropped as slow consumers while a reading one keeps receiving everything. Real
// gateway, real WebSockets (paused sockets stop reading), real Postgres.

import t from "tap";
import { shedOverBudget } from "../../gateway/realtime/index.ts";
import { client, realtimeGateway, USERS } from "./wsHarness.ts";

t.test("shedOverBudget drops the furthest behind first, only until the rest fit", async (t) => {
  const shed: string[] = [];
  const checked: string[] = [];
  const conn = (name: string, unsent: number, backlog = 0) => ({
    unsent,
    backlog,
    shed: () => shed.push(name),
    checked: () => checked.push(name),
  });
  const all = [conn("a", 100), conn("b", 700), conn("c", 0), conn("d", 400)];
  t.equal(shedOverBudget(all, 1200), 0, "1,200 bytes in all fit a 1,200 budget");
  t.same(shed, []);
  t.same(checked, ["a", "b", "c", "d"], "every connection starts a new check");
  t.equal(shedOverBudget(all, 600), 1, "over 600: the 700 behind goes, 500 remain");
  t.same(shed, ["b"]);
  shed.length = 0;
  t.equal(shedOverBudget(all, 50), 3, "over 50: every connection that is behind");
  t.same(shed, ["b", "d", "a"], "furthest behind first; an idle one stays");
  // A client that stopped reading (its bytes were already waiting at the last check) goes before
  // one that has just been handed more but reads.
  shed.length = 0;
  const stalled = [conn("reading", 700, 0), conn("stalled", 500, 500), conn("slow", 300, 100)];
  t.equal(shedOverBudget(stalled, 1000), 1, "over 1,000: one drop is enough");
  t.same(shed, ["stalled"], "the backlog first, not the most unsent");
  shed.length = 0;
  t.equal(shedOverBudget(stalled, 100), 3);
  t.same(shed, ["stalled", "slow", "reading"], "by backlog, then by unsent bytes");
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
    const insert = (from: number, to: number) =>
      gw.su.query(
        `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "description", "priority")
       SELECT 1, 1, 2, 'M-' || g, $1, 'low' FROM generate_series($2::int, $3::int) AS g`,
        [big, from, to],
      );
    // First, under the budget (5 x 240 KB): the reader reads all of it and the paused keep it.
    // Only then past the budget, so that at every check the paused hold bytes from before it (a
    // backlog) and the reader does not, however loaded the machine: with all five starting even,
    // the first check could find the reader as far behind as the others.
    const first = 8;
    await insert(0, first - 1);
    const early = await reader.events(first, 30_000);
    for (let i = first; i < count; i += 20) await insert(i, Math.min(i + 19, count - 1));
    const received = [...early, ...(await reader.events(count - first, 30_000))];
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
      const error = c.received.find((m) => m.type === "error") as
        | { error?: { message?: string } }
        | undefined;
      t.match(error?.error?.message, /realtime memory was full/, `paused ${i} learnt why`);
    }
  },
);
