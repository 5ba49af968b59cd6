// Errors as clients see them. The registry itself (codes, statuses, default messages, our
// SQLSTATEs) is generator/model/errors.ts, shared with the SQL the generator emits; the table is
// docs/errors.md, checked against it by test/gateway/errorsDoc.test.ts. Clients only ever see
// `{error: {code, message, details?}}` built from an ApiError; Postgres errors are mapped by
// SQLSTATE, never by matching message text, and only messages known to be safe (raised by
// generated code with our own SQLSTATEs) reach clients.

import { ERRORS, type ErrorCode, OUR_SQLSTATES } from "../generator/model/errors.ts";
import { isConnectionFailure } from "./ops/connectionFailures.ts";

export { ERRORS, type ErrorCode, OUR_SQLSTATES };

/** Per-parameter messages of a VALIDATION_ERROR (name -> message), or other structured detail. */
export type ErrorDetails = Record<string, string>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/**
 * An error whose code, message and details are safe to send to a client. `cause` (standard
 * Error option) keeps the original error for the log; it is never sent.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Absent (not even as a key) when there are none. */
  declare readonly details?: ErrorDetails;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(message ?? ERRORS[code].message, options);
    this.name = "ApiError";
    this.code = code;
    this.status = ERRORS[code].status;
    if (details !== undefined) this.details = details;
  }

  toBody(): ErrorBody {
    return errorBody(this.code, this.message, this.details);
  }
}

export function errorBody(code: ErrorCode, message?: string, details?: ErrorDetails): ErrorBody {
  const error: ErrorBody["error"] = { code, message: message ?? ERRORS[code].message };
  if (details !== undefined) error.details = details;
  return { error };
}

/** The fields of a node-postgres `DatabaseError` (or a Node socket error) that we read. */
export interface PostgresErrorLike {
  code?: string;
  message?: string;
  constraint?: string;
  column?: string;
  table?: string;
  schema?: string;
  detail?: string;
  /** The C function that raised it (sent whatever the server's language): tells RLS apart. */
  routine?: string;
}

/**
 * What a write route tells the mapper: the schema's constraints (gateway/constraints.ts), the
 * route's method and base table. Reads pass none: a constraint violation there is a bug (500).
 */
export interface WriteErrorContext {
  constraints: {
    find(
      table: string,
      name: string,
    ): { kind: string; columns: string[]; refTable?: string; name: string; table: string } | undefined;
    hasColumn(table: string, column: string): boolean;
  };
  method: string;
  table: string;
}

type PostgresMapper = (err: PostgresErrorLike, context: WriteErrorContext) => ApiError | undefined;

/** The schema's constraint behind a violation: only tables in `public`, only names the schema defines. */
function constraintOf(err: PostgresErrorLike, context: WriteErrorContext, kind: string) {
  if (err.schema !== undefined && err.schema !== "public") return undefined;
  if (typeof err.table !== "string" || typeof err.constraint !== "string") return undefined;
  const found = context.constraints.find(err.table, err.constraint);
  return found?.kind === kind ? found : undefined;
}

const listed = (columns: readonly string[]) => columns.join(", ");
const eachColumn = (columns: readonly string[], message: string): ErrorDetails | undefined => {
  if (columns.length === 0) return undefined;
  const details: ErrorDetails = {};
  for (const c of columns) details[c] = message;
  return details;
};

function foreignKeyConflict(err: PostgresErrorLike, context: WriteErrorContext): ApiError | undefined {
  const c = constraintOf(err, context, "foreignKey");
  if (!c) return undefined;
  if (context.method !== "DELETE" && c.table === context.table) {
    const ref = c.refTable ?? "row";
    return new ApiError(
      "CONFLICT",
      `${listed(c.columns)} does not refer to an existing ${ref}`,
      eachColumn(c.columns, `must refer to an existing ${ref}`),
      { cause: err },
    );
  }
  return new ApiError(
    "CONFLICT",
    `This ${c.refTable ?? context.table} is still referenced by ${c.table} (${listed(c.columns)})`,
    undefined,
    { cause: err },
  );
}

