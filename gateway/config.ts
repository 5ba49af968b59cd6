// The gateway's settings, from the environment. A malformed value stops start-up with a message
// that names the variable; absent values take safe defaults.

import { AppError } from "../app/errors.ts";

export interface GatewayConfig {
  port: number;
  host: string;
  /** Largest `perPage` a PAGED route accepts. */
  maxPerPage: number;
  /** Connections the gateway keeps to Postgres. */
  poolSize: number;
  /** A streaming replica for GET standard routes (docs/scaling.md); checked here, used by readPool.ts. */
  readDatabaseUrl?: string;
  /** Connections to the read replica; default DB_POOL_SIZE. */
  readPoolSize: number;
  /**
   * Route calls as named prepared statements (planned once per connection). Off
   * (PG_PREPARED_STATEMENTS=0) behind a pooler in transaction mode that does not track them
   * (PgBouncer before 1.21, or max_prepared_statements=0): docs/scaling.md.
   */
  preparedStatements: boolean;
  /** Request body limit in bytes. */
  bodyLimit: number;
  /** The gateway's own connection (role api_gateway); derived at start-up when unset. */
  gatewayDatabaseUrl?: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Readable log lines (pino-pretty) instead of JSON: LOG_PRETTY=1; `make dev` turns it on. */
  logPretty: boolean;
  /** A custom handler that has not answered by then gets a 500. */
  handlerTimeoutMs: number;
  /** Largest uploaded file, in bytes (413 above). */
  uploadMaxBytes: number;
  /** Most files on a MULTIPLE upload route (413 above). */
  uploadMaxFiles: number;
  /** Where uploads are streamed to (one directory per request, removed after it); unset: the OS's. */
  uploadTmpDir?: string;
  /** Longest time to receive a whole request (headers and body); a slower one gets a 408. */
  requestTimeoutMs: number;
  /** A socket with no traffic for this long is closed (covers a handler's whole run). */
  connectionTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Browser origins allowed to call the API (CORS); absent: CORS is off. */
  corsOrigins?: CorsOrigins;
  /** Operations settings (docs/operations.md): pool wait, statement timeout, shutdown, metrics. */
  ops: OpsConfig;
  /** Realtime WebSocket settings (docs/realtime.md "Configuration"). */
  realtime: RealtimeConfig;
  /** `/openapi.json` and the reference page at `/docs` (gateway/http/apiDocs.ts). */
  apiDocs: boolean;
}

export interface RealtimeConfig {
  /** The WebSocket endpoint's path. */
  path: string;
  /** How long events stay in the outbox (a `since` older than that is refused), in seconds. */
  retentionSeconds: number;
  /** Most bytes a connection may have unsent before it is dropped as a slow consumer. */
  bufferBytes: number;
  /**
   * Most bytes all connections together may have unsent: past it, the connections furthest
   * behind are dropped first, so an overloaded instance sheds subscribers instead of memory.
   */
  memoryBytes: number;
  /** Safety-net poll of the outbox (a NOTIFY sent while the LISTEN connection was down is lost). */
  pollMs: number;
  /** Ping interval; a peer that has not answered the previous ping is closed. */
  pingMs: number;
}

export const REALTIME_DEFAULTS: RealtimeConfig = {
  path: "/realtime",
  retentionSeconds: 24 * 3600,
  bufferBytes: 1024 * 1024,
  memoryBytes: 256 * 1024 * 1024,
  pollMs: 1000,
  pingMs: 30_000,
};

export interface OpsConfig {
  /** Longest wait for a pool connection (queue or connect) before a 503. */
  poolWaitMs: number;
  /** Postgres statement_timeout of the gateway's connections; 0: none set (the server's). */
  statementTimeoutMs: number;
  /** How long in-flight requests get to finish after SIGTERM before their sockets are closed. */
  shutdownTimeoutMs: number;
  /** `/metrics`: off, public on the listening address, or behind `Authorization: Bearer <token>`. */
  metrics: { enabled: false } | { enabled: true; token?: string };
}

