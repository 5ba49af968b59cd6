// `make bench`: the gateway against a hand-written Fastify + pg server (bench/baseline.ts), for
// the example app and the Restura fixture at scale (test/plans/*.scale.sql), on one throwaway
// cluster. Per case: both servers' answers checked identical first, then autocannon rounds
// alternating between them; throughput, p50/p99 latency, the gateway's RSS, each server's CPU and
// the cluster's CPU while it ran; then pgbench on the gateway's statement and the hand-written
// one, plain and under the app's row security (the database ceiling). BENCH_WRITE_DOCS=1 writes
// docs/benchmarks.md.

import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import autocannon from "autocannon";
import jwt from "jsonwebtoken";
import { readAppSchema } from "../app/load.ts";
import { createDatabase, withClient } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { freePort, providePostgres } from "../db/postgres.ts";
import { batchSteps } from "../gateway/cellQuery.ts";
import { contextKeys } from "../generator/api/context.ts";
import { API_GATEWAY } from "../generator/api/names.ts";
import { buildModel } from "../generator/model/index.ts";
import { routeFunctionName } from "../generator/routes/index.ts";
import {
  APPS,
  type AppName,
  type Case,
  type Claims,
  cases,
  examplePool,
  functionParams,
  ownStatement,
  REPO,
} from "./cases.ts";
import {
  clusterCpuSeconds,
  cpuSeconds,
  hasProc,
  machineCpuSeconds,
  ownTreeCpuSeconds,
  rssMb,
} from "./measure.ts";
import { boundValues, findPgbench, pgbenchTps, pipelinedValues, rowSecuritySettings } from "./pgbench.ts";
import { type Machine, type Result, writeReport } from "./report.ts";
import { planCacheMode } from "./sql.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 2);
/** pgbench runs of each statement, alternating with the other's. */
const PGBENCH_ROUNDS = 3;
/** Connections of each server's pool (both the same). */
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 10);
/** DELETE requests a run: 10,000 take about 2 s, where 3,000 (0.5 s) moved the ratio by 0.2 between runs. */
const DELETES_PER_RUN = Number(process.env.BENCH_DELETES ?? 10000);
/**
 * BENCH_RATE=<req/s>: both servers get the same offered load instead of all they can take, so
 * their CPU per request compares at equal throughput (batching makes a busier server cheaper per
 * request).
 */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/** Only the cases whose app or name contains this text. */
const ONLY = process.env.BENCH_ONLY ?? "";
const WARMUP_SECONDS = 2;

type Target = "gateway" | "baseline";
/** The pgbench statements: the two servers', and the hand-written one under row security. */
type Ceiling = Target | "underRls";

const started = Date.now();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-pg-"));
const server = await providePostgres({ dataDir, throwaway: true });
const ownCluster = server.source === "embedded" && hasProc;
const children: ChildProcess[] = [];
const results: Result[] = [];
const pgbench = findPgbench();
const notes: string[] = [];
if (!pgbench)
  notes.push("pgbench not found (apt-get install postgresql-client): the ceiling columns are empty.");