/**
 * Postgres's own SQLSTATEs that map to a client error (write routes). The message is built from
 * the schema's names (constraint -> table and columns, through the context's map), never from
 * Postgres's text; a violation of a constraint the schema does not define, or without a context,
 * falls through (undefined) to the generic 500.
 *
 * - 23505 unique_violation -> 409 CONFLICT naming the columns.
 * - 23503 foreign_key_violation (and 23001 restrict_violation, raised for ON DELETE / ON UPDATE
 *   RESTRICT) -> 409 CONFLICT: on the route's own table when inserting or updating, the columns
 *   do not refer to an existing row; otherwise (DELETE, or a referenced key changed) the row is
 *   still referenced.
 * - 23502 not_null_violation -> 422 VALIDATION_ERROR, `details` {column: "must not be null"}
 *   (the column from the error's column field, checked against the schema).
 * - 23514 check_violation -> 422 VALIDATION_ERROR, `details` for each column the check names.
 *
 * Row-level security (42501) is not mapped here: a route function's WITH CHECK failure is
 * `fromRouteFunctionError`'s; any other 42501 stays a 500 (a grant is missing: a server fault, not
 * the client's).
 */
export const POSTGRES_SQLSTATES: Record<string, PostgresMapper> = {
  "23505": (err, context) => {
    const c = constraintOf(err, context, "unique");
    if (!c) return undefined;
    const what = c.columns.length > 0 ? `this ${listed(c.columns)}` : "these values";
    return new ApiError(
      "CONFLICT",
      `A ${c.table} with ${what} already exists`,
      eachColumn(c.columns, "is already taken"),
      {
        cause: err,
      },
    );
  },
  "23503": (err, context) => foreignKeyConflict(err, context),
  "23001": (err, context) => foreignKeyConflict(err, context),
  "23502": (err, context) => {
    if (err.schema !== undefined && err.schema !== "public") return undefined;
    if (typeof err.table !== "string" || typeof err.column !== "string") return undefined;
    if (!context.constraints.hasColumn(err.table, err.column)) return undefined;
    return new ApiError("VALIDATION_ERROR", undefined, { [err.column]: "must not be null" }, { cause: err });
  },
  "23514": (err, context) => {
    const c = constraintOf(err, context, "check");
    if (!c) return undefined;
    const details = eachColumn(c.columns, `does not satisfy the check ${c.name}`);
    return new ApiError("VALIDATION_ERROR", `The values do not satisfy the check ${c.name}`, details, {
      cause: err,
    });
  },
};

/**
 * Admin shutdown, crash shutdown, cannot connect now (the server is (re)starting), too many
 * connections (the server is full: another instance may have room).
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** query_canceled: statement_timeout (STATEMENT_TIMEOUT_MS, a handler's timeout) or a cancel. */
const TIMEOUT_SQLSTATE = "57014";

