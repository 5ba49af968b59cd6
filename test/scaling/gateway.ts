// Gateways for the scaling tests (docs/scaling.md): like test/harness/gateway.ts, but on a
// database URL the test chooses (through a pooler, or with a replica beside it), with the pools
// counted, and optionally listening on a real socket (several instances on one database).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import type { Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { type ReadRouter, readDatabaseUrl, readRouter } from "../../gateway/readPool.ts";
import { buildGateway } from "../../gateway/server.ts";
import { JWT_SECRET } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { copyApp, REPO } from "../harness/templates.ts";

export const EXAMPLE_DIR = path.join(REPO, "example");

export interface ScalingGateway {
  app: FastifyInstance;
  /** Statements sent on the primary pool so far. */
  primaryStatements(): number;
  /** Statements sent on the replica pool so far (0 without a replica). */
  replicaStatements(): number;
  reads?: ReadRouter;
  /** `http://127.0.0.1:<port>` when listening. */
  origin?: string;
}

export interface ScalingGatewayOptions {
  /** The replica's address (READ_DATABASE_URL without credentials: the gateway's are used). */
  readDatabaseUrl?: string;
  preparedStatements?: boolean;
  listen?: boolean;
  retryMs?: number;
  corsOrigins?: string[];
}

/** `url` (a superuser URL of the app's database) with the gateway's or the service role's login. */
export function asRole(url: string, role: "api_gateway" | "api_service"): string {
  const u = new URL(url);
  u.username = role;
  u.password = role === "api_gateway" ? GATEWAY_TEST_PASSWORD : SERVICE_TEST_PASSWORD;
  return u.toString();
}

export async function scalingGateway(
  t: Test,
  databaseUrl: string,
  options: ScalingGatewayOptions = {},
): Promise<ScalingGateway> {
  const schema = readAppSchema(EXAMPLE_DIR).schema;
  if (!schema) throw new Error("the example schema does not load");
  const gatewayUrl = asRole(databaseUrl, "api_gateway");
  const pool = counted(createPool(gatewayUrl, 4));
  const servicePool = createPool(asRole(databaseUrl, "api_service"), 2);
  const readUrl = options.readDatabaseUrl
    ? readDatabaseUrl({ READ_DATABASE_URL: options.readDatabaseUrl }, gatewayUrl)
    : undefined;
  const replica = readUrl ? counted(createPool(readUrl, 4)) : undefined;
  const reads = replica
    ? readRouter(replica.pool, pool.pool, options.retryMs !== undefined ? { retryMs: options.retryMs } : {})
    : undefined;
  const app = buildGateway({
    schema,
    pool: pool.pool,
    authenticate: builtInAuthenticator(
      readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
      schema.globalParams,
    ),
    config: {
      maxPerPage: 100,
      bodyLimit: 1024 * 1024,
      logLevel: process.env.TEST_LOG_LEVEL === "debug" ? "debug" : "silent",
      ...(options.preparedStatements === false ? { preparedStatements: false } : {}),
      ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    },
    handlers: await loadHandlers(EXAMPLE_DIR, schema),
    servicePool,
    ...(reads ? { reads } : {}),
  });
  let origin: string | undefined;
  if (options.listen) origin = await app.listen({ port: 0, host: "127.0.0.1" });
  else await app.ready();
  t.teardown(async () => {
    await app.close();
    await pool.pool.end();
    await replica?.pool.end();
    await servicePool.end();
  });
  return {
    app,
    primaryStatements: pool.sent,
    replicaStatements: () => replica?.sent() ?? 0,
    ...(reads ? { reads } : {}),
    ...(origin ? { origin } : {}),
  };
}

/** A pool whose clients count the statements they send (as test/harness/gateway.ts does). */
function counted(pool: pg.Pool): { pool: pg.Pool; sent: () => number } {
  let sent = 0;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sent++;
      return query(...args);
    };
  });
  return { pool, sent: () => sent };
}

/** Runs the example's seed.sql on `url` (a superuser URL): several statements, one simple query. */
export async function seedExample(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(fs.readFileSync(path.join(EXAMPLE_DIR, "seed.sql"), "utf8"));
  } finally {
    await client.end();
  }
}

export interface ServeProcess {
  origin: string;
  /** What it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * `make serve` (cli/run.ts) on a copy of the example app, with `env` added, until the test ends.
 * The gateway and service URLs are given, so it sets no role password (the test run shares them).
 * The copy's handlers import files of this repository by relative path and cannot load from a
 * temporary directory: its custom routes answer 501 (ALLOW_MISSING_HANDLERS); standard routes
 * are what these tests call.
 */
export async function serveExample(
  t: Test,
  databaseUrl: string,
  port: number,
  env: Record<string, string>,
): Promise<ServeProcess> {
  const dir = copyApp(EXAMPLE_DIR);
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", dir], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      GATEWAY_DATABASE_URL: asRole(databaseUrl, "api_gateway"),
      SERVICE_DATABASE_URL: asRole(databaseUrl, "api_service"),
      JWT_SECRET,
      PORT: String(port),
      ALLOW_MISSING_HANDLERS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
  }
  t.teardown(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 120_000;
  while (!output.includes("serving ")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`cli/run.ts did not serve:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { origin: `http://127.0.0.1:${port}`, output: () => output };
}
