// Browser tests need Debian's chromium (test/harness/browser.ts); a fresh machine lacks it, so
// the test runner installs it first, once, loudly. No npm package can download a browser here.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { CHROMIUM } from "./browser.ts";

export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  console.log(`${CHROMIUM} is missing: installing Debian's chromium package for the browser tests`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (args: string[]) => spawnSync("apt-get", args, { stdio: "inherit", env }).status === 0;
  // The package lists of a fresh machine may be stale or absent: refresh them when the install fails.
  const installed =
    run(["install", "-y", "--no-install-recommends", "chromium"]) ||
    (run(["update"]) && run(["install", "-y", "--no-install-recommends", "chromium"]));
  if (!installed || !fs.existsSync(CHROMIUM)) {
    throw new Error(
      `could not install chromium (apt-get install -y chromium, as root): browser tests cannot run`,
    );
  }
}
