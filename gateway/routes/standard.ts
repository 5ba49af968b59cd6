// A standard route (ONE, ARRAY, PAGED reads; POST, PUT, PATCH, DELETE writes) as the gateway runs it: everything knowable from the
// schema is compiled here once; per request there is auth, validation, and ONE statement:
// `SELECT api."<route fn>"($1, $2)` as a named prepared statement (unnamed with
// PG_PREPARED_STATEMENTS=0, docs/scaling.md), whose json text is the body (run by
// gateway/cellQuery.ts). Two exceptions: a filtered or sorted PAGED page, for which the gateway
// sends its own page statement with the caller's context in one batch (pagedStatement.ts), and a
// ONE or ARRAY read without raw SQL of its own, for which it sends its own statement, after the
// caller's context where its policies or masks read it (readStatement.ts).

import type { Model, ModelRoute } from "../../generator/model/index.ts";
import { TOTAL_MODES } from "../../generator/model/paging.ts";
import type { StandardRoute } from "../../generator/schema/types.ts";
import { ident } from "../../generator/sql/sql.ts";
import { type AuthResult, checkRoute } from "../auth/context.ts";
import { type CellStatement, cellStatement } from "../cellQuery.ts";
import { ApiError, type ErrorDetails, fromRouteFunctionError, type WriteErrorContext } from "../errors.ts";
import { type ColumnRules, columnRules } from "../filter/columnRules.ts";
import { checkFilterColumns, type FilterExpr, parseFilter } from "../filter/parse.ts";
import type { StatementRunner } from "../readPool.ts";
import { compileRequest, validationError } from "../request/index.ts";
import { compileCtxJson } from "./ctxJson.ts";
import { cursorDecoder } from "./cursor.ts";
import { deprecationHeaders } from "./deprecation.ts";
import { compilePagedStatements } from "./pagedStatement.ts";
import { compileReadStatement } from "./readStatement.ts";

export interface RouteRequest {
  query: Record<string, string | string[]>;
  params: Record<string, string>;
  body: unknown;
  /** Request headers; PAGED routes read `Prefer: count=...`. */
  headers?: Record<string, string | string[] | undefined>;
}

export interface RouteReply {
  status: number;
  headers: Record<string, string>;
  /** JSON text, sent as is. */
  body: string;
}

export interface StandardRouteOptions {
  maxPerPage: number;
  globalParams: string[];
  /**
   * The model, for the gateway's own statements: filtered and sorted pages (pagedStatement.ts),
   * ONE and ARRAY reads (readStatement.ts). Without it the route function
   * answers every request.
   */
  model?: Model;
  /** Told when a route's own statement is given up for the route function (below). */
  warn?: (details: Record<string, unknown>, message: string) => void;
  /** Unnamed statements when false (PG_PREPARED_STATEMENTS=0: a pooler that cannot keep them). */
  preparedStatements?: boolean;
  /** Write routes: the body's values against their columns, and the constraint map for errors. */
  write?: {
    columnChecks: (params: Record<string, unknown>) => ErrorDetails | undefined;
    errors: WriteErrorContext;
  };
}

let statementCounter = 0;

