// Where the tests' own Postgres clusters keep their data: in memory (/dev/shm) when it has room,
// else the temporary directory. The suite creates and drops databases and commits thousands of
// times; on CI's virtual disk each waits for its writes to reach the disk. Measured there, 20
// databases created and dropped: 58-263 ms a CREATE DATABASE and 18-80 ms a DROP on disk,
// 17-30 and 6-8 ms in /dev/shm. Nothing a test keeps must outlive the machine.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { removeCluster } from "../../db/embedded/location.ts";
import { readPostmasterPid } from "../../db/embedded/postmaster.ts";

/** Below this much free memory-backed space (a container's 64 MB /dev/shm), the disk. */
const NEEDED_BYTES = 4 * 2 ** 30;

export const CLUSTER_ROOT = memoryRoot() ?? os.tmpdir();

function memoryRoot(): string | undefined {
  const shm = "/dev/shm";
  try {
    const space = fs.statfsSync(shm);
    fs.accessSync(shm, fs.constants.W_OK);
    return space.bavail * space.bsize >= NEEDED_BYTES ? shm : undefined;
  } catch {
    return undefined;
  }
}

/** The names the tests give their clusters' directories in CLUSTER_ROOT (realtime files' included). */
const CLUSTER_PREFIXES = ["api-test-pg-", "api-replica-"];

/** Left alone however dead it looks: a run may be making it (initdb) this very minute. */
const STALE_AFTER_MS = 30 * 60_000;

/**
 * Removes what runs that were killed left in `root`: a test cluster's directory (with its
 * password and log files) older than half an hour in which no postmaster runs. In /dev/shm each
 * holds a few hundred MB of memory until the machine restarts. Another run's live cluster has a
 * running postmaster and stays. Returns the names removed.
 */
export function sweepStaleClusters(root = CLUSTER_ROOT, now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!CLUSTER_PREFIXES.some((p) => name.startsWith(p))) continue;
    const entry = path.join(root, name);
    const dir = entry.replace(/\.(password|log)$/, "");
    try {
      if (now - fs.lstatSync(entry).mtimeMs < STALE_AFTER_MS) continue;
      if (fs.existsSync(dir) && runsPostmaster(dir)) continue;
      removeCluster(entry);
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

/** Whether a postmaster runs on `dir` or on a cluster one level below it (a replica test's pair). */
function runsPostmaster(dir: string): boolean {
  if (readPostmasterPid(dir)) return true;
  if (!fs.statSync(dir).isDirectory()) return false;
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .some((e) => e.isDirectory() && readPostmasterPid(path.join(dir, e.name)) !== undefined);
}
