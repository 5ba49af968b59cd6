// Runs an entry point (cli/<name>.ts) or a make target as a user would, for the CLI tests.
// Not a test file.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { REPO } from "../harness/templates.ts";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function cli(script: string, args: string[], env: Record<string, string | undefined> = {}): Ran {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(REPO, "cli", script), ...args], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function make(args: string[], env: Record<string, string | undefined> = {}): Ran {
  const r = spawnSync("make", ["--no-print-directory", "-s", ...args], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
