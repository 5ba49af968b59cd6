// Per-test-file databases: a fresh copy of a migrated template, or an empty database, dropped
// when the test file ends. The runner (test/run.ts) provides the cluster in TEST_PG_URL; a
// realtime test file (test/realtime/) starts a cluster of its own instead (realtimeCluster).

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { createDatabase, dropDatabase } from "../../db/databases.ts";
import { startEmbedded } from "../../db/postgres.ts";
import { CLUSTER_ROOT } from "./clusterRoot.ts";
import { prepareCluster, type TemplateName } from "./templates.ts";

export function serverUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error("TEST_PG_URL is not set: run the tests with `make test` (test/run.ts)");
  return url;
}

/** A new database for this test file: a copy of `template`, or empty. Dropped at teardown. */
export async function testDatabase(t: Test, template?: TemplateName): Promise<string> {
  const server = REALTIME_FILE ? await realtimeCluster() : serverUrl();
  const name = `t_${randomBytes(6).toString("hex")}`;
  const url = await createDatabase(server, name, template ? { template } : {});
  t.teardown(() => dropDatabase(server, name));
  return url;
}

/** Whether this process runs a realtime test file. */
const REALTIME_FILE =
  !process.env.DATABASE_URL &&
  path.resolve(process.argv[1] ?? "").includes(`${path.sep}test${path.sep}realtime${path.sep}`);

let realtime: Promise<string> | undefined;

/**
 * A cluster of this test file's own, made ready as the runner's is (about 2 s), stopped and
 * removed when the file ends. Realtime delivery waits for the outbox head, the cluster-wide
 * snapshot xmin (docs/realtime.md): on a shared cluster any other file's write transaction (a
 * scale seed, another realtime file's writes) holds it back, and waits for events time out or
 * see events out of place when many files run at once. Not with DATABASE_URL (tests on a server
 * of the user's): the shared cluster.
 */
function realtimeCluster(): Promise<string> {
  realtime ??= (async () => {
    const dataDir = fs.mkdtempSync(path.join(CLUSTER_ROOT, "api-test-pg-realtime-"));
    const server = await startEmbedded({ dataDir, throwaway: true });
    const { default: tap } = await import("tap");
    tap.teardown(async () => {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    await prepareCluster(server.url);
    return server.url;
  })();
  return realtime;
}

/** A connected client, closed at teardown. */
export async function connect(t: Test, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}
