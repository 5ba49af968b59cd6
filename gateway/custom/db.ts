// The database handles a custom handler gets (docs/handlers.md "Database access").
//
// `req.db` runs SQL as the caller: one transaction on a gateway pool client (role api_gateway),
// opened at the first query, whose first statement sets the caller's `api.ctx` (as route
// functions do), `search_path` to the API schema (so `FROM "task"` reads the view `api."task"`)
// and a statement timeout. `pg_temp` is named last on purpose: left out, Postgres searches it
// first, so a temporary table called "task" (created by any handler on this pooled connection,
// and surviving it) would stand in for the view. The gateway role can only SELECT the views and EXECUTE route
// functions, so row policies and column rules hold as for any standard route; writes go through
// `call` (a standard route function, after the same route check). The transaction commits when
// the handler answers with data and rolls back otherwise. `queryAlone` is the request's only
// statement in a transaction of its own: the context statement and it, without BEGIN, in one
// round trip, committed by the batch's Sync.
//
// `req.service` runs SQL on the migrating (privileged) connection: for trusted server code that
// must read what no caller may (login reading a password hash). It is never reachable from a
// request except through handler code.

import pg from "pg";
import { type AuthResult, checkRoute, type RouteAccess } from "../auth/context.ts";
import { ApiError, fromPostgresError, fromRouteFunctionError, type WriteErrorContext } from "../errors.ts";
import { statementName } from "../namedStatements.ts";
import { brokeConnection } from "../ops/connectionFailures.ts";
import { OpenTransaction } from "./openTransaction.ts";
import { isLostStatement, preparedName } from "./preparedTexts.ts";
import type { CallerDb, QueryResult, ServiceDb } from "./types.ts";

/** A standard route as `req.db.call` runs it. */
export interface CallableRoute {
  /** `api."GET /api/v1/user/:id"`, quoted. */
  functionSql: string;
  access: RouteAccess;
  errors?: WriteErrorContext;
}

export interface CallerSession extends CallerDb {
  /** Commits (answered with data) or rolls back, and returns the client to the pool. */
  end(commit: boolean): Promise<void>;
}

/**
 * The transaction's first statement: the caller's context (api.set_ctx), the API schema first on
 * the search path, and the statement timeout: the handler's, or the connection's own
 * (STATEMENT_TIMEOUT_MS) when shorter (`least` skips the NULL of a connection without one, '0').
 * Its row has no columns: the calls run (Postgres keeps a subquery's volatile outputs), and no
 * value is sent back to be parsed.
 */
const OPENING_TEXT =
  "SELECT FROM (SELECT api.set_ctx($1::jsonb), set_config('search_path', 'api, pg_catalog, pg_temp', true), " +
  "set_config('statement_timeout', least($2::bigint, nullif((extract(epoch FROM current_setting('statement_timeout')::interval) * 1000)::bigint, 0))::text, true)) AS _api_set";
/** Kept prepared on each connection (openTransaction.ts); a name per text, so a change never meets an old one. */
const OPENING_NAME = statementName("api_open", OPENING_TEXT);

const ALONE_FIRST = "req.db.queryAlone was this request's only use of req.db: nothing may follow it";
const ALONE_AFTER =
  "req.db.queryAlone must be the request's only use of req.db: its transaction is already open";

/** Handler queries parse JSON (the gateway pool leaves json as text for route replies). */
const PARSED = pg.types as unknown as pg.CustomTypesConfig;

export function callerSession(
  pool: pg.Pool,
  auth: AuthResult,
  ctxText: string,
  options: SessionOptions,
): CallerSession {
  const session = new Session(pool, auth, ctxText, options);
  // The session's state and steps live on the class; this object only hands its four methods on
  // (withValueErrors spreads it, which would drop methods of a prototype). Object-literal methods
  // take their names from their keys: tsx (esbuild's keepNames) adds no Object.defineProperty for
  // them, as it does for every named closure a request makes (about half a microsecond each).
  return {
    query(text, values) {
      return session.query(text, values);
    },
    queryAlone(text, values) {
      return session.queryAlone(text, values);
    },
    call(method, path, params) {
      return session.call(method, path, params);
    },
    end(commit) {
      return session.end(commit);
    },
  };
}

