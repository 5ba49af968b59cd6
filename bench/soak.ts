// `make soak` (SOAK_MINUTES, default 10; SOAK_RATE requests/s, default 100): the example app served
// by cli/run.ts in its own process on a throwaway cluster, under a steady open-loop mix of reads
// and writes (creates and deletes balance, so the data stays the same size). Reports every
// request that was not answered as expected, and the gateway's memory (RSS, V8 heap used, from
// /metrics) one minute in and at the end: a leak shows as a rising line, not as errors.

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jwt from "jsonwebtoken";
import { createDatabase, withClient } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { freePort, providePostgres } from "../db/postgres.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const EXAMPLE = path.join(REPO, "example");
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 100);
/** In flight at most: past it a tick is counted as skipped (the gateway fell behind), not queued. */
const MAX_IN_FLIGHT = 64;

interface Memory {
  atSeconds: number;
  rssMb: number;
  heapMb: number;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-soak-pg-"));
const server = await providePostgres({ dataDir, throwaway: true });
let gateway: ChildProcess | undefined;
try {
  const url = await createDatabase(server.url, `soak_${randomBytes(3).toString("hex")}`);
  await migrateApp({ appDir: EXAMPLE, url });
  await withClient(url, (c) => c.query(fs.readFileSync(path.join(EXAMPLE, "seed.sql"), "utf8")));
  const secret = randomBytes(48).toString("base64url");
  const port = await freePort();
  gateway = spawn(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", EXAMPLE], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: url,
      JWT_SECRET: secret,
      PORT: String(port),
      LOG_LEVEL: "warn",
      METRICS: "1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await waitForLine(gateway, /^serving /);
  const base = `http://127.0.0.1:${port}`;
  const auth = `Bearer ${jwt.sign({ role: "admin", scopes: ["tasks:write"], userId: 1, companyId: 1 }, secret, { algorithm: "HS256", expiresIn: "2h" })}`;
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${p}`, {
      method,
      headers: { authorization: auth, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as { data: { id?: number } };
  };
  const created: number[] = [];
  // Six reads to four writes; a task created is later updated and deleted (20 kept at most).
  const mix: Array<() => Promise<unknown>> = [
    () => call("GET", "/user/me"),
    () => call("GET", "/project?page=1&perPage=10"),
    () => call("GET", "/task/mine"),
    () => call("GET", "/company/public/1"),
    () => call("GET", "/tag"),
    () => call("GET", "/task/search?q=design"),
    async () =>
      created.push((await call("POST", "/task", { projectId: 1, title: "soak task" })).data.id as number),
    () => call("PATCH", "/user/me", { preferences: { soak: Date.now() } }),
    () => {
      const id = created.at(-1);
      return id === undefined ? call("GET", "/user/me") : call("PATCH", `/task/${id}`, { done: true });
    },
    // Deletes the oldest, keeping 20 back, so a delete never races the update of the newest
    // (requests overlap in an open loop).
    () => {
      const id = created.length > 20 ? created.shift() : undefined;
      return id === undefined ? call("GET", "/tag") : call("DELETE", `/task/${id}`);
    },
  ];

  const memory = async (atSeconds: number): Promise<Memory> => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
    return {
      atSeconds,
      rssMb: value("process_resident_memory_bytes") / 2 ** 20,
      heapMb: value("nodejs_heap_size_used_bytes") / 2 ** 20,
    };
  };

  const errors: string[] = [];
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  const started = Date.now();
  const samples: Memory[] = [];
  const sampler = setInterval(async () => {
    samples.push(await memory(Math.round((Date.now() - started) / 1000)));
  }, 60_000);
  await new Promise<void>((resolve) => {
    const ticker = setInterval(() => {
      if (Date.now() - started >= MINUTES * 60_000) {
        clearInterval(ticker);
        resolve();
        return;
      }
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped += 1;
        return;
      }
      const step = mix[sent % mix.length] as () => Promise<unknown>;
      sent += 1;
      inFlight += 1;
      step()
        .catch((error: Error) => errors.push(error.message))
        .finally(() => {
          inFlight -= 1;
        });
    }, 1000 / RATE);
  });
  clearInterval(sampler);
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
  samples.push(await memory(Math.round((Date.now() - started) / 1000)));

  const first = samples[0] as Memory;
  const last = samples.at(-1) as Memory;
  const mb = (n: number) => n.toFixed(1);
  console.log(`soak: ${MINUTES} min at ${RATE} req/s (6 reads : 4 writes), example app, cli/run.ts`);
  console.log(
    `requests: ${sent} sent, ${errors.length} errors, ${skipped} ticks skipped (over ${MAX_IN_FLIGHT} in flight)`,
  );
  console.log(`memory at ${first.atSeconds} s: RSS ${mb(first.rssMb)} MB, heap used ${mb(first.heapMb)} MB`);
  console.log(`memory at ${last.atSeconds} s: RSS ${mb(last.rssMb)} MB, heap used ${mb(last.heapMb)} MB`);
  console.log(
    `samples (s: RSS/heap MB): ${samples.map((s) => `${s.atSeconds}: ${mb(s.rssMb)}/${mb(s.heapMb)}`).join(", ")}`,
  );
  for (const e of errors.slice(0, 10)) console.log(`  error: ${e}`);
  process.exitCode = errors.length === 0 ? 0 : 1;
} finally {
  gateway?.kill("SIGTERM");
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
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
