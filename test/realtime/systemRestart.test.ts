// Postgres restarted mid-stream, on a cluster of the test's own (test/ops/cluster.ts): the
// gateway's LISTEN connection and pool die with it, its WebSocket clients stay connected to the
// gateway, and once Postgres is back the subscriber receives every event committed before the
// stop, and every event written after the start, from the outbox, in order, once each, without
// reconnecting or resubscribing itself.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { createDatabase, withClient } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { deriveGatewayUrl, deriveServiceUrl } from "../../gateway/pool.ts";
import { token } from "../harness/gateway.ts";
import { restartableCluster } from "../ops/cluster.ts";
import { EXAMPLE_DIR, liveGateway, nodeClient, sleep, until } from "./systemHarness.ts";

const ACME_MEMBER = { role: "member", userId: 3, companyId: 1, scopes: ["tasks:write"] };

t.test("Postgres restarts mid-stream: the subscriber catches up from the outbox", async (t) => {
  const cluster = await restartableCluster(t);
  const url = await createDatabase(cluster.url, "app");
  await migrateApp({ appDir: EXAMPLE_DIR, url });
  await withClient(url, (c) => c.query(fs.readFileSync(path.join(EXAMPLE_DIR, "seed.sql"), "utf8")));
  const gw = await liveGateway(t, url, {
    gatewayUrl: await deriveGatewayUrl(url),
    serviceUrl: await deriveServiceUrl(url),
  });

  const titles: string[] = [];
  let subscribedTimes = 0;
  const client = nodeClient(t, { url: gw.ws, token: token(ACME_MEMBER) });
  client.subscribe("task", {
    filter: "(title,sw,pg-)",
    onEvent: (e) => titles.push(String(e.data?.title)),
    onSubscribed: () => subscribedTimes++,
  });
  await until(() => subscribedTimes === 1, "subscribed");

  // A writer of its own, reconnecting after the restart; one statement per row.
  const write = (title: string) =>
    withClient(url, (c) =>
      c.query(`INSERT INTO public."task" ("companyId", "projectId", "title") VALUES (1, 1, $1)`, [title]),
    );
  for (const n of [1, 2, 3]) await write(`pg-${n}`);
  await until(() => titles.length === 3, "the events before the restart");
  // Committed right before the stop: the gateway may not have read them yet.
  for (const n of [4, 5]) await write(`pg-${n}`);
  await cluster.stop();
  await sleep(1_000);
  await cluster.start();
  for (const n of [6, 7, 8]) await write(`pg-${n}`);
  await until(() => titles.length >= 8, "every event after the restart", 30_000);
  await sleep(500);
  t.same(
    titles,
    ["pg-1", "pg-2", "pg-3", "pg-4", "pg-5", "pg-6", "pg-7", "pg-8"],
    "every event once, in order, across the restart",
  );
  t.equal(client.connectionState, "open", "the client's own connection to the gateway stayed up");
});
