// The gateway's connection pool, as the api_gateway role. Route functions return json; the pool
// hands it over as text so the gateway sends it on without parsing and re-stringifying it.

import pg from "pg";
import { AppError } from "../app/errors.ts";
import { CellQuery, isCellStatement } from "./cellQuery.ts";
import { type GatewayConfig, OPS_DEFAULTS } from "./config.ts";
import {
  brokeConnection,
  isMissingStatement,
  markConnectionFailures,
  noteQueryError,
} from "./ops/connectionFailures.ts";
import { ZoneTrackingClient } from "./sessionZone.ts";

const JSON_OID = 114;
const rawJson: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === JSON_OID
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

export interface PoolOptions {
  /** POOL_WAIT_MS: longest wait for a connection, queued or connecting (docs/operations.md). */
  waitMs?: number;
  /** STATEMENT_TIMEOUT_MS: the connections' statement_timeout; 0 or absent: the server's. */
  statementTimeoutMs?: number;
}

export function createPool(connectionString: string, max: number, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    types: rawJson,
    application_name: "api-gateway",
    // Keeps each session's reported time zone (the gateway's own reads render in UTC).
    Client: ZoneTrackingClient,
    // Bounded: with every connection busy or the server unreachable a request fails (503)
    // instead of queueing forever (pg waits without limit by default).
    connectionTimeoutMillis: options.waitMs ?? OPS_DEFAULTS.poolWaitMs,
    // Sent once at connect (a startup parameter): no extra round trip per request.
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return keepClientsOnStatementErrors(markConnectionFailures(pool));
}

type AnyQuery = (...args: unknown[]) => unknown;
const GUARDED = Symbol("errorListener");

/**
 * Replaces the promise forms of `pool.query` (callback forms are left to pg-pool) with connect,
 * query, release, where the client is discarded only when the error broke its connection
 * (ops/connectionFailures.ts brokeConnection). pg-pool's own `query` releases the client with
 * any error, which destroys it: every 404, 409 or 422 a route function answers would cost the
 * next request a new connection, and its named statements prepared again.
 */
export function keepClientsOnStatementErrors(pool: pg.Pool): pg.Pool {
  const original = pool.query.bind(pool) as AnyQuery;
  const replaced: AnyQuery = (...args) => {
    if (args.some((a) => typeof a === "function")) return original(...args);
    return queryOnce(pool, args, true);
  };
  (pool as unknown as { query: AnyQuery }).query = replaced;
  return pool;
}

/** The connections a gateway serves with (gatewayPools). */
export interface GatewayPools {
  /** Requests, as api_gateway. */
  pool: pg.Pool;
  /** GET standard routes on a streaming replica (READ_DATABASE_URL, docs/scaling.md), when given. */
  readPool: pg.Pool | undefined;
  /** `req.service`: role api_service, for trusted handler code only (docs/handlers.md). */
  servicePool: pg.Pool;
  end(): Promise<void>;
}

/** The pools of one gateway, sized and bounded (waits, statement timeout) as `config` says. */
export function gatewayPools(
  config: GatewayConfig,
  urls: { gateway: string; service: string; read?: string | undefined },
): GatewayPools {
  const options = { waitMs: config.ops.poolWaitMs, statementTimeoutMs: config.ops.statementTimeoutMs };
  const pool = createPool(urls.gateway, config.poolSize, options);
  const readPool = urls.read ? createPool(urls.read, config.readPoolSize, options) : undefined;
  const servicePool = createPool(urls.service, 2, options);
  return {
    pool,
    readPool,
    servicePool,
    end: async () => {
      await pool.end();
      await readPool?.end();
      await servicePool.end();
    },
  };
}

/**
 * Connect, query, release, in the callback forms of `pool.connect` and `client.query` (what
 * pg-pool's own `query` uses): no promise per step. With the promise forms, V8's allocation-site
 * pretenuring learnt to allocate each result in the old generation even in a process that never
 * ran a migration, and every answer text was promoted with it (gateway/v8Flags.ts has the figures;
 * the serving commands also turn pretenuring off).
 */
