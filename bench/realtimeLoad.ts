// The load of the realtime bench: many WebSocket subscribers in a few permission groups, and a
// writer that inserts at a steady rate and remembers when each insert was acknowledged, so a
// delivery's latency is measured from its commit (the acknowledgement, an upper bound of the
// commit time, on the same clock) to its arrival at the subscriber.

import pg from "pg";
import WebSocket from "ws";

/** A permission context: the claims every subscriber of one group carries. */
export interface Group {
  role: string;
  scopes: string[];
  userId: number;
  companyId: number;
}

// Ten distinct contexts (role, scopes, and the globals the example's policies read) over the
// example's two companies: ten groups for the gateway to decide each batch for.
export const GROUPS: Group[] = [1, 2].flatMap((companyId) => {
  const user = (n: number) => (companyId - 1) * 3 + n;
  return [
    { role: "admin", scopes: ["billing:read", "tasks:write"], userId: user(1), companyId },
    { role: "admin", scopes: ["tasks:write"], userId: user(1), companyId },
    { role: "manager", scopes: ["tasks:write"], userId: user(2), companyId },
    { role: "member", scopes: ["tasks:write"], userId: user(3), companyId },
    { role: "member", scopes: [], userId: user(3), companyId },
  ];
});

export interface Subscribers {
  /** Events received by all subscribers so far. */
  delivered(): number;
  /** Commit-to-delivery latencies (ms) of the sampled subscribers since the last reset. */
  latencies: number[];
  /** Connections the server closed (e.g. dropped as slow consumers) and errors received. */
  dropped(): number;
  errors(): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * `count` subscribers to `table`, round-robin over `tokens` (one per group), authenticated by the
 * upgrade's Authorization header; resolves once every one is subscribed. Every `sampleEvery`-th
 * (none when 0) parses its events for the latency; the others only count them.
 */
export async function subscribe(
  url: string,
  table: string,
  count: number,
  tokens: string[],
  committedAt: Map<string, number>,
  sampleEvery = 1,
): Promise<Subscribers> {
  const sockets: WebSocket[] = [];
  let delivered = 0;
  let dropped = 0;
  let errors = 0;
  let closing = false;
  const latencies: number[] = [];
  const opened: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } });
    sockets.push(ws);
    const sampled = sampleEvery > 0 && i % sampleEvery === 0;
    opened.push(
      new Promise<void>((resolve, reject) => {
        ws.once("error", reject);
        ws.once("open", () => ws.send(JSON.stringify({ type: "subscribe", id: "s", table })));
        ws.on("message", (data: Buffer) => {
          if (data.includes('"type":"event"')) {
            delivered++;
            if (!sampled) return;
            const event = JSON.parse(data.toString("utf8")) as { key: { id: unknown } };
            const at = committedAt.get(String(event.key.id));
            if (at !== undefined) latencies.push(Date.now() - at);
          } else if (data.includes('"type":"subscribed"')) {
            resolve();
          } else if (data.includes('"type":"error"')) {
            errors++;
            reject(new Error(`subscriber ${i}: ${data.toString("utf8")}`));
          }
        });
        ws.on("close", () => {
          if (!closing) dropped++;
        });
      }),
    );
    // Connect in small steps: a burst of thousands of upgrades at once only measures the backlog.
    if (i % 100 === 99) await Promise.all(opened.slice(-100));
  }
  await Promise.all(opened);
  return {
    delivered: () => delivered,
    latencies,
    dropped: () => dropped,
    errors: () => errors,
    reset() {
      delivered = 0;
      latencies.length = 0;
    },
    async close() {
      closing = true;
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once("close", () => resolve());
              ws.close(1000);
            }),
        ),
      );
    },
  };
}

/**
 * Inserts tasks at `perSecond` (alternating the two companies) for `seconds`, in ticks of 10 ms;
 * records each row's acknowledgement time by id. Returns the inserts done.
 */
export async function steadyInserts(
  pool: pg.Pool,
  perSecond: number,
  seconds: number,
  committedAt: Map<string, number>,
): Promise<number> {
  const tickMs = 10;
  const perTick = perSecond / (1000 / tickMs);
  const started = Date.now();
  let due = 0;
  let done = 0;
  const pending = new Set<Promise<void>>();
  while (Date.now() - started < seconds * 1000) {
    due += perTick;
    while (due >= 1) {
      due--;
      const companyId = (done % 2) + 1;
      const insert = pool
        .query<{ id: string }>(
          `INSERT INTO public."task" ("companyId", "projectId", "title") VALUES ($1, $2, 'bench') RETURNING "id"`,
          [companyId, companyId === 1 ? 1 : 4],
        )
        .then((r) => {
          committedAt.set(String(r.rows[0]?.id), Date.now());
        });
      done++;
      pending.add(insert);
      void insert.finally(() => pending.delete(insert));
    }
    const next = started + Math.ceil((Date.now() - started + 1) / tickMs) * tickMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
  }
  await Promise.all(pending);
  return done;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export function writerPool(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 8 });
}
