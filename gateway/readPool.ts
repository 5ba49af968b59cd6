// Reads on a streaming replica (READ_DATABASE_URL, docs/scaling.md). GET standard routes run
// their one statement on the replica's pool; everything else (writes, custom handlers' req.db,
// /ready) stays on the primary. The route functions reach the replica by replication, as do the
// roles and their passwords.
//
// A replica that cannot answer (down, starting, too many connections, a query cancelled by a
// recovery conflict, a route function it has not replayed yet) is not an outage: the read runs on the primary instead, and the replica is
// left alone for REPLICA_RETRY_MS so a dead one does not cost every request a failed connect.
// Retrying is safe because a GET route function only reads.

import type pg from "pg";
import { AppError } from "../app/errors.ts";

/** What a standard route needs of a pool: one array-mode query. */
export interface StatementRunner {
  query(config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult>;
}

/** The request header a client sends to read from the primary (read-your-writes, docs/scaling.md). */
export const READ_PRIMARY_HEADER = "x-read-primary";

export const REPLICA_RETRY_MS = 5_000;

export interface ReadRouter extends StatementRunner {
  /** Statements answered by the replica, and by the primary in its place, so far. */
  readonly counts: { replica: number; fallback: number };
}

export interface ReadRouterOptions {
  /** Told once per outage (the first failure after the replica was last believed up). */
  onReplicaDown?: (error: unknown) => void;
  retryMs?: number;
}

export function readRouter(
  replica: pg.Pool,
  primary: StatementRunner,
  options: ReadRouterOptions = {},
): ReadRouter {
  const retryMs = options.retryMs ?? REPLICA_RETRY_MS;
  let downUntil = 0;
  const counts = { replica: 0, fallback: 0 };
  return {
    counts,
    async query(config) {
      if (Date.now() >= downUntil) {
        try {
          const result = await replica.query(config);
          counts.replica++;
          return result;
        } catch (error) {
          if (!replicaUnavailable(error)) throw error;
          if (downUntil === 0 || Date.now() >= downUntil) options.onReplicaDown?.(error);
          downUntil = Date.now() + retryMs;
        }
      }
      counts.fallback++;
      return primary.query(config);
    },
  };
}

/** Whether the header asks for the primary: `1` or `true` (any case). */
export function wantsPrimary(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers[READ_PRIMARY_HEADER];
  const first = Array.isArray(value) ? value[0] : value;
  return first !== undefined && /^(1|true)$/i.test(first.trim());
}

/** SQLSTATEs of a replica that cannot answer now (not of a statement that is wrong). */
const UNAVAILABLE = new Set([
  // admin shutdown, crash shutdown, cannot connect now (starting up, or not yet consistent)
  "57P01",
  "57P02",
  "57P03",
  // too many connections
  "53300",
  // a query cancelled because replay needed what it read (recovery conflict)
  "40001",
  // the route function (or schema api) not there yet: the replica has not replayed the
  // migration that made it (on the primary the same call is answered, or fails the same way)
  "42883",
  "3F000",
]);

function replicaUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // pg's own connection errors ("Connection terminated", "timeout exceeded when trying to
  // connect") have no code; socket errors carry an errno name (ECONNREFUSED, ...).
  if (typeof code !== "string") return true;
  if (/^E[A-Z]+$/.test(code)) return true;
  return code.startsWith("08") || UNAVAILABLE.has(code);
}

/**
 * READ_DATABASE_URL: the replica's postgres:// URL. With a user name it is used as is; without
 * one, the gateway's own credentials (GATEWAY_DATABASE_URL, or derived at start-up) are used on
 * the replica's host, port and database: roles and passwords replicate with everything else.
 */
export function readDatabaseUrl(env: NodeJS.ProcessEnv, gatewayUrl: string): string | undefined {
  const raw = env.READ_DATABASE_URL;
  if (raw === undefined || raw === "") return undefined;
  let replica: URL | undefined;
  try {
    replica = new URL(raw);
  } catch {}
  if (!replica || !/^postgres(ql)?:$/.test(replica.protocol)) {
    throw new AppError("READ_DATABASE_URL must be a postgres:// URL");
  }
  if (replica.username !== "") return raw;
  const url = new URL(gatewayUrl);
  url.host = replica.host;
  if (replica.pathname !== "" && replica.pathname !== "/") url.pathname = replica.pathname;
  url.search = replica.search || url.search;
  return url.toString();
}