/** A standard route's request handling, from its model (generator/model): validate, check, call. */
export function compileStandardRoute(modelRoute: ModelRoute, options: StandardRouteOptions) {
  const route = modelRoute.route as StandardRoute;
  const validate = compileRequest(route, { maxPerPage: options.maxPerPage });
  // A route that reads a `#global` needs a caller who has it.
  const access = { roles: route.roles, scopes: route.scopes, usesGlobals: modelRoute.globals };
  // PAGED: which columns the caller may filter and sort by, and why not.
  const rules = route.type === "PAGED" ? columnRules(modelRoute.filterColumns) : undefined;
  // Named: Postgres parses and plans the call once per connection.
  const statementName = options.preparedStatements === false ? undefined : `route_${++statementCounter}`;
  const statementText = `SELECT ${ident("api", modelRoute.functionName as string)}($1::jsonb, $2::jsonb)`;
  const deprecation = deprecationHeaders(route.deprecation, modelRoute.group.baseUrl);
  const headers = { "content-type": "application/json; charset=utf-8", ...deprecation };
  // The answer's headers with `Preference-Applied`, one object per count mode, made here: shared
  // by the requests as `headers` is (a spread followed by a new key is V8's slow path).
  const countHeaders = new Map<string, Record<string, string>>(
    TOTAL_MODES.map((mode) => [mode, { ...headers, "preference-applied": `count=${mode}` }]),
  );
  const paged = route.type === "PAGED";
  const ctxJson = compileCtxJson(options.globalParams);
  // PAGED: a cursor in the route's own order, decoded for the function's fast path (cursor.ts).
  const decodeCursor = paged && options.model ? cursorDecoder(options.model, modelRoute) : undefined;
  let ownStatement =
    paged && options.model
      ? compilePagedStatements(options.model, modelRoute, {
          schema: { globalParams: options.globalParams },
          preparedStatements: options.preparedStatements !== false,
        })
      : undefined;
  // ONE and ARRAY reads without raw SQL of their own (readStatement.ts).
  let readStatement =
    options.model && !paged
      ? compileReadStatement(options.model, modelRoute, {
          preparedStatements: options.preparedStatements !== false,
        })
      : undefined;

  async function run(db: StatementRunner, auth: AuthResult, request: RouteRequest): Promise<RouteReply> {
    const denied = checkRoute(access, auth);
    if (denied !== "ok") throw new ApiError(denied.code, denied.message);
    const input = validate(request);
    if (!input.ok) throw input.error;
    const params = input.params;
    if (options.write) {
      const details = options.write.columnChecks(params);
      if (details) throw validationError(details);
    }
    // An empty filter is no filter.
    if (params.filter === "") delete params.filter;
    if (paged && typeof params.filter === "string") {
      const parsed = parseFilter(params.filter);
      if (!parsed.ok) {
        throw new ApiError("BAD_REQUEST", `invalid filter: ${parsed.error.message}`);
      }
      if (rules) checkFilter(parsed.ast, rules, auth);
      params.filter = parsed.ast;
    }
    // The route function treats an empty sortBy as none; it checks the name whatever the sortOrder.
    if (rules && typeof params.sortBy === "string" && params.sortBy !== "") {
      const why = rules.why(params.sortBy, "sort", auth);
      if (why !== null) {
        throw new ApiError(
          "BAD_REQUEST",
          `invalid sortBy: column ${quote(params.sortBy)} cannot be sorted: ${why}`,
        );
      }
    }
    // `Prefer: count=exact|planned|estimated` (as PostgREST): how the total is counted. Passed
    // under a key no request parameter can have; the function checks the value again.
    const countMode = paged ? preferredCount(request.headers?.prefer) : undefined;
    if (countMode) params.$count = countMode;
    decodeCursor?.(params);
    // A route without parameters (GET /user/me) sends the same text every time.
    const empty = isEmpty(params);
    // Postgres text cannot hold U+0000; refuse it here rather than fail in the database.
    if (!empty && hasNul(params)) {
      throw new ApiError("BAD_REQUEST", "Request values must not contain the NUL character (U+0000)");
    }
    const body =
      (readStatement ? await ownRead(db, params, auth) : undefined) ??
      (await answer(db, params, auth, empty));
    if (countMode) return { status: 200, headers: countHeaders.get(countMode) ?? headers, body };
    return { status: 200, headers, body };
  }

  /** The answer of the gateway's own page statement, or else of the route function. */
  async function answer(
    db: StatementRunner,
    params: Record<string, unknown>,
    auth: AuthResult,
    empty: boolean,
  ): Promise<string> {
    const ctx = ctxJson(auth);
    const page = ownStatement?.({ params, auth, ctx });
    const own = page ? await ownAnswer(db, page) : undefined;
    if (typeof own === "string") return own;
    const values = [empty ? "{}" : JSON.stringify(params), ctx];
    try {
      const result = await db.query(cellStatement(statementName, statementText, values));
      return (result.rows[0] as unknown[])[0] as string;
    } catch (error) {
      throw fromRouteFunctionError(error, options.write?.errors);
    }
  }

  /** A ONE or ARRAY read by the gateway's own statement (404 when ONE finds no row), else undefined. */
  async function ownRead(
    db: StatementRunner,
    params: Record<string, unknown>,
    auth: AuthResult,
  ): Promise<string | undefined> {
    const reads = readStatement;
    const statement = reads?.(params, auth, ctxJson(auth));
    if (!statement || !reads) return undefined;
    const answer = await ownAnswer(db, statement);
    if (answer === null && reads.notFound !== undefined) throw new ApiError("NOT_FOUND", reads.notFound);
    return answer ?? undefined;
  }

  /**
   * The answer of the gateway's own statement (pagedStatement.ts, readStatement.ts): its cell,
   * null for no row, or undefined when the route function is to answer.
   */
  async function ownAnswer(
    db: StatementRunner,
    statement: CellStatement,
  ): Promise<string | null | undefined> {
    try {
      const result = await db.query(statement);
      const row = result.rows[0] as unknown[] | undefined;
      return row === undefined ? null : (row[0] as string);
    } catch (error) {
      // A value that does not cast (class 22), or raw SQL of the schema that api_gateway may not
      // run (class 42: then never again for this route): the function answers, with its own
      // message where the request is wrong.
      const code = String((error as { code?: unknown }).code ?? "");
      if (code.startsWith("42")) {
        ownStatement = undefined;
        readStatement = undefined;
        options.warn?.(
          { err: error, route: modelRoute.key },
          "the gateway's own statement failed: the route function answers this route from now on",
        );
      } else if (!code.startsWith("22")) throw fromRouteFunctionError(error);
      return undefined;
    }
  }
  return Object.assign(run, { deprecation });
}

/** The first condition (in text order) whose column the caller may not filter by: 400 with why. */
function checkFilter(ast: FilterExpr, rules: ColumnRules, auth: AuthResult): void {
  const refused = checkFilterColumns(ast, (column) => rules.why(column, "filter", auth));
  if (refused) {
    throw new ApiError(
      "BAD_REQUEST",
      `invalid filter: column ${quote(refused.column)} at position ${refused.position} cannot be filtered: ${refused.reason}`,
    );
  }
}

/** A client's name in a message: double-quoted, control characters escaped as in JSON. */
function quote(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}...` : name);
}

function isEmpty(params: Record<string, unknown>): boolean {
  for (const _ in params) return false;
  return true;
}

// Loops rather than Object.entries and some(): this runs on every request with values, and the
// pairs and closures those make were 2 us of it (docs/performance.md, eighteenth look).
function hasNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (Array.isArray(value)) {
    for (const item of value) if (hasNul(item)) return true;
    return false;
  }
  if (typeof value === "object" && value !== null) {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (key.includes("\0") || hasNul((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

const PREFER_COUNT = new RegExp(`(?:^|[,;\\s])count=(${TOTAL_MODES.join("|")})(?=$|[,;\\s])`, "i");

/** The count mode a `Prefer` header asks for; other preferences and unknown values are ignored (RFC 7240). */
export function preferredCount(prefer: string | string[] | undefined): string | undefined {
  if (prefer === undefined) return undefined;
  const text = Array.isArray(prefer) ? prefer.join(",") : prefer;
  return PREFER_COUNT.exec(text)?.[1]?.toLowerCase();
}