export const OPS_DEFAULTS = { poolWaitMs: 5_000, statementTimeoutMs: 0, shutdownTimeoutMs: 10_000 };

/** `*` (any origin) or a list of exact origins (`https://app.example.com`). */
export type CorsOrigins = "*" | string[];

/**
 * Socket timeouts. Node and Fastify default to none for requests and connections, so a client
 * that sends its body one byte a minute holds a connection forever (slowloris). The connection
 * timeout is idle time, so it must outlast a handler (HANDLER_TIMEOUT_MS); keep-alive stays above
 * the 60 s idle timeout of common load balancers, so they never reuse a connection we closed.
 */
export const TIMEOUT_DEFAULTS = {
  requestTimeoutMs: 60_000,
  connectionTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
};

export const HANDLER_DEFAULTS = {
  handlerTimeoutMs: 10_000,
  uploadMaxBytes: 10 * 1024 * 1024,
  uploadMaxFiles: 10,
};

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const handlerTimeoutMs = integer(env, "HANDLER_TIMEOUT_MS", HANDLER_DEFAULTS.handlerTimeoutMs, 1, 600_000);
  return {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: env.HOST || "127.0.0.1",
    maxPerPage: integer(env, "MAX_PER_PAGE", 100, 1, 10000),
    poolSize: integer(env, "DB_POOL_SIZE", 10, 1, 1000),
    readPoolSize: integer(env, "READ_DB_POOL_SIZE", integer(env, "DB_POOL_SIZE", 10, 1, 1000), 1, 1000),
    preparedStatements: oneOf(env, "PG_PREPARED_STATEMENTS", ["0", "1"], "1") === "1",
    bodyLimit: integer(env, "BODY_LIMIT", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    gatewayDatabaseUrl: url(env, "GATEWAY_DATABASE_URL"),
    readDatabaseUrl: url(env, "READ_DATABASE_URL"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    logPretty: oneOf(env, "LOG_PRETTY", ["0", "1"], "0") === "1",
    handlerTimeoutMs,
    uploadMaxBytes: integer(
      env,
      "UPLOAD_MAX_BYTES",
      HANDLER_DEFAULTS.uploadMaxBytes,
      1,
      1024 * 1024 * 1024 * 4,
    ),
    uploadMaxFiles: integer(env, "UPLOAD_MAX_FILES", HANDLER_DEFAULTS.uploadMaxFiles, 1, 1000),
    ...(env.UPLOAD_TMP_DIR ? { uploadTmpDir: env.UPLOAD_TMP_DIR } : {}),
    ...timeouts(env, handlerTimeoutMs),
    ...corsSetting(env),
    ops: opsSettings(env),
    realtime: realtimeSettings(env),
    apiDocs: oneOf(env, "API_DOCS", ["0", "1"], "1") === "1",
  };
}

function realtimeSettings(env: NodeJS.ProcessEnv): RealtimeConfig {
  const path = env.REALTIME_PATH || REALTIME_DEFAULTS.path;
  // A path, not a URL: it is registered as a route next to the API's own.
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(path) || path.includes("//")) {
    throw new AppError(`REALTIME_PATH must be a path like /realtime (got "${path.slice(0, 80)}")`);
  }
  return {
    path,
    retentionSeconds: duration(env, "REALTIME_RETENTION", REALTIME_DEFAULTS.retentionSeconds),
    bufferBytes: integer(env, "REALTIME_BUFFER", REALTIME_DEFAULTS.bufferBytes, 1024, 1024 * 1024 * 1024),
    memoryBytes: integer(
      env,
      "REALTIME_MEMORY",
      REALTIME_DEFAULTS.memoryBytes,
      1024,
      64 * 1024 * 1024 * 1024,
    ),
    pollMs: integer(env, "REALTIME_POLL_MS", REALTIME_DEFAULTS.pollMs, 10, HOUR_MS),
    pingMs: REALTIME_DEFAULTS.pingMs,
  };
}