/** Node socket errors (no SQLSTATE) seen when the database is unreachable. */
const UNAVAILABLE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * Maps an error thrown by node-postgres to an ApiError: our SQLSTATEs with their message;
 * constraint violations of a write route (with its context) as in POSTGRES_SQLSTATES;
 * connection failures (class 08, 57P01-57P03, 53300, socket errors, node-postgres's own
 * connection errors and the pool's bounded wait: ops/connectionFailures.ts) to 503; a statement
 * cancelled by its timeout (57014) to 504; everything else to a 500 with the generic message.
 * The original error is kept as `cause` for the log.
 */
export function fromPostgresError(err: unknown, context?: WriteErrorContext): ApiError {
  if (err instanceof ApiError) return err;
  const pgErr = (typeof err === "object" && err !== null ? err : {}) as PostgresErrorLike;
  const state = typeof pgErr.code === "string" ? pgErr.code : "";
  if (Object.hasOwn(OUR_SQLSTATES, state)) {
    const ours = OUR_SQLSTATES[state as keyof typeof OUR_SQLSTATES];
    const message = typeof pgErr.message === "string" && pgErr.message !== "" ? pgErr.message : undefined;
    return new ApiError(ours, message, undefined, { cause: err });
  }
  const mapped =
    context !== undefined && Object.hasOwn(POSTGRES_SQLSTATES, state)
      ? POSTGRES_SQLSTATES[state]?.(pgErr, context)
      : undefined;
  if (mapped !== undefined) return mapped;
  if (
    state.startsWith("08") ||
    UNAVAILABLE_SQLSTATES.has(state) ||
    UNAVAILABLE_ERRNOS.has(state) ||
    isConnectionFailure(err)
  ) {
    return new ApiError("SERVICE_UNAVAILABLE", undefined, undefined, { cause: err });
  }
  if (state === TIMEOUT_SQLSTATE)
    return new ApiError("GATEWAY_TIMEOUT", undefined, undefined, { cause: err });
  return new ApiError("SERVER_ERROR", undefined, undefined, { cause: err });
}

/**
 * Postgres's "this value is not valid for its type" errors (class 22): a date that does not exist
 * (22008, 22007), text that is not a number (22P02), a number out of range for its type (22003),
 * NUL in text (22021), a lone surrogate in JSON (22P05), text too long for its column (22001).
 * Raised by a statement whose parameters carry request values, they are the client's value, not
 * a server fault. Other class-22 errors (division by zero, a bad regular expression, ...) are
 * the code's own and stay a 500.
 */
export const INVALID_VALUE_SQLSTATES = new Set([
  "22001",
  "22003",
  "22007",
  "22008",
  "22021",
  "22P02",
  "22P05",
]);

export const INVALID_VALUE_MESSAGE = "A value in the request is not valid for the database";

/**
 * A handler's failed statement whose parameters held values, with one of INVALID_VALUE_SQLSTATES:
 * 400 BAD_REQUEST with a fixed message (Postgres's text names types, values and sometimes
 * columns: never sent). Undefined for anything else.
 */
export function invalidValueError(err: unknown): ApiError | undefined {
  const code = typeof err === "object" && err !== null ? (err as PostgresErrorLike).code : undefined;
  if (typeof code !== "string" || !INVALID_VALUE_SQLSTATES.has(code)) return undefined;
  return new ApiError("BAD_REQUEST", INVALID_VALUE_MESSAGE, undefined, { cause: err });
}

/**
 * Postgres's "this value does not cast" conditions (class 22): text that is not a number
 * (22P02), out of range (22003), not a date (22007, 22008), a bad time zone offset (22009), an
 * invalid parameter value (22023, as a scalar where a list is expected). Not INVALID_VALUE_SQLSTATES:
 * that set is a handler statement's, whose text the gateway did not write; this one is what
 * generated casts of request values raise, with the messages route functions always answered.
 */
const CAST_FAILURE_SQLSTATES = new Set(["22P02", "22003", "22007", "22008", "22009", "22023"]);

export const CAST_FAILURE_MESSAGE =
  "A request value does not match the type of the column it is compared with";
export const TOO_LONG_MESSAGE = "A request value is too long for its column";
export const ROW_FORBIDDEN_MESSAGE = "You do not have permission to write this row";

/** The routine that raises a row-level-security WITH CHECK failure (42501). */
const WITH_CHECK_ROUTINE = "ExecWithCheckOptions";

/**
 * What a route function's own statements raise that is the request's fault, not the server's
 * (docs/errors.md): a route function casts request and context values to their columns' types
 * (`($1->>'id')::bigint`), and writes its rows as a role that row-level security binds.
 * - A value that does not cast (CAST_FAILURE_SQLSTATES): 400 BAD_REQUEST.
 * - A value too long for its column (22001): 422 VALIDATION_ERROR.
 * - A row the write would put outside the caller's policies (42501 from ExecWithCheckOptions):
 *   403 FORBIDDEN. A 42501 from anywhere else is a missing grant (500).
 * The functions used to map these themselves, in a plpgsql EXCEPTION block: a subtransaction on
 * every call (docs/performance.md, "The exception block, in the gateway"). The messages are
 * fixed: Postgres's text names types and values.
 */
export function routeValueError(err: unknown): ApiError | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { code, routine } = err as PostgresErrorLike;
  if (typeof code !== "string") return undefined;
  if (CAST_FAILURE_SQLSTATES.has(code))
    return new ApiError("BAD_REQUEST", CAST_FAILURE_MESSAGE, undefined, { cause: err });
  if (code === "22001") return new ApiError("VALIDATION_ERROR", TOO_LONG_MESSAGE, undefined, { cause: err });
  if (code === "42501" && routine === WITH_CHECK_ROUTINE)
    return new ApiError("FORBIDDEN", ROW_FORBIDDEN_MESSAGE, undefined, { cause: err });
  return undefined;
}

/** An error of a route function call (the gateway's statement, a handler's `req.db.call`). */
export function fromRouteFunctionError(err: unknown, context?: WriteErrorContext): ApiError {
  return routeValueError(err) ?? fromPostgresError(err, context);
}
