// The reader's LISTEN connection: a change committed after the first subscription but before the
// connection's LISTEN took effect is delivered at once, not at the next poll. pg-listen reports
// "connected" before it has sent LISTEN; a NOTIFY in between reaches nobody. Here a relay between
// the gateway and Postgres (real sockets, bytes passed on unchanged) holds the LISTEN back for
// half a second while the change is written, and the poll is an hour away.

import net from "node:net";
import type { Test } from "tap";
import t from "tap";
import { client, realtimeGateway, USERS, until } from "./wsHarness.ts";

/** A TCP relay to the database that holds back, for `holdMs`, every simple query that LISTENs. */
async function listenDelayingRelay(t: Test, dbUrl: string, holdMs: number) {
  const target = new URL(dbUrl);
  let held = 0;
  const server = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.pipe(downstream);
    downstream.on("data", (chunk: Buffer) => {
      // A simple-protocol Query message: 'Q', its length, the text.
      // Reading stops meanwhile, so nothing sent after it overtakes it.
      if (chunk[0] === 0x51 && chunk.includes("LISTEN ")) {
        held++;
        downstream.pause();
        setTimeout(() => {
          upstream.write(chunk);
          downstream.resume();
        }, holdMs);
      } else upstream.write(chunk);
    });
    const close = () => {
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on("close", close).on("error", close);
    upstream.on("close", close).on("error", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = new URL(dbUrl);
  url.port = String((server.address() as net.AddressInfo).port);
  return { url: url.toString(), held: () => held };
}

t.test("a change written before LISTEN took effect is delivered without waiting for a poll", async (t) => {
  // A seeded database of its own; this first gateway takes no subscription, so it never listens.
  const seeded = await realtimeGateway(t);
  const relay = await listenDelayingRelay(t, seeded.dbUrl, 500);
  const gw = await realtimeGateway(t, { dbUrl: relay.url, realtime: { pollMs: 3_600_000 } });
  const mia = await client(t, gw.url, USERS.miaMember);
  await mia.subscribe("t", "task");
  // The first subscription started the reader: its connection is up, its LISTEN held back.
  await until(() => relay.held() === 1);
  await gw.su.query(
    `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "priority")
     VALUES (1, 1, 2, 'written before LISTEN', 'low')`,
  );
  const [event] = await mia.events(1, 5000);
  t.match(event, { op: "insert", data: { title: "written before LISTEN" } });
});
