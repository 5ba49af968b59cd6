// `make bench-instructions`: the database ceiling of `make bench` as CPU instructions, which a
// busy machine cannot move. For every case with a hand-written twin (bench/cases.ts `ceiling`),
// callgrind counts the instructions one call costs a Postgres backend: the gateway's statement
// (`SELECT api."<route>"($1::jsonb, $2::jsonb)`, the route function, or its own: for a filtered or
// sorted page a batch, gateway/routes/pagedStatement.ts, for a read that needs nothing of the
// caller set a statement, gateway/routes/readStatement.ts) and the hand-written one,
// each sent through the extended protocol with the bench's values, as the two servers send them,
// on the bench's data with nothing else running (bench/countingServer.ts); the hand-written one
// also under the app's row security, to tell the app's policies from the generated code. Then the
// fixed cost of a route call, built up step by step from a bare statement to an empty generated
// function.
//
// pgbench (bench/run.ts) measures time, which includes what instructions do not show (cache
// misses, ten backends sharing two cores) but moves by up to 0.2 between runs on a shared VM;
// these counts repeat to within 0.1 %, so a change to what the generator emits can be weighed in
// one run. Needs valgrind; skipped with a message without it. Prints a markdown section;
// BENCH_WRITE_DOCS=1 also writes docs/benchmarks-instructions.md. BENCH_CALLGRIND_DIR=<dir> keeps
// each counted statement's two callgrind files there (`<case>.<statement>.base` and `.more`), for
// bench/callgrindDiff.ts to show per function where a call's instructions go.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readAppSchema } from "../app/load.ts";
import { createDatabase, withClient } from "../db/databases.ts";
import { postgresBinaries } from "../db/embedded/binaries.ts";
import { companionFiles, existingCluster, removeCluster } from "../db/embedded/location.ts";
import { postgresOsUser } from "../db/embedded/osUser.ts";
import { migrateApp } from "../db/migrate.ts";
import { startEmbedded } from "../db/postgres.ts";
import {
  CONTEXT_VARIABLE,
  contextAssignment,
  contextKeys,
  setContextCalls,
} from "../generator/api/context.ts";
import { buildModel, type Model } from "../generator/model/index.ts";
import { FUNCTION_SETTINGS } from "../generator/routes/function.ts";
import { routeFunctionName } from "../generator/routes/index.ts";
import type { Schema } from "../generator/schema/types.ts";
import { ident, literal, sql } from "../generator/sql/sql.ts";
import { APPS, type AppName, type Case, cases, functionParams, ownStatement, REPO } from "./cases.ts";
import { type CountingServer, countingServer, type Kept, type Statement } from "./countingServer.ts";
import { boundText } from "./pgbench.ts";
import { planCacheMode } from "./sql.ts";

/**
 * Calls counted per statement, and the calls run first in both backends (subtracted): past
 * Postgres's first five executions of a prepared statement, which it plans for their values before
 * it settles on a plan (the query texts of api.execute_cached included), as a long-lived gateway
 * connection has long done.
 */
const CALLS = Number(process.env.BENCH_INSTRUCTION_CALLS ?? 10);
const BASE = 8;
const ONLY = process.env.BENCH_ONLY ?? "";
const KEEP_DIR = process.env.BENCH_CALLGRIND_DIR;
if (KEEP_DIR) fs.mkdirSync(KEEP_DIR, { recursive: true });
/** Where the fixed-cost steps live, in the Restura fixture's database. */
const LADDER = "bench_ladder";

const thousands = (n: number) => `${Math.round(n / 1000).toLocaleString("en-US")}k`;
/** The route functions run as the gateway's role (they switch to api_owner themselves). */
const AS_GATEWAY = "SET ROLE api_gateway";

interface Count {
  app: AppName;
  name: string;
  route: number;
  hand: number;
  /** The hand-written statement as api_owner, under the app's row security, the caller's context set. */
  handUnderRls: number;
}

