// The error registry (DESIGN principle 6): one table maps each error code to its HTTP status and
// default message. Clients only ever see `{error: {code, message, details?}}` built from an
// ApiError; Postgres errors are mapped by SQLSTATE, never by matching message text, and only
// messages known to be safe (raised by generated code with our own SQLSTATEs) reach clients.

export const ERRORS = {
  BAD_REQUEST: { status: 400, message: "Malformed request" },
  UNAUTHORIZED: { status: 401, message: "Authentication required" },
  FORBIDDEN: { status: 403, message: "Access denied" },
  NOT_FOUND: { status: 404, message: "Not found" },
  CONFLICT: { status: 409, message: "The request conflicts with the current state of the data" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "Request body is too large" },
  VALIDATION_ERROR: { status: 422, message: "Request validation failed" },
  TOO_MANY_REQUESTS: { status: 429, message: "Too many requests" },
  SERVER_ERROR: { status: 500, message: "An unexpected error occurred" },
  SERVICE_UNAVAILABLE: { status: 503, message: "Service temporarily unavailable" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

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
  detail?: string;
}

/**
 * Our SQLSTATEs, raised by generated route functions and runtime helpers
 * (docs/architecture.md). Their MESSAGE is generator-owned, hence safe to show.
 */
export const OUR_SQLSTATES = {
  A0400: "BAD_REQUEST",
  A0401: "UNAUTHORIZED",
  A0403: "FORBIDDEN",
  A0404: "NOT_FOUND",
  A0409: "CONFLICT",
  A0422: "VALIDATION_ERROR",
} as const satisfies Record<string, ErrorCode>;

/**
 * Postgres's own SQLSTATEs that map to a client error. The mapper must build a safe message
 * (from the constraint or column name, never from Postgres's text); returning undefined falls
 * through to the generic 500.
 *
 * WRITE ROUTES: add here 23505 (unique_violation) and 23503 (foreign_key_violation) -> 409
 * CONFLICT, 23502 (not_null_violation) and 23514 (check_violation) -> 422 VALIDATION_ERROR.
 */
export const POSTGRES_SQLSTATES: Record<string, (err: PostgresErrorLike) => ApiError | undefined> = {};

/** Admin shutdown, crash shutdown, cannot connect now: the server is (re)starting. */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03"]);

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
 * connection failures (class 08, 57P01-57P03, socket errors) to 503; everything else to a 500
 * with the generic message. The original error is kept as `cause` for the log.
 */
export function fromPostgresError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const pgErr = (typeof err === "object" && err !== null ? err : {}) as PostgresErrorLike;
  const state = typeof pgErr.code === "string" ? pgErr.code : "";
  if (Object.hasOwn(OUR_SQLSTATES, state)) {
    const ours = OUR_SQLSTATES[state as keyof typeof OUR_SQLSTATES];
    const message = typeof pgErr.message === "string" && pgErr.message !== "" ? pgErr.message : undefined;
    return new ApiError(ours, message, undefined, { cause: err });
  }
  const mapped = Object.hasOwn(POSTGRES_SQLSTATES, state) ? POSTGRES_SQLSTATES[state]?.(pgErr) : undefined;
  if (mapped !== undefined) return mapped;
  if (state.startsWith("08") || UNAVAILABLE_SQLSTATES.has(state) || UNAVAILABLE_ERRNOS.has(state)) {
    return new ApiError("SERVICE_UNAVAILABLE", undefined, undefined, { cause: err });
  }
  return new ApiError("SERVER_ERROR", undefined, undefined, { cause: err });
}
