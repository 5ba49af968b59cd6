// `make bench-instructions`: the database ceiling of `make bench` as CPU instructions, which a
// busy machine cannot move. For every case with a hand-written twin (bench/cases.ts `ceiling`),
// callgrind counts the instructions one call costs a Postgres backend: the gateway's statement
// (`SELECT api."<route>"(params, ctx)`, the route function) and the hand-written one, each
// prepared and run with the bench's values in a single-user backend (`postgres --single`) on the
// bench's data, with the cluster at rest. A run of BASE calls is subtracted from a run of
// BASE + CALLS, so start-up, the first call's planning and cold caches drop out.
//
// pgbench (bench/run.ts) measures time, which includes what instructions do not show (cache
// misses, ten backends sharing two cores) but moves by up to 0.2 between runs on a shared VM;
// these counts repeat to within a few percent, so a change to what the generator emits can be
// weighed in one run. Needs valgrind; skipped with a message without it. Prints a markdown
// section; BENCH_WRITE_DOCS=1 also writes docs/benchmarks-instructions.md.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readAppSchema } from "../app/load.ts";
import { createDatabase, withClient } from "../db/databases.ts";
import { postgresBinaries } from "../db/embedded/binaries.ts";
import { companionFiles, existingCluster, removeCluster } from "../db/embedded/location.ts";
import { postgresOsUser, runAs } from "../db/embedded/osUser.ts";
import { migrateApp } from "../db/migrate.ts";
import { startEmbedded } from "../db/postgres.ts";
import { routeFunctionName } from "../generator/routes/index.ts";
import { ident, literal } from "../generator/sql/sql.ts";
import { APPS, type AppName, type Case, cases, REPO } from "./cases.ts";
import { planCacheMode } from "./sql.ts";

/**
 * Calls counted per statement, and the calls run first in both runs (subtracted): past Postgres's
 * first five executions of a prepared statement, which it plans for their values before it
 * settles on a plan (the query texts of api.execute_cached included), as a long-lived gateway
 * connection has long done.
 */
const CALLS = Number(process.env.BENCH_INSTRUCTION_CALLS ?? 10);
const BASE = 8;
const ONLY = process.env.BENCH_ONLY ?? "";

/** A statement on one line: the single-user backend ends a statement at a newline. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
/** A bench value as a quoted literal: text, or JSON for anything else (as pgbench binds it). */
const quoted = (value: unknown) => literal(typeof value === "string" ? value : JSON.stringify(value));
const thousands = (n: number) => `${Math.round(n / 1000).toLocaleString("en-US")}k`;

interface Count {
  app: AppName;
  name: string;
  route: number;
  hand: number;
}

const valgrind = spawnSync("valgrind", ["--version"], { encoding: "utf8" });
if (valgrind.status !== 0) {
  console.log("bench/instructions.ts: skipped, valgrind is not installed (apt-get install valgrind)");
  process.exit(0);
}