interface Step {
  what: string;
  count: number;
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
const steps: Step[] = [];
let counting: CountingServer | undefined;
try {
  const selected = cases(1).filter((c) => c.ceiling && `${c.app}: ${c.name}`.includes(ONLY));
  const apps = [...new Set(selected.map((c) => c.app))];
  const functions = new Map<string, string>();
  const prepared = new Map<AppName, { schema: Schema; model: Model; url: string }>();
  for (const name of apps) prepared.set(name, await prepareApp(name, functions));
  const restura = prepared.get("restura");
  const ladder = restura ? await prepareLadder(restura.schema, restura.url) : [];
  // The counting postmaster opens the same files: the embedded one must be gone.
  await server.stop();
  const postgres = postgresBinaries(user).postgres;
  postgresVersion = spawnSync(postgres, ["--version"], { encoding: "utf8" }).stdout.trim() || postgresVersion;
  counting = await countingServer({
    postgres,
    dataDir: existingCluster(dataDir) as string,
    user,
    password: decodeURIComponent(new URL(server.url).password),
    base: BASE,
    calls: CALLS,
  });
  for (const c of selected) {
    const count = await countCase(
      counting,
      c,
      functions,
      prepared.get(c.app) as { schema: Schema; model: Model },
    );
    counts.push(count);
    console.log(
      `${c.app}: ${c.name}: route ${thousands(count.route)}, hand-written ${thousands(count.hand)} (under row security ${thousands(count.handUnderRls)}), ratio ${(count.hand / count.route).toFixed(2)}`,
    );
  }
  for (const step of ladder) {
    const count = await counting.perCall("bench_restura", [AS_GATEWAY], step.statement);
    steps.push({ what: step.what, count });
    console.log(`fixed cost: ${step.what}: ${thousands(count)}`);
  }
} finally {
  await counting?.stop();
  await server.stop();
  removeCluster(dataDir);
  const files = companionFiles(dataDir);
  fs.rmSync(files.password, { force: true });
  fs.rmSync(files.log, { force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const report = render(counts, steps, (Date.now() - started) / 60000);
console.log(`\n${report}`);
if (process.env.BENCH_WRITE_DOCS === "1") {
  fs.writeFileSync(path.join(REPO, "docs", "benchmarks-instructions.md"), report);
}

/** The app migrated and seeded as `make bench` has it, in database `bench_<app>`. */
async function prepareApp(
  name: AppName,
  functions: Map<string, string>,
): Promise<{ schema: Schema; model: Model; url: string }> {
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
    return { schema, model: buildModel(schema), url };
  } finally {
    fs.rmSync(appDir, { recursive: true, force: true });
  }
}

/**
 * The fixed cost of a route call, one piece at a time: functions in schema bench_ladder of the
 * Restura fixture's database, each the one before plus one thing every route function has, called
 * with what `GET /user/me` is called with.
 */
async function prepareLadder(schema: Schema, url: string): Promise<{ what: string; statement: Statement }[]> {
  const caller = JSON.stringify(APPS.restura.caller);
  const empty = (name: string, options: string, declare = "", statements = "") =>
    `CREATE FUNCTION ${LADDER}.${name}(params jsonb, ctx jsonb) RETURNS json LANGUAGE plpgsql ${options}
AS $fn$ ${declare} BEGIN ${statements} RETURN NULL; END $fn$`;
  const context = contextAssignment(sql`ctx`, contextKeys(schema), true);
  const definitions = [
    empty("plpgsql", ""),
    empty("definer", "SECURITY DEFINER"),
    empty("settings", `SECURITY DEFINER ${FUNCTION_SETTINGS}`),
    empty(
      "context",
      `SECURITY DEFINER ${FUNCTION_SETTINGS}`,
      `DECLARE ${ident(CONTEXT_VARIABLE)} text[];`,
      context.toString(),
    ),
  ];
  await withClient(url, async (client) => {
    await client.query(`CREATE SCHEMA ${LADDER} AUTHORIZATION api_owner`);
    await client.query(`GRANT USAGE ON SCHEMA ${LADDER} TO api_gateway`);
    for (const definition of definitions) await client.query(definition);
    // All but the first are definer functions, owned like the generated ones.
    for (const name of ["definer", "settings", "context"]) {
      await client.query(`ALTER FUNCTION ${LADDER}.${name}(jsonb, jsonb) OWNER TO api_owner`);
    }
    await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${LADDER} TO api_gateway`);
    await client.query("CHECKPOINT");
  });
  const call = (text: string): Statement => ({ text, values: ["{}", caller] });
  const fn = (name: string) => call(`SELECT ${LADDER}.${name}($1::jsonb, $2::jsonb)`);
  return [
    {
      what: "a statement with two text parameters",
      statement: call("SELECT $1::text IS NULL, $2::text IS NULL"),
    },
    {
      what: "the parameters as jsonb (`{}` and the caller's context)",
      statement: call("SELECT $1::jsonb IS NULL, $2::jsonb IS NULL"),
    },
    { what: "an empty plpgsql function of them", statement: fn("plpgsql") },
    { what: "SECURITY DEFINER (owned by api_owner)", statement: fn("definer") },
    { what: "the three SET clauses of every route function", statement: fn("settings") },
    {
      what: "storing the whole caller context (writes; reads with raw SQL)",
      statement: fn("context"),
    },
  ];
}

/** One call of each statement of `c`, in instructions. */
async function countCase(
  counting: CountingServer,
  c: Case,
  functions: Map<string, string>,
  { schema, model }: { schema: Schema; model: Model },
): Promise<Count> {
  const ceiling = c.ceiling as NonNullable<Case["ceiling"]>;
  const fn = functions.get(`${c.app} ${ceiling.route}`);
  if (!fn) throw new Error(`${c.name}: no route function for ${ceiling.route}`);
  const database = `bench_${c.app}`;
  const caller = JSON.stringify(APPS[c.app].caller);
  const keep = (statement: string): Kept | undefined =>
    KEEP_DIR
      ? { dir: KEEP_DIR, name: `${c.app}-${c.name.replace(/\W+/g, "_").slice(0, 60)}.${statement}` }
      : undefined;
  // What the gateway sends: the route function's call, or its own statement (a read) or page batch
  // (context statement and page, one implicit transaction).
  const own = ownStatement(model, ceiling, { ...APPS[c.app].caller });
  const route = await counting.perCall(
    database,
    [AS_GATEWAY],
    {
      text: `SELECT ${ident("api", fn)}($1::jsonb, $2::jsonb)`,
      values: [functionParams(model, ceiling), caller],
      ...(own ? { cell: own } : {}),
    },
    keep("gateway"),
  );
  const handStatement = {
    text: ceiling.sql,
    values: ceiling.values.map((v) => (v == null ? null : boundText(v))),
  };
  const mode = `SET plan_cache_mode = ${planCacheMode(ceiling.sql)}`;
  const hand = await counting.perCall(database, [mode], handStatement, keep("hand"));
  // The same statement as the role the route functions read as, with the caller's context in the
  // settings for the whole session: what the app's own row policies add to it.
  const context = setContextCalls(sql`${literal(caller)}::jsonb`, contextKeys(schema), true, sql`false`);
  const handUnderRls = await counting.perCall(
    database,
    [mode, "SET ROLE api_owner", `SELECT ${context.toString()}`],
    handStatement,
    keep("hand-rls"),
  );
  return { app: c.app, name: c.name, route, hand, handUnderRls };
}

function render(rows: Count[], steps: Step[], minutes: number): string {
  const table = (app: AppName) =>
    [
      "| case | gateway statement | hand-written | ratio | hand-written under row security | ratio to it |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows
        .filter((r) => r.app === app)
        .map(
          (r) =>
            `| ${r.name} | ${thousands(r.route)} | ${thousands(r.hand)} | **${(r.hand / r.route).toFixed(2)}** | ${thousands(r.handUnderRls)} | ${(r.handUnderRls / r.route).toFixed(2)} |`,
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

### The fixed cost of a route call

Each step is the one before plus one thing every route function has, called as the gateway calls
\`GET /user/me\` of the Restura fixture (params \`{}\`, the bench's caller); the last two are an empty
generated function without and with the context settings a write stores.

${ladderTable(steps)}

## How it is measured

- The cases of [benchmarks](benchmarks.md) that have a hand-written twin, on the same data (the
  plan check's seeds, vacuumed and analyzed), with the same values and the same caller.
- Each statement is sent as the servers send it (extended protocol: parsed once as a named
  statement, bound with text values, executed) to a postmaster running under callgrind with
  nothing else to do (bench/countingServer.ts); each backend writes its own count when it exits.
  The count is the instructions of a backend that ran ${BASE} + ${CALLS} calls less those of one that
  ran ${BASE}, divided by ${CALLS}: what one call costs once the function is compiled, its plans
  cached and the catalog cached.
- The gateway's statement runs as api_gateway, as the gateway sends it: the route function's call
  with the request as the gateway passes it (a cursor decoded, gateway/routes/cursor.ts), or, for
  the filtered and sorted pages, the gateway's own batch (its context statement and the page, one
  pipeline, one implicit transaction: gateway/routes/pagedStatement.ts), or, for the ONE and
  ARRAY reads without raw SQL, its own statement, after the same context statement where the
  tables' policies or masks read the caller (gateway/routes/readStatement.ts); the hand-written
  statement as the superuser, as the hand-written server runs it (a role with table grants and
  BYPASSRLS measured 0.4-3 % more on the four statements tried), in the plan cache mode the
  hand-written server gives it.
- hand-written under row security: the same statement as api_owner, the role the route functions
  read as, with the caller's context in the settings: the app's own row policies apply to it as
  they do to the route. What the hand-written server leaves out that the gateway may not is then
  split in two: the app's policies (the difference between the two hand-written columns) and
  what the generated function adds (\`ratio to it\`, the figure the generated SQL can move).
- ratio: hand-written instructions over the gateway's (1.00: as cheap as the ceiling).
  Instructions are not time: they leave out cache misses (a route function misses the first-level
  caches two to five times as often per instruction as the hand-written statement,
  docs/performance.md "Time, not instructions") and what ten busy backends on two cores cost each
  other (docs/performance.md "Concurrency"), so pgbench's ceiling ratio on
  [benchmarks](benchmarks.md) is lower where a request runs more distinct statements: read the
  ratios here as upper bounds. What they give is a figure that repeats on a busy machine, to weigh
  a change to the generated SQL in one run.
- Where a call's instructions go: \`BENCH_CALLGRIND_DIR=<dir>\` keeps each counted statement's two
  callgrind files, and \`node --import tsx bench/callgrindDiff.ts <dir>/<case>.gateway <dir>/<case>.hand\`
  prints both statements' instructions a call by Postgres function, largest difference first.
`;
}

function ladderTable(steps: Step[]): string {
  if (steps.length === 0) return "(not run: BENCH_ONLY left out the Restura fixture)";
  return [
    "| step | instructions a call | added by the step |",
    "|---|---:|---:|",
    ...steps.map(
      (step, i) =>
        `| ${step.what} | ${thousands(step.count)} | ${i === 0 ? "" : `+${thousands(step.count - (steps[i - 1] as Step).count)}`} |`,
    ),
  ].join("\n");
}
