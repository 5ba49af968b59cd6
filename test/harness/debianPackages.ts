// Programs some tests drive that no npm package can supply, from Debian's packages: chromium for
// the browser tests (test/harness/browser.ts), which cannot run without it, and pgbouncer for the
// pooler test (test/scaling/pgbouncer.test.ts), which skips with its reason without it. A fresh
// machine lacks both, so the test runner installs them first, once, loudly.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { findPgbouncer } from "../scaling/pgbouncer.ts";
import { CHROMIUM } from "./browser.ts";

export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  console.log(`${CHROMIUM} is missing: installing Debian's chromium package for the browser tests`);
  if (!aptInstall("chromium") || !fs.existsSync(CHROMIUM)) {
    throw new Error(
      `could not install chromium (apt-get install -y chromium, as root): browser tests cannot run`,
    );
  }
}

/** Without it the pooler test only skips, so a failed install is a line, not an error. */
export function ensurePgbouncer(): void {
  if (!("missing" in findPgbouncer())) return;
  console.log("pgbouncer is missing: installing Debian's pgbouncer package for the pooler test");
  if (!aptInstall("pgbouncer") || "missing" in findPgbouncer())
    console.log("could not install pgbouncer (apt-get install -y pgbouncer, as root): the pooler test skips");
}

function aptInstall(name: string): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (args: string[]) => spawnSync("apt-get", args, { stdio: "inherit", env }).status === 0;
  // The package lists of a fresh machine may be stale or absent: refresh them when the install fails.
  const install = ["install", "-y", "--no-install-recommends", name];
  return run(install) || (run(["update"]) && run(install));
}