interface SessionOptions {
  statementTimeoutMs: number;
  routes: Map<string, CallableRoute>;
  /** Repeated texts as named prepared statements (preparedTexts.ts); default on. */
  preparedStatements?: boolean;
}

/** One request's `req.db`: its transaction's state and what it runs. */
class Session {
  private acquiring: Promise<pg.PoolClient> | undefined;
  private closed = false;
  /** queryAlone ran: its statement committed, and nothing may follow. */
  private alone = false;
  private savepoints = 0;
  /** A statement of this connection can never run again (isLostStatement): dropped at the end. */
  private stale: Error | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly auth: AuthResult,
    /** The caller context as the JSON text route functions get (routes/ctxJson.ts). */
    private readonly ctxText: string,
    private readonly options: SessionOptions,
  ) {}

  async query<Row>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    try {
      const result = await this.run(text, values, this.options.preparedStatements !== false);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw operational(error);
    }
  }

  async queryAlone<Row>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    if (this.acquiring || this.alone) throw new Error(this.alone ? ALONE_FIRST : ALONE_AFTER);
    if (this.closed) throw new Error("req.db used after the request ended");
    // Nothing may follow: the statement's transaction commits with it.
    this.closed = true;
    this.alone = true;
    try {
      const result = await this.runAlone(text, values, this.options.preparedStatements !== false);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw operational(error);
    }
  }

  async call(method: string, path: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const route = this.options.routes.get(`${method.toUpperCase()} ${path}`);
    if (!route) throw new Error(`req.db.call: no standard route ${method} ${path} in the schema`);
    const denied = checkRoute(route.access, this.auth);
    if (denied !== "ok") throw new ApiError(denied.code, denied.message);
    const c = await this.client();
    // A savepoint, so a refused write (409, 422) leaves the handler's transaction usable.
    const name = `call_${++this.savepoints}`;
    await c.query(`SAVEPOINT ${name}`);
    try {
      const result = await c.query({
        text: `SELECT ${route.functionSql}($1::jsonb, $2::jsonb) AS body`,
        values: [JSON.stringify(params), this.ctxText],
        types: PARSED,
      });
      await c.query(`RELEASE SAVEPOINT ${name}`);
      return (result.rows[0] as { body: { data: unknown } }).body.data;
    } catch (error) {
      await c.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => {});
      throw fromRouteFunctionError(error, route.errors);
    }
  }

  async end(commit: boolean): Promise<void> {
    this.closed = true;
    if (!this.acquiring) return;
    const c = await this.acquiring.catch(() => undefined);
    if (!c) return;
    try {
      await c.query(commit ? "COMMIT" : "ROLLBACK");
      c.release(this.stale);
    } catch (error) {
      // A COMMIT that fails (a deferred constraint) has ended the transaction: the connection
      // is clean and stays in the pool unless the error broke it.
      c.release(brokeConnection(error) ? (error as Error) : undefined);
      if (commit) throw error;
    }
  }

  /**
   * A connection with the caller's opening sent and done: BEGIN (unless `begin` is false: see
   * queryAlone) and the context statement, with `first` (the first query, built for the
   * connection) in the same batch (openTransaction.ts).
   */
  private async open(begin: boolean, first?: PendingQuery): Promise<pg.PoolClient> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.pool.connect();
      try {
        // BEGIN, the context and the first query in one round trip.
        const opening = new OpenTransaction(
          {
            name: this.options.preparedStatements !== false ? OPENING_NAME : undefined,
            text: OPENING_TEXT,
            values: [this.ctxText, String(this.options.statementTimeoutMs)],
          },
          first?.build(c) as ConstructorParameters<typeof OpenTransaction>[1],
          { begin },
        );
        c.query(opening);
        await opening.done;
        return c;
      } catch (error) {
        c.release(error as Error);
        // The opening statement this connection was believed to hold is gone: nothing ran, so
        // the transaction opens once more on another connection (this one is dropped).
        if (attempt === 1 && isLostStatement(error)) continue;
        throw error;
      }
    }
  }

  /** The transaction's connection, opened at the first use. */
  private client(first?: PendingQuery): Promise<pg.PoolClient> {
    if (this.closed) {
      return Promise.reject(new Error(this.alone ? ALONE_FIRST : "req.db used after the request ended"));
    }
    this.acquiring ??= this.open(true, first);
    return this.acquiring;
  }

  /** Runs `text`: with the opening when the transaction is not open yet, else on its connection. */
  private async run(text: string, values: unknown[], prepare: boolean): Promise<pg.QueryResult> {
    const query = new PendingQuery(text, values, prepare);
    const opened = this.acquiring !== undefined;
    const c = await this.client(opened ? undefined : query);
    if (opened) c.query(query.build(c));
    try {
      return await query.result();
    } catch (error) {
      if (!isLostStatement(error)) throw error;
      if (opened) {
        this.stale = error as Error;
        throw error;
      }
      // The transaction's first statement: nothing else ran in it, so it runs again, unnamed, on
      // a fresh transaction; the connection holding the stale statement is dropped.
      this.acquiring = undefined;
      c.release(error as Error);
      return this.run(text, values, false);
    }
  }

  /** queryAlone's one statement: the context, `text` and the commit in one batch, then released. */
  private async runAlone(text: string, values: unknown[], prepare: boolean): Promise<pg.QueryResult> {
    const query = new PendingQuery(text, values, prepare);
    const c = await this.open(false, query);
    try {
      const result = await query.result();
      c.release();
      return result;
    } catch (error) {
      // The Sync ended the implicit transaction either way: the connection is clean unless the
      // error broke it or left a statement it believed prepared (run once more, unnamed).
      const lost = isLostStatement(error);
      c.release(lost || brokeConnection(error) ? (error as Error) : undefined);
      if (lost && prepare) return this.runAlone(text, values, false);
      throw error;
    }
  }
}