const started = Date.now();
let postgresVersion = "PostgreSQL (embedded)";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-instructions-"));
const user = postgresOsUser();
const server = await startEmbedded({ dataDir, throwaway: false });
const counts: Count[] = [];
try {
  const selected = cases(1).filter((c) => c.ceiling && `${c.app}: ${c.name}`.includes(ONLY));
  const apps = [...new Set(selected.map((c) => c.app))];
  const functions = new Map<string, string>();
  for (const name of apps) await prepareApp(name, functions);
  // The backends below open the cluster's files themselves: the postmaster must be gone.
  await server.stop();
  const dir = existingCluster(dataDir) as string;
  const postgres = postgresBinaries(user).postgres;
  postgresVersion = spawnSync(postgres, ["--version"], { encoding: "utf8" }).stdout.trim() || postgresVersion;
  for (const name of apps) {
    for (const c of selected.filter((c) => c.app === name)) {
      const count = countCase(postgres, dir, c, functions);
      counts.push(count);
      console.log(
        `${c.app}: ${c.name}: route ${thousands(count.route)}, hand-written ${thousands(count.hand)}, ratio ${(count.hand / count.route).toFixed(2)}`,
      );
    }
  }
} finally {
  await server.stop();
  removeCluster(dataDir);
  const files = companionFiles(dataDir);
  fs.rmSync(files.password, { force: true });
  fs.rmSync(files.log, { force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const report = render(counts, (Date.now() - started) / 60000);
console.log(`\n${report}`);
if (process.env.BENCH_WRITE_DOCS === "1") {
  fs.writeFileSync(path.join(REPO, "docs", "benchmarks-instructions.md"), report);
}

/** The app migrated and seeded as `make bench` has it, in database `bench_<app>`. */
async function prepareApp(name: AppName, functions: Map<string, string>): Promise<void> {
  const app = APPS[name];
  const appDir = fs.mkdtempSync(path.join(os.tmpdir(), `api-bench-${name}-`));
  try {
    app.prepare(appDir);
    const url = await createDatabase(server.url, `bench_${name}`);
    await migrateApp({ appDir, url });
    await withClient(url, async (client) => {
      for (const seed of app.seeds()) await client.query(seed);
      await client.query("VACUUM (ANALYZE)");
      await client.query("CHECKPOINT");
    });
    const schema = readAppSchema(appDir).schema;
    if (!schema) throw new Error(`${name}: the schema does not load`);
    for (const group of schema.endpoints)
      for (const r of group.routes)
        functions.set(`${name} ${r.method} ${group.baseUrl}${r.path}`, routeFunctionName(r, group));
  } finally {
    fs.rmSync(appDir, { recursive: true, force: true });
  }
}

/** One call of each statement of `c`, in instructions. */
function countCase(postgres: string, dir: string, c: Case, functions: Map<string, string>): Count {
  const ceiling = c.ceiling as NonNullable<Case["ceiling"]>;
  const fn = functions.get(`${c.app} ${ceiling.route}`);
  if (!fn) throw new Error(`${c.name}: no route function for ${ceiling.route}`);
  const perCall = (setup: string[], call: string) => {
    // Uncounted: the first backend to run a statement on a fresh cluster leaves the catalog rows
    // it reads in a state the next ones find cheaper (`GET /user/me` read 243k instead of 210k
    // without this run).
    countInstructions(postgres, dir, c.app, setup, BASE, call);
    const base = countInstructions(postgres, dir, c.app, setup, BASE, call);
    return (countInstructions(postgres, dir, c.app, setup, BASE + CALLS, call) - base) / CALLS;
  };
  const route = perCall(
    [`PREPARE r(jsonb, jsonb) AS SELECT ${ident("api", fn)}($1, $2)`],
    `EXECUTE r(${quoted(ceiling.params)}, ${quoted(APPS[c.app].caller)})`,
  );
  const hand = perCall(
    [`SET plan_cache_mode = ${planCacheMode(ceiling.sql)}`, `PREPARE h AS ${oneLine(ceiling.sql)}`],
    `EXECUTE h(${ceiling.values.map(quoted).join(", ")})`,
  );
  return { app: c.app, name: c.name, route, hand };
}

/**
 * The instructions a single-user backend on `database` executes for `setup` and then `call` run
 * `times` times (one statement per line), start-up and shutdown included.
 */
function countInstructions(
  postgres: string,
  dir: string,
  database: string,
  setup: string[],
  times: number,
  call = "",
): number {
  const input = `${[...setup, ...Array(call ? times : 0).fill(call)].join("\n")}\n`;
  const run = spawnSync(
    "valgrind",
    [
      "--tool=callgrind",
      "--callgrind-out-file=/dev/null",
      postgres,
      "--single",
      "-D",
      dir,
      `bench_${database}`,
    ],
    { ...runAs(user), input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const failed = /^(?:ERROR|FATAL):.*$/m.exec(`${run.stdout}\n${run.stderr}`);
  if (run.status !== 0 || failed) {
    throw new Error(`postgres --single on bench_${database}: ${failed?.[0] ?? run.stderr.slice(-500)}`);
  }
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (!collected) throw new Error(`callgrind reported no count: ${run.stderr.slice(-500)}`);
  return Number(collected[1]);
}

function render(rows: Count[], minutes: number): string {
  const table = (app: AppName) =>
    [
      "| case | gateway statement | hand-written | ratio |",
      "|---|---:|---:|---:|",
      ...rows
        .filter((r) => r.app === app)
        .map(
          (r) =>
            `| ${r.name} | ${thousands(r.route)} | ${thousands(r.hand)} | **${(r.hand / r.route).toFixed(2)}** |`,
        ),
    ].join("\n");
  return `# Benchmarks: instructions per call

Written by \`make bench-instructions\` (bench/instructions.ts); do not edit by hand.

## Last run

- Command: \`make bench-instructions\` (BENCH_INSTRUCTION_CALLS=${CALLS}), ${minutes.toFixed(1)} minutes
- Machine: ${os.cpus()[0]?.model.trim() ?? "unknown CPU"}; Node ${process.version}; ${valgrind.stdout.trim()}; ${postgresVersion}

### Example app

${table("example")}

### Restura fixture

${table("restura")}

## How it is measured

- The cases of [benchmarks](benchmarks.md) that have a hand-written twin, on the same data (the
  plan check's seeds, vacuumed and analyzed), with the same values and the same caller.
- Each statement is prepared and executed in a single-user backend (\`postgres --single\`) under
  callgrind, with the cluster at rest; the count is the instructions of ${BASE} + ${CALLS} calls
  less those of ${BASE} calls in another backend, divided by ${CALLS}: what one call costs once the
  function is compiled, its plans cached and the catalog cached.
- The route function is called here by the superuser, by api_gateway in the gateway: it is a
  definer function, so row security and the column masks apply alike. The hand-written statement
  runs in the plan cache mode the hand-written server gives it.
- ratio: hand-written instructions over the gateway's (1.00: as cheap as the ceiling).
  Instructions are not time: they leave out cache misses and what ten busy backends on two cores
  cost each other (docs/performance.md "Concurrency"), so pgbench's ceiling ratio on
  [benchmarks](benchmarks.md) is lower where a request runs more distinct statements. What they
  give is a figure that repeats to within a few percent on a busy machine, to weigh a change to
  the generated SQL in one run.
`;
}
