// Which pool errors mean "the database cannot be reached now" (docs/operations.md "Faults").
// Postgres's own errors carry a SQLSTATE and socket errors an errno name: errors.ts maps those by
// code. node-postgres raises its connection-level failures with no code at all: a connection
// cut mid-query ("Connection terminated unexpectedly"), a client whose connection broke ("not
// queryable"), the pool's bounded wait ("timeout exceeded when trying to connect", POOL_WAIT_MS).
// They are recognised here, where they happen, and remembered by identity, so the mapper never
// has to guess from a message that could have come from somewhere else.

import type pg from "pg";

const failures = new WeakSet<object>();

/**
 * Marks a statement's error when it means the database could not be reached: for the callback
 * form of `client.query`, which the wrapper below leaves alone (pool.ts queryOnce).
 */
export function noteQueryError(error: unknown): void {
  classify(error, false);
}

/** An error the gateway's pool raised because the database could not be reached (503). */
export function isConnectionFailure(error: unknown): boolean {
  return typeof error === "object" && error !== null && failures.has(error);
}

// node-postgres's texts for its code-less connection errors (pg and pg-pool 8.x).
const PG_CONNECTION_FAILURE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

function classify(error: unknown, connecting: boolean): void {
  if (typeof error !== "object" || error === null) return;
  if ((error as { code?: unknown }).code !== undefined) return;
  // Acquiring a client does nothing but connect: any code-less failure of it is one.
  if (connecting || PG_CONNECTION_FAILURE.test(String((error as Error).message))) failures.add(error);
}

/**
 * SQLSTATE 26000, "prepared statement ... does not exist": a named statement node-postgres (and
 * req.db's bookkeeping) believes the connection holds is gone, because handler SQL ran DEALLOCATE
 * on this pooled connection. Nothing of the statement ran.
 */
export function isMissingStatement(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "26000";
}

type AnyFn = (...args: unknown[]) => unknown;
const WRAPPED = Symbol("connectionFailures");

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function watch(target: object, connecting: boolean): void {
  const holder = target as { query: AnyFn; [WRAPPED]?: true };
  if (holder[WRAPPED]) return;
  holder[WRAPPED] = true;
  const query = holder.query.bind(target);
  holder.query = (...args: unknown[]) => {
    const out = query(...args);
    // Callback-style calls (pg-pool's own, pool.ts queryOnce) and submittables are left as they
    // are: wrapping the callback measurably lengthened the life of every result (pool.ts).
    if (!isPromise(out)) return out;
    return out.catch((error: unknown) => {
      classify(error, connecting);
      throw error;
    });
  };
}

/**
 * Whether a statement's error left its connection unusable, so the pool must discard the client.
 * Only then: a route function's own answers (A0404, A0422, ...), constraint violations and cast
 * errors end a statement, not the session, and the connection with its prepared statements serves
 * the next request (pg-pool's `pool.query` would destroy it for any error). A connection that did
 * die is dropped by pg-pool on release in any case (it checks the client's state); this names the
 * cases we know of so the pool does not wait for that.
 */
export function brokeConnection(error: unknown): boolean {
  if (isConnectionFailure(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  // No SQLSTATE at all: not an answer of the server's, so nothing says the session is intact.
  if (typeof code !== "string") return true;
  // A socket's errno name (ECONNRESET, EPIPE, ...).
  if (/^E[A-Z]+$/.test(code)) return true;
  // The bookkeeping of the connection's statements no longer matches the server's, so every
  // statement it believes held would fail there: the connection is done for.
  if (isMissingStatement(error)) return true;
  // Class 08 (connection exception); 57P01-57P05: the server ended the session (terminated,
  // shutting down, cannot connect now, idle timeouts).
  return code.startsWith("08") || code.startsWith("57P");
}

/** Wraps `pool.query`, `pool.connect` and the clients it hands out; returns the same pool. */
export function markConnectionFailures(pool: pg.Pool): pg.Pool {
  watch(pool, false);
  const connect = pool.connect.bind(pool) as AnyFn;
  (pool as unknown as { connect: AnyFn }).connect = (...args: unknown[]) => {
    const callback = args[0];
    if (typeof callback === "function") {
      return connect((error: unknown, client: pg.PoolClient | undefined, release: unknown) => {
        if (error) classify(error, true);
        else if (client) watch(client, false);
        return (callback as AnyFn)(error, client, release);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then(
      (client) => {
        watch(client, false);
        return client;
      },
      (error: unknown) => {
        classify(error, true);
        throw error;
      },
    );
  };
  return pool;
}
