// `make run`'s development token secret (cli/devSecret.ts), as docs/security.md states it: made
// once, random, readable by its owner only (mode 0600: another local user who read it could mint
// tokens for any caller), reused on the next start, and never used when a key is configured.
// Pure: a scratch directory, no database.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t, { type Test } from "tap";
import { devSecretFile, useDevSecret } from "../../cli/devSecret.ts";

function scratchAppDir(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-secret-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test("made once, 0600, random, and reused", async (t) => {
  const appDir = scratchAppDir(t);
  const env: NodeJS.ProcessEnv = {};
  t.equal(useDevSecret(appDir, env), true, "no key configured: the development secret is used");
  const file = devSecretFile(appDir);
  t.equal(fs.statSync(file).mode & 0o777, 0o600, "only its owner can read it");
  const secret = fs.readFileSync(file, "utf8").trim();
  t.match(secret, /^[0-9a-f]{64}$/, "256 random bits");
  t.equal(env.JWT_SECRET, secret);

  const again: NodeJS.ProcessEnv = {};
  t.equal(useDevSecret(appDir, again), true);
  t.equal(again.JWT_SECRET, secret, "the next start signs with the same secret");

  const other = scratchAppDir(t);
  const otherEnv: NodeJS.ProcessEnv = {};
  useDevSecret(other, otherEnv);
  t.not(otherEnv.JWT_SECRET, secret, "each app gets its own");
});

t.test("a configured key wins: no file is made", async (t) => {
  for (const key of ["JWT_SECRET", "JWT_PUBLIC_KEY"]) {
    const appDir = scratchAppDir(t);
    const env: NodeJS.ProcessEnv = { [key]: "configured" };
    t.equal(useDevSecret(appDir, env), false, key);
    t.equal(env[key], "configured", `${key} untouched`);
    t.notOk(fs.existsSync(devSecretFile(appDir)), `${key}: no development secret written`);
  }
});