if (!ownCluster) notes.push("DATABASE_URL set or no /proc: Postgres CPU not measured.");
const loadBefore = os.loadavg()[0] ?? 0;
// Other work on the machine during the run: all CPU time less the bench's own (read at the end,
// once the servers and the cluster are stopped and reaped).
const machineBefore = machineCpuSeconds();
const ownBefore = ownTreeCpuSeconds();
let postgresVersion = "";
try {
  postgresVersion = await withClient(
    server.url,
    async (c) => (await c.query("SHOW server_version")).rows[0].server_version,
  );
  const selected = cases(DELETES_PER_RUN).filter((c) =>
    ONLY.split("|").some((only) => `${c.app}: ${c.name}`.includes(only)),
  );
  for (const app of Object.keys(APPS) as AppName[]) {
    const appCases = selected.filter((c) => c.app === app);
    if (appCases.length > 0) await benchApp(app, appCases);
  }
} finally {
  await stopChildren();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const machine: Machine = {
  cpus: os.availableParallelism(),
  cpuModel: os.cpus()[0]?.model ?? "?",
  memoryGb: os.totalmem() / 2 ** 30,
  node: process.version,
  postgres: postgresVersion,
  loadBefore,
  loadAfter: os.loadavg()[0] ?? 0,
  ...(hasProc
    ? {
        otherCpuShare:
          (machineCpuSeconds() - machineBefore - (ownTreeCpuSeconds() - ownBefore)) /
          ((Date.now() - started) / 1000),
      }
    : {}),
  minutes: (Date.now() - started) / 60000,
  settings: { SECONDS, ROUNDS, CONNECTIONS, POOL_SIZE, PGBENCH_SECONDS },
};
writeReport(results, machine, notes, process.env.BENCH_WRITE_DOCS === "1");

async function benchApp(name: AppName, appCases: Case[]): Promise<void> {
  const app = APPS[name];
  const appDir = fs.mkdtempSync(path.join(os.tmpdir(), `api-bench-${name}-`));
  try {
    app.prepare(appDir);
    const url = await createDatabase(server.url, `bench_${name}_${randomBytes(3).toString("hex")}`);
    const t0 = Date.now();
    await migrateApp({ appDir, url });
    await withClient(url, async (client) => {
      for (const seed of app.seeds()) await client.query(seed);
      // The seeds' rows all-visible and their statistics fresh before anything is timed: otherwise
      // autovacuum visits the new tables during the first cases, taking CPU from one server's
      // rounds and turning index scans into index-only scans midway.
      await client.query("VACUUM (ANALYZE)");
    });
    console.log(`${name}: migrated and seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const schema = readAppSchema(appDir).schema;
    if (!schema) throw new Error(`${name}: the schema does not load`);
    const model = buildModel(schema);
    const functions = new Map<string, string>();
    for (const group of schema.endpoints)
      for (const r of group.routes)
        functions.set(`${r.method} ${group.baseUrl}${r.path}`, routeFunctionName(r, group));

    const secret = randomBytes(48).toString("base64url");
    const sign = (claims: Claims) => jwt.sign(claims, secret, { algorithm: "HS256", expiresIn: "2h" });
    const env = {
      ...process.env,
      DATABASE_URL: url,
      JWT_SECRET: secret,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      DB_POOL_SIZE: String(POOL_SIZE),
      // The Restura fixture's custom routes have no handlers (answer 501); none is benchmarked.
      // The example's must all load.
      ...(name === "restura" ? { ALLOW_MISSING_HANDLERS: "1" } : {}),
    };
    const gatewayPort = await freePort();
    // BENCH_CPU_PROF=<dir>: the gateway and the baseline write V8 CPU profiles there when they exit
    // (bench/profile.ts reads them).
    const profile = process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
    const gateway = spawn(process.execPath, [...profile, "--import", "tsx", "cli/run.ts", "--app", appDir], {
      cwd: REPO,
      env: { ...env, PORT: String(gatewayPort) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(gateway);
    await waitForLine(gateway, /^serving /);
    const baselinePort = await freePort();
    const baseline = fork(path.join(REPO, "bench/baseline.ts"), {
      env: { ...env, PORT: String(baselinePort), BENCH_APP: name },
      execArgv: [...profile, "--import", "tsx"],
    });
    children.push(baseline);
    await new Promise((resolve) => baseline.once("message", resolve));
    const ports: Record<Target, number> = { gateway: gatewayPort, baseline: baselinePort };
    const pids: Record<Target, number> = { gateway: gateway.pid ?? 0, baseline: baseline.pid ?? 0 };

    console.log(`${name}: ${SECONDS}s x ${ROUNDS} rounds per server and case, ${CONNECTIONS} connections`);
    for (const c of appCases) {
      const callers = (c.callers ?? [app.caller]).map(sign);
      // The rows DELETE removes (two for the answer check, then perRun for every load run), made
      // just before it, so that the cases before it read the seeds' tables as the plan check does.
      if (c.deletes) {
        const rows = 2 + c.deletes.perRun * 2 * (ROUNDS + 1);
        await withClient(url, (client) => client.query(examplePool(rows)));
      }
      await checkAnswers(c, ports, callers[0] as string);
      const result = await measure(c, ports, pids, callers);
      if (c.ceiling && pgbench) {
        const fn = functions.get(c.ceiling.route);
        if (!fn) throw new Error(`${c.name}: no route function for ${c.ceiling.route}`);
        const ctx = { ...app.caller };
        // A Unicode-escaped name: pgbench would read the `:id` of "GET /api/v1/task/:id" as a variable.
        const name = fn.replaceAll("\\", "\\005c").replaceAll('"', '""').replaceAll(":", "\\003a");
        // The gateway's statement: the route function's call, or its own (a page batch, a read).
        const own = ownStatement(model, c.ceiling, ctx);
        const call: {
          sql: string | string[];
          vars: Record<string, string>;
          settings: Record<string, string>;
        } = own
          ? {
              ...pipelinedValues(batchSteps(own, undefined)),
              settings: { role: API_GATEWAY, ...(own.utc ? { timezone: "UTC" } : {}) },
            }
          : {
              ...boundValues(`SELECT api.U&"${name}"($1::jsonb, $2::jsonb)`, [
                functionParams(model, c.ceiling),
                JSON.stringify(ctx),
              ]),
              settings: {},
            };
        const planning = { plan_cache_mode: planCacheMode(c.ceiling.sql) };
        const hand = { ...boundValues(c.ceiling.sql, c.ceiling.values), settings: planning };
        // The same statement under the app's row security: what its policies cost without the
        // generated code (bench/pgbench.ts rowSecuritySettings).
        const underRls = {
          ...hand,
          settings: { ...planning, ...rowSecuritySettings(ctx, contextKeys(schema)) },
        };
        // Alternating runs, the median of each side's: one run of each read a passing autovacuum
        // or a noisy second as a difference between the statements.
        const tps: Record<Ceiling, number[]> = { gateway: [], baseline: [], underRls: [] };
        for (let round = 0; round < PGBENCH_ROUNDS; round++) {
          for (const [target, statement] of [
            ["gateway", call],
            ["baseline", hand],
            ["underRls", underRls],
          ] as const) {
            const run = pgbenchTps(
              pgbench,
              url,
              statement.sql,
              PGBENCH_SECONDS,
              4,
              statement.vars,
              statement.settings,
            );
            if (run.tps !== undefined) tps[target].push(run.tps);
            // Once per case and error, not once per run: a failing statement fails all three.
            const note = `${c.name}: pgbench: ${run.error}`;
            if (run.error && !notes.includes(note)) notes.push(note);
          }
        }
        result.pgbench = {
          gateway: middle(tps.gateway),
          baseline: middle(tps.baseline),
          underRls: middle(tps.underRls),
        };
      }
      results.push(result);
      console.log(summaryLine(result));
    }
    await stopChildren();
  } finally {
    fs.rmSync(appDir, { recursive: true, force: true });
  }
}

/** Both servers give the same status and JSON (volatile keys aside) before anything is timed. */
async function checkAnswers(c: Case, ports: Record<Target, number>, token: string): Promise<void> {
  const bodies: unknown[] = [];
  for (const [i, target] of (["gateway", "baseline"] as Target[]).entries()) {
    const url = `http://127.0.0.1:${ports[target]}${c.deletes ? c.deletes.paths(i)[0] : c.path}`;
    const res = await fetch(url, request(c, token));
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${c.name}: ${target} answered HTTP ${res.status}: ${text}`);
    const body = JSON.parse(text) as { data: Record<string, unknown> };
    for (const key of c.volatile ?? []) delete body.data[key];
    bodies.push(body);
  }
  if (!isDeepStrictEqual(bodies[0], bodies[1])) {
    throw new Error(
      `${c.name}: the gateway and the baseline answer differently:\n${JSON.stringify(bodies, null, 1)}`,
    );
  }
}

function request(c: Case, token: string) {
  return {
    method: c.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(c.headers ?? {}),
      ...(c.body ? { "content-type": "application/json" } : {}),
    } as Record<string, string>,
    ...(c.body ? { body: JSON.stringify(c.body) } : {}),
  };
}

async function measure(
  c: Case,
  ports: Record<Target, number>,
  pids: Record<Target, number>,
  tokens: string[],
): Promise<Result> {
  const acc = {
    gateway: {
      rps: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
      cpu: 0,
      pgCpu: 0,
      requests: 0,
      wall: 0,
      rss: 0,
    },
    baseline: {
      rps: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
      cpu: 0,
      pgCpu: 0,
      requests: 0,
      wall: 0,
      rss: 0,
    },
  };
  let run = 2;
  for (let round = 0; round <= ROUNDS; round++) {
    for (const target of ["gateway", "baseline"] as Target[]) {
      // Round 0 warms both servers up (JIT, plans, connections) and is not counted.
      const warm = round === 0;
      const cpu0 = cpuSeconds(pids[target]);
      const pg0 = ownCluster ? clusterCpuSeconds(dataDir) : 0;
      const t0 = process.hrtime.bigint();
      const paths = c.deletes ? c.deletes.paths(run++) : (c.paths ?? [c.path]);
      const { result: r, lastResponse } = await load(
        `http://127.0.0.1:${ports[target]}`,
        c,
        tokens,
        paths,
        warm ? WARMUP_SECONDS : SECONDS,
      );
      // Up to the last answer: autocannon settles a run on its next whole-second tick, so a
      // DELETE run of 1,000 requests served in 0.2 s took a second by the clock around it, and
      // both servers measured the same 994 req/s.
      const wall = Number(lastResponse - t0) / 1e9;
      if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
        throw new Error(
          `${c.name}: ${target}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`,
        );
      if (warm) continue;
      const a = acc[target];
      // Wall time, not autocannon's whole-second duration: a DELETE run is a fixed number of requests.
      a.rps.push(r.requests.total / wall);
      a.p50.push(r.latency.p50);
      a.p99.push(r.latency.p99);
      a.cpu += cpuSeconds(pids[target]) - cpu0;
      a.pgCpu += ownCluster ? clusterCpuSeconds(dataDir) - pg0 : Number.NaN;
      a.wall += wall;
      a.requests += r.requests.total;
      a.rss = Math.max(a.rss, rssMb(pids[target]));
    }
  }
  // Medians: one round that a burst on the host slowed does not move the figure.
  const side = (t: Target) => ({
    rps: median(acc[t].rps),
    p50: median(acc[t].p50),
    p99: median(acc[t].p99),
    // Per request rather than % of a core: comparable between servers of different throughput.
    cpu: (1e6 * acc[t].cpu) / acc[t].requests,
    pgCpu: (1e6 * acc[t].pgCpu) / acc[t].requests,
    rss: acc[t].rss,
  });
  return { app: c.app, name: c.name, gateway: side("gateway"), baseline: side("baseline") };
}

