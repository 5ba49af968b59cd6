// The operations tests' app and gateway (test/ops/*.test.ts): a small scratch app with one
// table, standard reads (one of them sleeping in SQL) and custom handlers that sleep, hold a
// connection, throw mid-transaction, never answer, or wait without the database. The gateway is
// built as `make serve` builds it, with the pool options under test (size, POOL_WAIT_MS,
// STATEMENT_TIMEOUT_MS), and its log kept for the assertions.

import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { withClient } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import type { OpsConfig } from "../../gateway/config.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import { column, id, type ScratchApp, scratchApp, table } from "../harness/app.ts";
import { testDatabase } from "../harness/db.ts";
import { JWT_SECRET } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";

const route = (extra: Record<string, unknown>) => ({
  description: "ops test",
  roles: [],
  scopes: [],
  assignments: [],
  request: [],
  joins: [],
  where: [],
  ...extra,
});

const custom = (name: string, p: string) => ({
  name,
  description: "ops test handler",
  method: "GET",
  path: p,
  type: "CUSTOM_ONE",
  roles: [],
  scopes: [],
  request: [],
  responseType: "boolean",
});

const itemResponse = [
  { name: "id", selector: "item.id" },
  { name: "label", selector: "item.label" },
];

export const OPS_SCHEMA = {
  database: [table("item", [id(), column("label", "VARCHAR", { length: 20 })])],
  endpoints: [
    {
      name: "V1",
      description: "ops",
      baseUrl: "/api/v1",
      routes: [
        route({
          name: "items",
          method: "GET",
          path: "/item",
          type: "ARRAY",
          table: "item",
          response: itemResponse,
        }),
        route({
          name: "item",
          method: "GET",
          path: "/item/:id",
          type: "ONE",
          table: "item",
          request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }],
          where: [{ tableName: "item", columnName: "id", operator: "=", value: "$id" }],
          response: itemResponse,
        }),
        // A standard read that takes a second in SQL: the statement timeout's subject.
        route({
          name: "slow items",
          method: "GET",
          path: "/item/slow",
          type: "ARRAY",
          table: "item",
          response: [
            ...itemResponse,
            { name: "slept", selector: "(SELECT 1 FROM pg_sleep(1))", type: "number" },
          ],
        }),
        custom("sleep", "/ops/sleep"),
        custom("hold", "/ops/hold"),
        custom("throws", "/ops/throws"),
        custom("leaks", "/ops/leaks"),
        custom("wait", "/ops/wait"),
      ],
    },
  ],
  customTypes: [],
  globalParams: [],
  roles: [],
  scopes: [],
};

const HANDLERS = `export default class Ops {
  // Two seconds in SQL, through req.db: longer than any statement timeout the tests set.
  async getOpsSleep(req, res) { await req.db.query("SELECT pg_sleep(2)"); res.sendData(true); }
  // Holds its pool connection for six seconds: past the three bounded waits (300 ms each) of
  // the pool-exhausted test with room to spare on a loaded machine (one second was not, and
  // three were not once either: a CI run with tap at 843 s saw the second wait served).
  async getOpsHold(req, res) { await req.db.query("SELECT pg_sleep(6)"); res.sendData(true); }
  // Throws in the middle of its transaction.
  async getOpsThrows(req) { await req.db.query('SELECT count(*) FROM "item"'); throw new Error("handler bug"); }
  // Opens its transaction, then returns without ever answering.
  async getOpsLeaks(req) { await req.db.query('SELECT count(*) FROM "item"'); }
  // Answers after 800 ms without touching the database (a slow request in flight).
  async getOpsWait(req, res) { await new Promise((r) => setTimeout(r, 800)); res.sendData(true); }
}
`;

export const OPS_SEED = `INSERT INTO public."item" ("label") VALUES ('one'), ('two'), ('three');`;

/** The ops app in a scratch directory (schema and handlers; migrations come from migrateApp). */
export function opsApp(t: Test): ScratchApp {
  const app = scratchApp(t, OPS_SCHEMA);
  fs.mkdirSync(path.join(app.dir, "src/api/v1"), { recursive: true });
  fs.writeFileSync(path.join(app.dir, "src/api/v1/ops.api.v1.ts"), HANDLERS);
  return app;
}

export interface OpsGatewayOptions {
  poolSize?: number;
  poolWaitMs?: number;
  statementTimeoutMs?: number;
  handlerTimeoutMs?: number;
  metrics?: OpsConfig["metrics"];
}

export interface OpsGateway {
  app: FastifyInstance;
  pool: pg.Pool;
  /** The gateway's log so far, one parsed JSON object per line. */
  log(): Record<string, unknown>[];
}

/** A gateway for the ops app on `gatewayUrl` (role api_gateway), closed at teardown. */
export async function opsGateway(
  t: Test,
  appDir: string,
  gatewayUrl: string,
  options: OpsGatewayOptions = {},
): Promise<OpsGateway> {
  const schema = readAppSchema(appDir).schema;
  if (!schema) throw new Error("the ops app's schema does not load");
  const pool = createPool(gatewayUrl, options.poolSize ?? 4, {
    ...(options.poolWaitMs !== undefined ? { waitMs: options.poolWaitMs } : {}),
    ...(options.statementTimeoutMs !== undefined ? { statementTimeoutMs: options.statementTimeoutMs } : {}),
  });
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const app = buildGateway({
    schema,
    pool,
    authenticate: builtInAuthenticator(
      readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
      schema.globalParams,
    ),
    config: {
      maxPerPage: 100,
      bodyLimit: 1024 * 1024,
      logLevel: "warn",
      ...(options.handlerTimeoutMs !== undefined ? { handlerTimeoutMs: options.handlerTimeoutMs } : {}),
      ops: {
        poolWaitMs: options.poolWaitMs ?? 5000,
        statementTimeoutMs: options.statementTimeoutMs ?? 0,
        shutdownTimeoutMs: 10_000,
        metrics: options.metrics ?? { enabled: false },
      },
    },
    handlers: await loadHandlers(appDir, schema),
    logStream,
  });
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await pool.end();
  });
  return { app, pool, log: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** The api_gateway URL of a database on the shared test cluster (password set by test/run.ts). */
export function gatewayUrlFor(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.username = "api_gateway";
  url.password = GATEWAY_TEST_PASSWORD;
  return url.toString();
}

/** The ops app migrated into a fresh database of the shared test cluster, seeded. */
export async function opsDatabase(t: Test): Promise<{ appDir: string; url: string; gatewayUrl: string }> {
  const app = opsApp(t);
  const url = await testDatabase(t);
  await migrateApp({ appDir: app.dir, url });
  await withClient(url, (client) => client.query(OPS_SEED));
  return { appDir: app.dir, url, gatewayUrl: gatewayUrlFor(url) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