function queryOnce(pool: pg.Pool, args: unknown[], mayRetry: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    pool.connect((connectError, client, release) => {
      if (connectError || !client) {
        reject(connectError);
        return;
      }
      // An error event while the client is checked out and idle (the server ends the session
      // between statements) must not crash the process; the pool drops the dead client on release.
      const holder = client as unknown as { [GUARDED]?: true };
      if (!holder[GUARDED]) {
        holder[GUARDED] = true;
        client.on("error", () => {});
      }
      // The callback is written in place, not kept in a named variable: under tsx (esbuild's
      // keepNames) every named function made per request costs a defineProperty call.
      try {
        // A CellStatement runs as a CellQuery, a new one per attempt (cellQuery.ts).
        const [config, ...rest] = args;
        const submitted = isCellStatement(config) ? new CellQuery(config) : config;
        (client.query as AnyQuery)(submitted, ...rest, (error: unknown, result?: unknown) => {
          // A named statement the connection no longer held never ran: it runs once more, on
          // another connection (brokeConnection drops this one).
          if (mayRetry && submitted instanceof CellQuery && submitted.name && isMissingStatement(error)) {
            release(error as Error);
            queryOnce(pool, args, false).then(resolve, reject);
            return;
          }
          settleQuery(error, result, release, resolve, reject);
        });
      } catch (error) {
        settleQuery(error, undefined, release, resolve, reject);
      }
    });
  });
}

/** Releases the client (discarded only when the error broke its connection) and settles the query. */
function settleQuery(
  error: unknown,
  result: unknown,
  release: (error?: Error) => void,
  resolve: (result: unknown) => void,
  reject: (error: unknown) => void,
): void {
  if (error) noteQueryError(error);
  release(error && brokeConnection(error) ? (error as Error) : undefined);
  if (error) reject(error);
  else resolve(result);
}

/**
 * SERVICE_DATABASE_URL: the service role's own connection (production: the operator manages the
 * api_service role's password), like GATEWAY_DATABASE_URL for api_gateway. Unset: derived.
 */
export function serviceDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.SERVICE_DATABASE_URL;
  if (raw === undefined || raw === "") return undefined;
  let ok = false;
  try {
    ok = /^postgres(ql)?:$/.test(new URL(raw).protocol);
  } catch {}
  if (!ok) throw new AppError("SERVICE_DATABASE_URL must be a postgres:// URL");
  return raw;
}

/**
 * Sets api_gateway's password, derived from `adminUrl` (below), and returns the gateway's URL:
 * development and single-database set-ups without GATEWAY_DATABASE_URL.
 */
export function deriveGatewayUrl(adminUrl: string): Promise<string> {
  return deriveRoleUrl(adminUrl, "api_gateway");
}

/**
 * The same for api_service, the role behind `req.service` (docs/handlers.md): trusted handler code
 * gets a role with only what it needs (generator/api/service.ts), never the migrating superuser.
 */
export function deriveServiceUrl(adminUrl: string): Promise<string> {
  return deriveRoleUrl(adminUrl, "api_service");
}

/**
 * The role's password: scrypt of the admin URL's password, salted with the role and the admin's
 * user name, so every instance started with the same DATABASE_URL sets the same one and none locks
 * another out of new connections (a fresh random password per start did). It is as secret as
 * the admin password it comes from, and scrypt makes guessing that password from it slow. An
 * admin URL without a password (peer or trust authentication) gives a random one, as before.
 */
export async function derivedPassword(
  adminUrl: string,
  role: "api_gateway" | "api_service",
): Promise<string> {
  const { randomBytes, scrypt } = await import("node:crypto");
  const url = new URL(adminUrl);
  const adminPassword = decodeURIComponent(url.password);
  if (adminPassword === "") return randomBytes(24).toString("base64url");
  // Not the host: two spellings of one server (localhost, 127.0.0.1) must agree.
  const salt = `api-role-password:${role}:${decodeURIComponent(url.username)}`;
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(adminPassword, salt, 24, (error, derived) => (error ? reject(error) : resolve(derived))),
  );
  return key.toString("base64url");
}

async function deriveRoleUrl(adminUrl: string, role: "api_gateway" | "api_service"): Promise<string> {
  const password = await derivedPassword(adminUrl, role);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // The role is one of two constants and the password is base64url: no quote can occur in
    // either.
    await client.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}
