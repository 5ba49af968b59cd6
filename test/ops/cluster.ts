// A throwaway embedded cluster of the test's own that can be stopped and started again on the
// same port, as a database server restarts under a running gateway. Never the shared test
// cluster (TEST_PG_URL): stopping that would fail every other test file.

import type { Test } from "tap";
import { postgresBinaries } from "../../db/embedded/binaries.ts";
import { companionFiles, existingCluster } from "../../db/embedded/location.ts";
import { postgresOsUser } from "../../db/embedded/osUser.ts";
import { startPostmaster } from "../../db/embedded/postmaster.ts";
import { startEmbedded } from "../../db/postgres.ts";
import { scratchDataDir } from "../harness/cluster.ts";

export interface RestartableCluster {
  /** Superuser URL of its `postgres` database. */
  url: string;
  /** Fast shutdown (sessions get 57P01); resolves when the postmaster has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves when it accepts connections. */
  start(): Promise<void>;
}

export async function restartableCluster(t: Test): Promise<RestartableCluster> {
  const dataDir = scratchDataDir(t, { open: true });
  const first = await startEmbedded({ dataDir });
  let stopRunning: (() => Promise<void>) | undefined = first.stop;
  t.teardown(async () => {
    await stopRunning?.();
  });
  const port = Number(new URL(first.url).port);
  const user = postgresOsUser();
  const bins = postgresBinaries(user);
  const dir = existingCluster(dataDir);
  if (!dir) throw new Error(`no cluster in ${dataDir}`);
  return {
    url: first.url,
    async stop() {
      const stopping = stopRunning;
      stopRunning = undefined;
      await stopping?.();
    },
    async start() {
      const outcome = await startPostmaster(bins, dir, port, user, companionFiles(dataDir).log);
      if (!("started" in outcome))
        throw new Error(`could not restart on port ${port}: ${JSON.stringify(outcome)}`);
      stopRunning = outcome.started.stop;
    },
  };
}