/** A run's result, and when its last answer arrived (hrtime). */
async function load(url: string, c: Case, tokens: string[], paths: string[], duration: number) {
  let lastResponse = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options(url, c, tokens, paths, duration), (error, result) =>
      error ? reject(error) : resolve(result),
    );
    instance.on("response", () => {
      lastResponse = process.hrtime.bigint();
    });
  });
  return { result, lastResponse };
}

function options(
  url: string,
  c: Case,
  tokens: string[],
  paths: string[],
  duration: number,
): autocannon.Options {
  const body = c.body ? JSON.stringify(c.body) : undefined;
  let next = 0;
  const base = request(c, tokens[0] as string).headers;
  return {
    url,
    connections: Math.min(CONNECTIONS, c.deletes ? paths.length : CONNECTIONS),
    // A DELETE run is its rows, each deleted once; every other run lasts `duration`.
    ...(c.deletes ? { amount: paths.length } : { duration }),
    ...(RATE > 0 ? { overallRate: RATE } : {}),
    requests: [
      {
        method: c.method ?? "GET",
        headers: base,
        ...(body ? { body } : {}),
        setupRequest: (req) => {
          const i = next++;
          return {
            ...req,
            path: paths[i % paths.length] as string,
            headers: { ...base, authorization: `Bearer ${tokens[i % tokens.length]}` },
          };
        },
      },
    ],
  };
}

