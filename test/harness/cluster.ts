// Scratch places for tests that start embedded clusters of their own (test/db/), and the
// command-line entry points run as a user runs them.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { removeCluster } from "../../db/embedded/location.ts";
import { REPO } from "./templates.ts";

/**
 * `<scratch>/app/.data/postgres`, where an app keeps its cluster. The scratch directory is made
 * by mkdtemp (mode 0700, like a clone in `mktemp -d`) unless `open`. Removed at teardown with any
 * cluster it points to.
 */
export function scratchDataDir(t: Test, { open = false } = {}): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "api-db-"));
  if (open) fs.chmodSync(base, 0o755);
  const dataDir = path.join(base, "app", ".data", "postgres");
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  t.teardown(() => {
    removeCluster(dataDir);
    fs.rmSync(base, { recursive: true, force: true });
  });
  return dataDir;
}

/** Connects, runs `SELECT current_user`, disconnects. */
export async function whoAmI(config: string | pg.ClientConfig): Promise<string> {
  const client = new pg.Client(typeof config === "string" ? { connectionString: config } : config);
  await client.connect();
  try {
    return (await client.query("SELECT current_user AS u")).rows[0].u;
  } finally {
    await client.end();
  }
}

/** Runs `cli/<file>` with `args` as `make` would, without DATABASE_URL. */
export function runCliFile(
  file: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  const { DATABASE_URL: _unused, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(REPO, "cli", file), ...args], {
    cwd: REPO,
    env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
