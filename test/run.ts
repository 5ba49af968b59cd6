// `make test`'s runner: one throwaway Postgres cluster per run (DATABASE_URL when set, else an
// embedded cluster), migrated template databases built once, then tap over every test file,
// ending with the plain `N passed, N failed` line CI reads.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { providePostgres } from "../db/postgres.ts";
import { CLUSTER_ROOT, sweepStaleClusters } from "./harness/clusterRoot.ts";
import { ensureChromium, ensurePgbouncer } from "./harness/debianPackages.ts";
import { ensureTapBuilt, TAP } from "./harness/tapBuild.ts";
import { prepareCluster } from "./harness/templates.ts";

/**
 * One test file per CPU (.taprc says what was measured); tap's own default leaves one CPU idle,
 * a single job on two (11 minutes there against 7.6 with two). A `--jobs` given to the runner comes later and wins.
 */
const JOBS = os.availableParallelism();

const started = Date.now();
try {
  ensureChromium();
  ensurePgbouncer();
  ensureTapBuilt();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const swept = sweepStaleClusters();
if (swept.length > 0)
  console.log(`removed ${swept.length} test clusters that killed runs left in ${CLUSTER_ROOT}`);
const dataDir = fs.mkdtempSync(path.join(CLUSTER_ROOT, "api-test-pg-"));
// A cluster that cannot start is one line saying what to do, not a stack trace.
const server = await providePostgres({ dataDir, throwaway: true }).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
let code = 1;
try {
  const templates = await prepareCluster(server.url);
  console.log(
    `postgres: ${server.source}; templates ${templates.join(", ")} ready in ${Date.now() - started} ms`,
  );
  // tap's reporter redraws its progress unless it believes it runs in CI; our pipe is no terminal.
  const quiet = { CONTINUOUS_INTEGRATION: "1" };
  code = await runTap(process.argv.slice(2), { ...process.env, ...quiet, TEST_PG_URL: server.url });
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);

function runTap(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const tap = spawn(TAP, ["--reporter=terse", `--jobs=${JOBS}`, ...args], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let tail = "";
    tap.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-4000);
    });
    tap.on("close", (status) => {
      // tap's own summary is `# { total: 12, pass: 11, fail: 1, skip: 0 }`.
      const summary = /# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?/.exec(tail);
      // Without it (a crash, or a reporter that stopped short: 700 failures in one file left no
      // summary), the counts come from the result files tap keeps, one per test file.
      const counted = summary ? undefined : countResults();
      const passed = Number(summary?.[2] ?? counted?.passed ?? 0);
      let failed = Number(summary?.[3] ?? counted?.failed ?? 0);
      // A crash before tap could summarise is a failure even with no failed assertion.
      if (status !== 0 && failed === 0) failed = 1;
      // Without tap's summary the reporter said nothing of what failed: name the files whose
      // results (tap keeps one per file) hold a failure.
      if (!summary && status !== 0) for (const line of failedFiles()) console.log(line);
      // On its own line even when the reporter's last line (a failure's diff) has no newline.
      const newline = tail === "" || tail.endsWith("\n") ? "" : "\n";
      console.log(`${newline}${passed} passed, ${failed} failed`);
      resolve(status ?? 1);
    });
  });
}

/** This run's result files in .tap/test-results, by name (a file's results stay from the last run that ran it). */
function thisRunsResults(): { name: string; text: string }[] {
  // Read here, not a module constant: the module's top level is still awaiting the run.
  const root = path.join(import.meta.dirname, "../.tap/test-results");
  const found: { name: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (fs.statSync(file).mtimeMs >= started)
        found.push({
          name: path.relative(root, file).replace(/\.tap$/, ""),
          text: fs.readFileSync(file, "utf8"),
        });
    }
  };
  try {
    walk(root);
  } catch {}
  return found;
}

/** `not ok <file>: <first failure>` for each result of this run with a failure. */
function failedFiles(): string[] {
  return thisRunsResults().flatMap(({ name, text }) => {
    const first = /^\s*not ok .*$/m.exec(text);
    return first ? [`not ok ${name}: ${first[0].trim()}`] : [];
  });
}

/**
 * Assertions passed and failed in this run's result files, as tap's summary counts them: each
 * test point, but not the point that closes a subtest (the first one at the indent of its
 * `# Subtest:` line).
 */
function countResults(): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  for (const { text } of thisRunsResults()) {
    const open: number[] = [];
    for (const line of text.split("\n")) {
      const subtest = /^( *)# Subtest:/.exec(line);
      if (subtest) open.push((subtest[1] as string).length);
      const point = /^( *)(not )?ok \d+/.exec(line);
      if (!point) continue;
      if (open.at(-1) === (point[1] as string).length) open.pop();
      else if (point[2]) failed++;
      else passed++;
    }
  }
  return { passed, failed };
}