/**
 * `text` to be sent on a connection not known yet: `build` makes its pg.Query for connection `c`
 * (named when `prepare`), `result` settles with it once built.
 */
class PendingQuery {
  private settled: Promise<pg.QueryResult> | undefined;

  constructor(
    private readonly text: string,
    private readonly values: unknown[],
    private readonly prepare: boolean,
  ) {}

  build(c: pg.PoolClient): pg.Submittable {
    const name = this.prepare ? preparedName(c, this.text) : undefined;
    let submittable: pg.Submittable | undefined;
    this.settled = new Promise<pg.QueryResult>((resolve, reject) => {
      submittable = new pg.Query({
        text: this.text,
        values: this.values,
        types: PARSED,
        ...(name ? { name } : {}),
        callback: settle(resolve, reject),
      } as pg.QueryConfig) as unknown as pg.Submittable;
    });
    // Awaited by the caller once the connection is there: an error that comes first is not unhandled.
    this.settled.catch(() => {});
    return submittable as pg.Submittable;
  }

  result(): Promise<pg.QueryResult> {
    return this.settled as Promise<pg.QueryResult>;
  }
}

/** A pg.Query callback that settles a promise (made by a call, so that no binding names it). */
function settle(resolve: (r: pg.QueryResult) => void, reject: (error: Error) => void) {
  return (error: Error | null, r: pg.QueryResult) => (error ? reject(error) : resolve(r));
}

export function serviceDb(pool: pg.Pool | undefined): ServiceDb {
  return {
    async query<Row>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
      if (!pool) {
        throw new Error("req.service: the gateway was started without a service connection (servicePool)");
      }
      try {
        const result = await pool.query({ text, values, types: PARSED });
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw operational(error);
      }
    },
  };
}

/**
 * A statement that failed because the database is unreachable (503) or its timeout cancelled
 * it (504) becomes that ApiError, so the handler's answer says so instead of a 500
 * (docs/operations.md "Faults"); any other error reaches the handler unchanged.
 */
function operational(error: unknown): unknown {
  const mapped = fromPostgresError(error);
  return mapped.code === "SERVICE_UNAVAILABLE" || mapped.code === "GATEWAY_TIMEOUT" ? mapped : error;
}
