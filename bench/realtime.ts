// `make bench`'s realtime cases (docs/realtime.md): on a throwaway cluster, the example app served
// by `cli/run.ts` in its own process;
//   1. insert throughput on the `task` table (notify "ALL") with its realtime triggers as a ratio
//      of the same inserts with them disabled (pgbench, runs alternating; target >= 0.7);
//   2. 1,000 and then 5,000 WebSocket subscribers in 10 permission groups under a steady 1,000
//      inserts/s: delivered events/s, p50/p99 commit-to-delivery latency, drops.
// Prints a markdown section; BENCH_WRITE_DOCS=1 also writes docs/benchmarks-realtime.md.

import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jwt from "jsonwebtoken";
import { createDatabase, withClient } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { freePort, providePostgres } from "../db/postgres.ts";
import { findPgbench, pgbenchTps } from "./pgbench.ts";
import { GROUPS, type Group, percentile, steadyInserts, subscribe, writerPool } from "./realtimeLoad.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const EXAMPLE = path.join(REPO, "example");
const SECONDS = Number(process.env.BENCH_REALTIME_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_REALTIME_RATE ?? 1000);
const SUBSCRIBERS = (process.env.BENCH_REALTIME_SUBSCRIBERS ?? "1000,5000").split(",").map(Number);
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 5);
const PGBENCH_ROUNDS = 3;
const PGBENCH_CLIENTS = 8;
const INSERT_TRIGGER = '"api:realtime_insert"';

interface FanOut {
  subscribers: number;
  inserts: number;
  seconds: number;
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  dropped: number;
  errors: number;
}