/** Seconds, written as `90`, `90s`, `30m`, `24h` or `7d`; from one minute to 365 days. */
function duration(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const match = /^(\d+)([smhd]?)$/.exec(raw);
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[match?.[2] ?? ""] ?? 1;
  const seconds = match ? Number(match[1]) * unit : Number.NaN;
  if (!(seconds >= 60 && seconds <= 365 * 86400)) {
    throw new AppError(
      `${name} must be a duration from 1m to 365d, like 3600, 90m, 24h or 7d (got "${raw}")`,
    );
  }
  return seconds;
}

function opsSettings(env: NodeJS.ProcessEnv): OpsConfig {
  const token = env.METRICS_TOKEN ?? "";
  // A short token would be guessable; the metrics name routes and pool sizes.
  if (token !== "" && token.length < 16) {
    throw new AppError("METRICS_TOKEN must be at least 16 characters");
  }
  const on = oneOf(env, "METRICS", ["0", "1"], token === "" ? "0" : "1") === "1";
  if (!on && token !== "") throw new AppError("METRICS_TOKEN is set but METRICS=0 turns /metrics off");
  return {
    poolWaitMs: integer(env, "POOL_WAIT_MS", OPS_DEFAULTS.poolWaitMs, 1, 600_000),
    statementTimeoutMs: integer(env, "STATEMENT_TIMEOUT_MS", OPS_DEFAULTS.statementTimeoutMs, 0, HOUR_MS),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", OPS_DEFAULTS.shutdownTimeoutMs, 0, HOUR_MS),
    metrics: on ? { enabled: true, ...(token !== "" ? { token } : {}) } : { enabled: false },
  };
}

const HOUR_MS = 3_600_000;

function timeouts(
  env: NodeJS.ProcessEnv,
  handlerTimeoutMs: number,
): Pick<GatewayConfig, "requestTimeoutMs" | "connectionTimeoutMs" | "keepAliveTimeoutMs"> {
  const out = {
    requestTimeoutMs: integer(env, "REQUEST_TIMEOUT_MS", TIMEOUT_DEFAULTS.requestTimeoutMs, 1000, HOUR_MS),
    connectionTimeoutMs: integer(
      env,
      "CONNECTION_TIMEOUT_MS",
      TIMEOUT_DEFAULTS.connectionTimeoutMs,
      1000,
      HOUR_MS,
    ),
    keepAliveTimeoutMs: integer(
      env,
      "KEEP_ALIVE_TIMEOUT_MS",
      TIMEOUT_DEFAULTS.keepAliveTimeoutMs,
      1000,
      HOUR_MS,
    ),
  };
  // An idle-socket timeout shorter than a handler may run would cut answers off mid-request.
  if (out.connectionTimeoutMs <= handlerTimeoutMs) {
    throw new AppError(
      `CONNECTION_TIMEOUT_MS (${out.connectionTimeoutMs}) must be greater than HANDLER_TIMEOUT_MS (${handlerTimeoutMs}): ` +
        "a connection idle while its handler runs would be closed before the answer",
    );
  }
  return out;
}

/** `CORS_ORIGINS`: `*`, or a comma-separated list of origins (`scheme://host[:port]`, no path). */
function corsSetting(env: NodeJS.ProcessEnv): { corsOrigins?: CorsOrigins } {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === "") return {};
  if (raw === "*") return { corsOrigins: "*" };
  const origins = raw.split(",").map((item) => item.trim());
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    // An origin is exactly what browsers send in `Origin`: no path, query or trailing slash.
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new AppError(
        `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com ` +
          `(scheme, host and optional port; no path or trailing slash), got "${origin.slice(0, 80)}"`,
      );
    }
  }
  return { corsOrigins: [...new Set(origins)] };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new AppError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function oneOf<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new AppError(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
  }
  return raw as T;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  try {
    const parsed = new URL(raw);
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new Error();
  } catch {
    throw new AppError(`${name} must be a postgres:// URL`);
  }
  return raw;
}
