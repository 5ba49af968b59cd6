// bench/profile.ts reads a real V8 CPU profile three ways: top self time, two profiles side by
// side, and the inclusive tree under a frame.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t, { type Test } from "tap";

const REPO = path.resolve(import.meta.dirname, "../..");

function profiled(t: Test): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "profile-test-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, "hot.mjs");
  fs.writeFileSync(
    script,
    `function innerSpinForProfileTest(n) { let x = 0; for (let i = 0; i < n; i++) x += Math.sqrt(i); return x; }
function outerSpinForProfileTest() { const end = Date.now() + 400; let x = 0; while (Date.now() < end) x += innerSpinForProfileTest(10000); return x; }
outerSpinForProfileTest();
`,
  );
  const run = spawnSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, script], {
    encoding: "utf8",
  });
  t.equal(run.status, 0, "the profiled script ran");
  const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  return path.join(dir, file);
}

const profile = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "bench/profile.ts", ...args], {
    cwd: REPO,
    encoding: "utf8",
  });

t.test("the three readings of one profile", async (t) => {
  const file = profiled(t);
  const top = profile(file, "10");
  t.equal(top.status, 0, top.stderr);
  t.match(top.stdout, /innerSpinForProfileTest/, "top self time lists the hot function");

  const under = profile(file, "--under", "outerSpinForProfileTest", "2");
  t.equal(under.status, 0, under.stderr);
  t.match(under.stdout, /under 1 frame\(s\) named like "outerSpinForProfileTest"/);
  t.match(under.stdout, /^\s+\d+ innerSpinForProfileTest /m, "its callee in the tree below it");

  const against = profile(file, "--against", file, "1000");
  t.equal(against.status, 0, against.stderr);
  t.match(
    against.stdout,
    /\| (\d+) \| \1 \| 0 \| `innerSpinForProfileTest/,
    "the same profile: no difference",
  );
});