const started = Date.now();
const loadBefore = os.loadavg()[0] ?? 0;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-realtime-pg-"));
const server = await providePostgres({ dataDir, throwaway: true });
let gateway: ChildProcess | undefined;
const lines: string[] = [];
try {
  const url = await createDatabase(server.url, `bench_realtime_${randomBytes(3).toString("hex")}`);
  await migrateApp({ appDir: EXAMPLE, url });
  await withClient(url, (c) => c.query(fs.readFileSync(path.join(EXAMPLE, "seed.sql"), "utf8")));
  const version = await withClient(
    url,
    async (c) => (await c.query("SHOW server_version")).rows[0].server_version,
  );

  const ratio = await insertRatio(url);

  const secret = randomBytes(48).toString("base64url");
  const port = await freePort();
  gateway = spawn(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", EXAMPLE], {
    cwd: REPO,
    env: { ...process.env, DATABASE_URL: url, JWT_SECRET: secret, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await waitForLine(gateway, /^serving /);
  const sign = (g: Group) => jwt.sign({ ...g }, secret, { algorithm: "HS256", expiresIn: "2h" });
  const fanOuts: FanOut[] = [];
  for (const count of SUBSCRIBERS)
    fanOuts.push(await fanOut(url, `ws://127.0.0.1:${port}/realtime`, count, sign));

  lines.push(...report(ratio, fanOuts, version));
} finally {
  gateway?.kill("SIGTERM");
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const text = lines.join("\n");
console.log(text);
if (process.env.BENCH_WRITE_DOCS === "1") {
  fs.writeFileSync(path.join(REPO, "docs/benchmarks-realtime.md"), `${text}\n`);
  console.log("wrote docs/benchmarks-realtime.md");
}

/** Single-row and 100-row inserts per second with the insert trigger on and off, alternating. */
async function insertRatio(url: string): Promise<{ single: Ratio; batch: Ratio } | undefined> {
  const pgbench = findPgbench();
  if (!pgbench) return undefined;
  const single = `INSERT INTO public."task" ("companyId", "projectId", "title") VALUES (1, 1, 'ratio')`;
  const batch = `INSERT INTO public."task" ("companyId", "projectId", "title") SELECT 1, 1, 'ratio' FROM generate_series(1, 100)`;
  const measure = async (sql: string): Promise<Ratio> => {
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < PGBENCH_ROUNDS; round++) {
      for (const enabled of [true, false]) {
        await setTrigger(url, enabled);
        const result = pgbenchTps(pgbench, url, sql, PGBENCH_SECONDS, PGBENCH_CLIENTS);
        if (result.tps === undefined) throw new Error(`pgbench: ${result.error}`);
        (enabled ? on : off).push(result.tps);
      }
    }
    await setTrigger(url, true);
    return { on: percentile(on, 50), off: percentile(off, 50) };
  };
  return { single: await measure(single), batch: await measure(batch) };
}

interface Ratio {
  /** Statements per second, median of the rounds. */
  on: number;
  off: number;
}

async function setTrigger(url: string, enabled: boolean): Promise<void> {
  await withClient(url, (c) =>
    c.query(`ALTER TABLE public."task" ${enabled ? "ENABLE" : "DISABLE"} TRIGGER ${INSERT_TRIGGER}`),
  );
}

async function fanOut(
  databaseUrl: string,
  wsUrl: string,
  count: number,
  sign: (g: Group) => string,
): Promise<FanOut> {
  const committedAt = new Map<string, number>();
  const tokens = GROUPS.map(sign);
  const t0 = Date.now();
  // 1 % of the subscribers (at least one per group) here, timing every event; the rest in a child
  // process that only counts (bench/realtimeSubscribers.ts).
  const sampledCount = Math.max(GROUPS.length, Math.round(count / 100));
  const bulk = await bulkSubscribers(wsUrl, count - sampledCount, tokens);
  const sampled = await subscribe(wsUrl, "task", sampledCount, tokens, committedAt);
  console.log(`${count} subscribers connected in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const pool = writerPool(databaseUrl);
  try {
    // A short warm-up at the same rate, then the measured run.
    await steadyInserts(pool, RATE, 2, committedAt);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    sampled.reset();
    await bulk.ask("reset");
    const runStarted = Date.now();
    const inserts = await steadyInserts(pool, RATE, SECONDS, committedAt);
    const seconds = (Date.now() - runStarted) / 1000;
    const counted = (await bulk.ask("count")) as { delivered: number; dropped: number; errors: number };
    const result: FanOut = {
      subscribers: count,
      inserts,
      seconds,
      delivered: counted.delivered + sampled.delivered(),
      // Each subscriber sees its own company's rows: half of the inserts.
      expected: (inserts / 2) * count,
      p50: percentile(sampled.latencies, 50),
      p99: percentile(sampled.latencies, 99),
      dropped: counted.dropped + sampled.dropped(),
      errors: counted.errors + sampled.errors(),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await pool.end();
    await sampled.close();
    await bulk.close();
  }
}

/** The child process holding `count` counting subscribers. */
async function bulkSubscribers(
  url: string,
  count: number,
  tokens: string[],
): Promise<{ ask(command: string): Promise<unknown>; close(): Promise<void> }> {
  const child = fork(path.join(import.meta.dirname, "realtimeSubscribers.ts"), {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () => new Promise<unknown>((resolve) => child.once("message", resolve));
  child.send({ url, table: "task", count, tokens });
  const first = (await next()) as { ready?: boolean; failed?: string };
  if (!first.ready) throw new Error(`bulk subscribers: ${first.failed}`);
  return {
    ask(command) {
      const answer = next();
      child.send(command);
      return answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send("close");
      }),
  };
}

function report(
  ratio: { single: Ratio; batch: Ratio } | undefined,
  fanOuts: FanOut[],
  version: string,
): string[] {
  const out = [
    "# Realtime benchmarks",
    "",
    "Written by `make bench` and `make bench-realtime` (bench/realtime.ts); each table says how it was measured.",
    `Machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, Postgres ${version}; gateway, Postgres and the bench's clients share it. Load average ${loadBefore.toFixed(1)} before, ${(os.loadavg()[0] ?? 0).toFixed(1)} after; ${((Date.now() - started) / 60000).toFixed(1)} min.`,
    "",
    "## Insert throughput with notify",
    "",
  ];
  if (ratio) {
    out.push(
      `pgbench, ${PGBENCH_CLIENTS} clients, ${PGBENCH_SECONDS} s per run, median of ${PGBENCH_ROUNDS} runs alternating; the \`task\` table (notify "ALL") with its realtime insert trigger enabled and disabled.`,
      "",
      "| statement | with notify (statements/s) | without | ratio (target >= 0.7) |",
      "|---|---|---|---|",
      `| single-row INSERT | ${ratio.single.on.toFixed(0)} | ${ratio.single.off.toFixed(0)} | ${(ratio.single.on / ratio.single.off).toFixed(2)} |`,
      `| 100-row INSERT ... SELECT | ${ratio.batch.on.toFixed(0)} | ${ratio.batch.off.toFixed(0)} | ${(ratio.batch.on / ratio.batch.off).toFixed(2)} |`,
      "",
    );
  } else {
    out.push("pgbench not found (apt-get install postgresql-client): not measured.", "");
  }
  out.push(
    "## Fan-out",
    "",
    `A steady ${RATE} single-row inserts/s into \`task\` for ${SECONDS} s (alternating the two companies), subscribers spread over ${GROUPS.length} permission groups (role, scopes, company); each subscriber may see its own company's rows, half of the inserts. Latency: from the INSERT's acknowledgement to the event's arrival, on 1 % of the subscribers (in the writer's process; the others, in a process of their own, only count).`,
    "",
    "| subscribers | inserts/s done | delivered events/s | delivered / expected | p50 ms | p99 ms | dropped connections | errors |",
    "|---|---|---|---|---|---|---|---|",
    ...fanOuts.map(
      (f) =>
        `| ${f.subscribers} | ${(f.inserts / f.seconds).toFixed(0)} | ${(f.delivered / f.seconds).toFixed(0)} | ${(f.delivered / f.expected).toFixed(3)} | ${f.p50.toFixed(0)} | ${f.p99.toFixed(0)} | ${f.dropped} | ${f.errors} |`,
    ),
  );
  return out;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      if (buffered.split("\n").some((line) => pattern.test(line))) resolve();
    });
    child.once("exit", (code) =>
      reject(new Error(`the gateway exited (${code}) before it was ready:\n${buffered}`)),
    );
  });
}
