// `make bench`: the gateway against a hand-written Fastify + pg endpoint running equivalent SQL,
// in one run on one throwaway cluster, printed as a throughput ratio (this machine is noisy, so
// only ratios measured side by side mean anything). Both servers answer the same requests with
// the same JSON (checked before timing); rounds alternate between them.

import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import autocannon from "autocannon";
import jwt from "jsonwebtoken";
import { createDatabase, withClient } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { freePort, providePostgres } from "../db/postgres.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Only the cases whose name contains this text. */
const ONLY = process.env.BENCH_ONLY ?? "";

interface Case {
  name: string;
  path: string;
  method?: "POST" | "PATCH";
  body?: unknown;
  /** Paths cycled through by the load (writes spread over many rows, not one hot row). */
  paths?: string[];
  /** Keys that differ between two correct answers (new ids, timestamps). */
  volatile?: string[];
}

// Tasks of company 1 in bench/data.sql: ids 100000 + g where (g / 10) % 2 = 0.
const COMPANY_1_TASKS = Array.from(
  { length: 1000 },
  (_, i) => 100000 + 20 * Math.floor(i / 10) + (i % 10) + 20,
);

const CASES: Case[] = [
  { name: "ONE by id, small (GET /company/public/:id, public)", path: "/api/v1/company/public/1" },
  { name: "ONE by id (GET /task/:id, 3 joins, 2 subqueries)", path: "/api/v1/task/100020" },
  {
    name: "PAGED with join + filter (GET /project)",
    path: "/api/v1/project?filter=(status,eq,active)&perPage=10&page=3",
  },
  {
    name: "POST (POST /task, assignments, join in the answer)",
    method: "POST",
    path: "/api/v1/task",
    body: { projectId: 10002, title: "Bench task", priority: "high", estimateHours: 3.5 },
    volatile: ["id", "createdOn"],
  },
  {
    name: "PATCH (PATCH /task/:id, join in the answer)",
    method: "PATCH",
    path: "/api/v1/task/100020",
    paths: COMPANY_1_TASKS.map((id) => `/api/v1/task/${id}`),
    body: { title: "Renamed in bench", done: true },
  },
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-pg-"));
const appDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-app-"));
const server = await providePostgres({ dataDir, throwaway: true });
const children: ChildProcess[] = [];
try {
  const url = await createDatabase(server.url, `bench_${randomBytes(4).toString("hex")}`);
  for (const entry of ["api.schema.json", "migrations", "seed.sql"]) {
    fs.cpSync(path.join(REPO, "example", entry), path.join(appDir, entry), { recursive: true });
  }
  await migrateApp({ appDir, url });
  await withClient(url, async (client) => {
    await client.query(fs.readFileSync(path.join(appDir, "seed.sql"), "utf8"));
    await client.query(`BEGIN; ${fs.readFileSync(path.join(REPO, "bench/data.sql"), "utf8")} COMMIT;`);
  });

  const secret = randomBytes(48).toString("base64url");
  const token = jwt.sign(
    { userId: 1, companyId: 1, role: "admin", scopes: ["billing:read", "tasks:write"] },
    secret,
    {
      algorithm: "HS256",
      expiresIn: "1h",
    },
  );
  const env = {
    ...process.env,
    DATABASE_URL: url,
    JWT_SECRET: secret,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    DB_POOL_SIZE: "10",
    // The bench app is a copy of the example's schema without its handlers (custom routes unused).
    ALLOW_MISSING_HANDLERS: "1",
  };

  const gatewayPort = await freePort();
  const gateway = spawn(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", appDir], {
    cwd: REPO,
    env: { ...env, PORT: String(gatewayPort) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(gateway);
  await waitForLine(gateway, /^serving /);

  const baselinePort = await freePort();
  const baseline = fork(path.join(REPO, "bench/baseline.ts"), {
    env: { ...env, PORT: String(baselinePort) },
    execArgv: ["--import", "tsx"],
  });
  children.push(baseline);
  await new Promise((resolve) => baseline.once("message", resolve));

  const targets = { gateway: gatewayPort, baseline: baselinePort };
  const headers = { authorization: `Bearer ${token}` };
  console.log(`${SECONDS}s x ${ROUNDS} rounds per target and case, ${CONNECTIONS} connections\n`);
  const rows: string[] = [];
  for (const c of CASES.filter((c) => c.name.includes(ONLY))) {
    const init = () => ({
      method: c.method ?? "GET",
      headers: { ...headers, ...(c.body ? { "content-type": "application/json" } : {}) } as Record<
        string,
        string
      >,
      ...(c.body ? { body: JSON.stringify(c.body) } : {}),
    });
    const bodies = [];
    for (const port of Object.values(targets)) {
      const res = await fetch(`http://127.0.0.1:${port}${c.path}`, init());
      if (res.status !== 200)
        throw new Error(`${c.path} on port ${port}: HTTP ${res.status}: ${await res.text()}`);
      const body = (await res.json()) as { data: Record<string, unknown> };
      for (const key of c.volatile ?? []) delete body.data[key];
      bodies.push(body);
    }
    if (!isDeepStrictEqual(bodies[0], bodies[1])) {
      throw new Error(
        `${c.name}: the gateway and the baseline answer differently:\n${JSON.stringify(bodies, null, 1)}`,
      );
    }
    const totals = { gateway: [] as number[], baseline: [] as number[] };
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, port] of Object.entries(targets) as [keyof typeof targets, number][]) {
        // Round 0 warms up both servers (JIT, plans, connections) and is not counted.
        const result = await load(`http://127.0.0.1:${port}`, c, init().headers, round === 0 ? 2 : SECONDS);
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        if (round > 0) totals[name].push(result.requests.average);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const g = mean(totals.gateway);
    const b = mean(totals.baseline);
    rows.push(
      `${c.name}\n  gateway ${g.toFixed(0)} req/s, hand-written ${b.toFixed(0)} req/s, ratio ${(g / b).toFixed(2)}`,
    );
  }
  console.log(rows.join("\n"));
} finally {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(null);
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );
  await server.stop();
  fs.rmSync(appDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function load(url: string, c: Case, headers: Record<string, string>, duration: number) {
  const body = c.body ? JSON.stringify(c.body) : undefined;
  const paths = c.paths ?? [c.path];
  let next = 0;
  return autocannon({
    url,
    duration,
    connections: CONNECTIONS,
    requests: [
      {
        method: c.method ?? "GET",
        headers,
        ...(body ? { body } : {}),
        setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] as string }),
      },
    ],
  });
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
