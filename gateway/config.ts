// The gateway's settings, from the environment. A malformed value stops start-up with a message
// that names the variable; absent values take safe defaults.

import { AppError } from "../app/load.ts";

export interface GatewayConfig {
  port: number;
  host: string;
  /** Largest `perPage` a PAGED route accepts. */
  maxPerPage: number;
  /** Connections the gateway keeps to Postgres. */
  poolSize: number;
  /** Request body limit in bytes. */
  bodyLimit: number;
  /** The gateway's own connection (role api_gateway); derived at start-up when unset. */
  gatewayDatabaseUrl?: string;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** A custom handler that has not answered by then gets a 500. */
  handlerTimeoutMs: number;
  /** Largest uploaded file, in bytes (413 above). */
  uploadMaxBytes: number;
  /** Most files on a MULTIPLE upload route (413 above). */
  uploadMaxFiles: number;
  /** Where uploads are streamed to (one directory per request, removed after it); unset: the OS's. */
  uploadTmpDir?: string;
}

export const HANDLER_DEFAULTS = {
  handlerTimeoutMs: 10_000,
  uploadMaxBytes: 10 * 1024 * 1024,
  uploadMaxFiles: 10,
};

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    port: integer(env, "PORT", 3000, 0, 65535),
    host: env.HOST || "127.0.0.1",
    maxPerPage: integer(env, "MAX_PER_PAGE", 100, 1, 10000),
    poolSize: integer(env, "DB_POOL_SIZE", 10, 1, 1000),
    bodyLimit: integer(env, "BODY_LIMIT", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    gatewayDatabaseUrl: url(env, "GATEWAY_DATABASE_URL"),
    logLevel: oneOf(env, "LOG_LEVEL", LOG_LEVELS, "info"),
    handlerTimeoutMs: integer(env, "HANDLER_TIMEOUT_MS", HANDLER_DEFAULTS.handlerTimeoutMs, 1, 600_000),
    uploadMaxBytes: integer(
      env,
      "UPLOAD_MAX_BYTES",
      HANDLER_DEFAULTS.uploadMaxBytes,
      1,
      1024 * 1024 * 1024 * 4,
    ),
    uploadMaxFiles: integer(env, "UPLOAD_MAX_FILES", HANDLER_DEFAULTS.uploadMaxFiles, 1, 1000),
    ...(env.UPLOAD_TMP_DIR ? { uploadTmpDir: env.UPLOAD_TMP_DIR } : {}),
  };
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
