// `make test`'s runner: one throwaway Postgres cluster per run (DATABASE_URL when set, else an
// embedded cluster), migrated template databases built once, then tap over every test file,
// ending with the plain `N passed, N failed` line CI reads.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { providePostgres } from "../db/postgres.ts";
import { ensureChromium } from "./harness/installChromium.ts";
import { prepareCluster } from "./harness/templates.ts";

const started = Date.now();
try {
  ensureChromium();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-test-pg-"));
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
    const tap = spawn(
      path.join(import.meta.dirname, "../node_modules/.bin/tap"),
      ["--reporter=terse", ...args],
      {
        env,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let tail = "";
    tap.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-4000);
    });
    tap.on("close", (status) => {
      // tap's own summary is `# { total: 12, pass: 11, fail: 1, skip: 0 }`.
      const summary = /# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?/.exec(tail);
      const passed = Number(summary?.[2] ?? 0);
      let failed = Number(summary?.[3] ?? 0);
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

/** `not ok <file>: <first failure>` for each result of this run in .tap/test-results with a failure. */
function failedFiles(): string[] {
  const root = path.join(import.meta.dirname, "../.tap/test-results");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      // Written by this run (a file's results stay from the last run that ran it).
      else if (fs.statSync(file).mtimeMs >= started) {
        const first = /^\s*not ok .*$/m.exec(fs.readFileSync(file, "utf8"));
        if (first)
          found.push(`not ok ${path.relative(root, file).replace(/\.tap$/, "")}: ${first[0].trim()}`);
      }
    }
  };
  try {
    walk(root);
  } catch {}
  return found;
}
