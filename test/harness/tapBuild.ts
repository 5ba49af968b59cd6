// tap's plugin set, built before the run that needs it. npm ci installs tap built with every
// default plugin; .taprc drops some, among them @tapjs/typescript, which loads the TypeScript
// compiler into each test process. tap notices and rebuilds at the start of a run, but that run
// still starts its test processes with the loaders of the build it had already loaded: the first
// `make test` after npm ci, which is every CI run, paid about 1.9 s more a test file (measured on
// CI's host: 723-743 s of tap against 455-467 s for the same suite once built).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO } from "./templates.ts";

/** The tap command of the repository's node_modules. */
export const TAP = path.join(REPO, "node_modules/.bin/tap");
const BUILT = path.join(REPO, "node_modules/@tapjs/test/test-built/dist/esm/index.js");

/** The plugins .taprc removes (`- "!@tapjs/name"`). */
function removedPlugins(): string[] {
  const taprc = fs.readFileSync(path.join(REPO, ".taprc"), "utf8");
  return [...taprc.matchAll(/^\s*-\s*"!(@tapjs\/[\w-]+)"/gm)].map((m) => m[1] as string);
}

/** Runs `tap build` when the installed build still holds a plugin .taprc removes. */
export function ensureTapBuilt(): void {
  const built = fs.existsSync(BUILT) ? fs.readFileSync(BUILT, "utf8") : "";
  if (!removedPlugins().some((name) => built.includes(`"${name}`))) return;
  console.log("tap: building its plugin set as .taprc configures it (once after npm ci)");
  const result = spawnSync(TAP, ["build"], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`tap build failed (exit ${result.status})`);
}