function summaryLine(r: Result): string {
  const g = r.gateway;
  const b = r.baseline;
  return (
    `  ${r.name}\n    gateway ${g.rps.toFixed(0)} req/s (p50 ${g.p50} ms, p99 ${g.p99} ms), ` +
    `hand-written ${b.rps.toFixed(0)} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms), ratio ${(g.rps / b.rps).toFixed(2)}; ` +
    `CPU us/request server ${g.cpu.toFixed(0)} vs ${b.cpu.toFixed(0)}, Postgres ${g.pgCpu.toFixed(0)} vs ${b.pgCpu.toFixed(0)}` +
    (r.pgbench
      ? `; pgbench ${r.pgbench.gateway?.toFixed(0)} vs ${r.pgbench.baseline?.toFixed(0)} tps (${r.pgbench.underRls?.toFixed(0)} under row security)`
      : "")
  );
}

async function stopChildren(): Promise<void> {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(null);
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.split("\n").some((line) => pattern.test(line))) resolve();
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited (${code}) before it was ready:\n${buffered}`)),
    );
  });
}

/** The median (of an even count, the mean of the middle two). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The median of the runs that answered, or undefined when none did. */
function middle(values: number[]): number | undefined {
  return values.length > 0 ? median(values) : undefined;
}
