// A real gateway for HTTP tests: a fresh copy of a migrated template, seeded, served by the
// Fastify gateway connected as api_gateway, driven with fastify.inject(). Every statement the
// gateway sends is counted, so tests can assert one round trip per request.

import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import jwt from "jsonwebtoken";
import type pg from "pg";
import type { Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { migrateApp } from "../../db/migrate.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { connect, testDatabase } from "./db.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "./gatewayRole.ts";
import { REPO, RESTURA_FIXTURE, type TemplateName } from "./templates.ts";

export const JWT_SECRET = "a-test-secret-of-at-least-thirty-two-bytes!";

const APPS = {
  tpl_example: { dir: path.join(REPO, "example"), seed: path.join(REPO, "example/seed.sql") },
  tpl_restura: { dir: path.dirname(RESTURA_FIXTURE), seed: path.join(REPO, "test/routes/restura.seed.sql") },
} satisfies Record<TemplateName, { dir: string; seed: string }>;

export interface TestGateway {
  app: FastifyInstance;
  /** A superuser connection to the same database, for setup and for checking what changed. */
  su: pg.Client;
  /** Statements the gateway has sent to Postgres so far. */
  statements(): number;
  /** The gateway's api_gateway pool. */
  pool: pg.Pool;
  request(options: InjectOptions & { as?: Claims }): Promise<LightMyRequestResponse>;
}

export interface Claims {
  role?: string | null;
  scopes?: string[];
  userId?: number;
  companyId?: number;
  [claim: string]: unknown;
}

/** Gateway settings a test may change; the rest are the defaults. */
export interface TestGatewayConfig {
  maxPerPage?: number;
  handlerTimeoutMs?: number;
  uploadMaxBytes?: number;
  uploadMaxFiles?: number;
  uploadTmpDir?: string;
  /** Serve custom routes without handlers (501). The Restura fixture has none: on by default there. */
  allowMissingHandlers?: boolean;
  /** `/openapi.json` and `/docs` (on unless false, as API_DOCS). */
  apiDocs?: boolean;
  /** Connections in the api_gateway pool (4). */
  poolSize?: number;
  /** Named route statements (true, as PG_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
}

export function token(claims: Claims, options: jwt.SignOptions = {}): string {
  return jwt.sign(claims, JWT_SECRET, { algorithm: "HS256", expiresIn: "1h", ...options });
}

export async function testGateway(
  t: Test,
  template: TemplateName,
  config: TestGatewayConfig = {},
): Promise<TestGateway> {
  const url = await testDatabase(t, template);
  const su = await connect(t, url);
  await su.query(fs.readFileSync(APPS[template].seed, "utf8"));
  const schema = readAppSchema(APPS[template].dir).schema;
  if (!schema) throw new Error(`${template}: schema does not load`);
  return serve(t, url, su, schema, APPS[template].dir, {
    allowMissingHandlers: template === "tpl_restura",
    ...config,
  });
}

/** A gateway for a scratch app directory: migrated into a new database here, then `seed` run. */
export async function testGatewayForApp(
  t: Test,
  appDir: string,
  seed = "",
  config: TestGatewayConfig = {},
): Promise<TestGateway> {
  const url = await testDatabase(t);
  await migrateApp({ appDir, url });
  const su = await connect(t, url);
  if (seed) await su.query(seed);
  const schema = readAppSchema(appDir).schema;
  if (!schema) throw new Error(`${appDir}: schema does not load`);
  return serve(t, url, su, schema, appDir, config);
}

async function serve(
  t: Test,
  url: string,
  su: pg.Client,
  schema: Schema,
  appDir: string,
  config: TestGatewayConfig,
): Promise<TestGateway> {
  const gatewayUrl = new URL(url);
  gatewayUrl.username = "api_gateway";
  gatewayUrl.password = GATEWAY_TEST_PASSWORD;
  const pool = createPool(gatewayUrl.toString(), config.poolSize ?? 4);
  let sent = 0;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      sent++;
      return query(...args);
    };
  });

  const authenticate = builtInAuthenticator(
    readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
    schema.globalParams,
  );
  // req.service: role api_service, as `make serve` gives it.
  const serviceUrl = new URL(url);
  serviceUrl.username = "api_service";
  serviceUrl.password = SERVICE_TEST_PASSWORD;
  const servicePool = createPool(serviceUrl.toString(), 2);
  const handlers = await loadHandlers(appDir, schema);
  const app = buildGateway({
    schema,
    pool,
    authenticate,
    config: {
      maxPerPage: config.maxPerPage ?? 100,
      bodyLimit: 1024 * 1024,
      logLevel: process.env.TEST_LOG_LEVEL === "debug" ? "debug" : "silent",
      ...(config.handlerTimeoutMs !== undefined ? { handlerTimeoutMs: config.handlerTimeoutMs } : {}),
      ...(config.uploadMaxBytes !== undefined ? { uploadMaxBytes: config.uploadMaxBytes } : {}),
      ...(config.uploadMaxFiles !== undefined ? { uploadMaxFiles: config.uploadMaxFiles } : {}),
      ...(config.uploadTmpDir !== undefined ? { uploadTmpDir: config.uploadTmpDir } : {}),
      ...(config.apiDocs !== undefined ? { apiDocs: config.apiDocs } : {}),
      ...(config.preparedStatements !== undefined ? { preparedStatements: config.preparedStatements } : {}),
    },
    handlers,
    allowMissingHandlers: config.allowMissingHandlers ?? false,
    servicePool,
  });
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await pool.end();
    await servicePool.end();
  });
  return {
    app,
    su,
    statements: () => sent,
    pool,
    request: ({ as, ...options }) =>
      app.inject({
        ...options,
        headers: { ...(options.headers ?? {}), ...(as ? { authorization: `Bearer ${token(as)}` } : {}) },
      }),
  };
}
