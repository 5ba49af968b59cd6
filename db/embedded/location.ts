// Where a cluster's files live. Normally in the directory asked for (`<app>/.data/postgres`).
// When Postgres runs as another OS user (we are root) that cannot enter that directory's parent
// (a clone in a private directory), the cluster lives in a root-owned, world-searchable directory
// keyed by the asked-for path, and the asked-for path becomes a symbolic link to it: the link is
// the pointer, so removing `<app>/.data` (make clean-data) starts the next cluster afresh.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { canEnter, type OsUser } from "./osUser.ts";

export const EXTERNAL_CLUSTERS = "/var/lib/schema-api/clusters";

/** The files kept beside a cluster asked for at `dataDir`. */
export function companionFiles(dataDir: string): { password: string; log: string } {
  return { password: `${dataDir}.password`, log: `${dataDir}.log` };
}

/** The cluster's real directory when `dataDir` (or what it points to) holds an initialised one. */
export function existingCluster(dataDir: string): string | undefined {
  return fs.existsSync(path.join(dataDir, "PG_VERSION")) ? fs.realpathSync(dataDir) : undefined;
}

/** An empty directory for a new cluster, owned by `user`, reachable from `dataDir`. */
export function placeNewCluster(dataDir: string, user: OsUser | undefined): string {
  // A leftover (an unfinished initdb, or a link to a removed cluster) is replaced.
  fs.rmSync(dataDir, { recursive: true, force: true });
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true });
  let dir = dataDir;
  if (!canEnter(user, parent)) {
    const key = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
    dir = path.join(EXTERNAL_CLUSTERS, `${path.basename(path.dirname(parent))}-${key}`);
    fs.mkdirSync(EXTERNAL_CLUSTERS, { recursive: true });
    for (const d of [path.dirname(EXTERNAL_CLUSTERS), EXTERNAL_CLUSTERS]) fs.chmodSync(d, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.symlinkSync(dir, dataDir);
  }
  fs.mkdirSync(dir, { mode: 0o700 });
  if (user) fs.chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Removes a cluster and its pointer. */
export function removeCluster(dataDir: string): void {
  const real = fs.existsSync(dataDir) ? fs.realpathSync(dataDir) : undefined;
  if (real && real !== dataDir) fs.rmSync(real, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
