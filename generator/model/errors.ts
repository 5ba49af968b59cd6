// The error registry, one for the generator and the gateway (docs/architecture.md "Principles":
// errors are a registry). Each code has its HTTP status and default message; the codes generated
// SQL can raise have our own SQLSTATE, whose MESSAGE is generator-owned and therefore safe to
// show. docs/errors.md and docs/architecture.md's SQLSTATE table are checked against this file
// (test/gateway/errorsDoc.test.ts).

export const ERRORS = {
  BAD_REQUEST: { status: 400, message: "Malformed request" },
  UNAUTHORIZED: { status: 401, message: "Authentication required" },
  FORBIDDEN: { status: 403, message: "Access denied" },
  NOT_FOUND: { status: 404, message: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed" },
  REQUEST_TIMEOUT: { status: 408, message: "The request was not received in time" },
  CONFLICT: { status: 409, message: "The request conflicts with the current state of the data" },
  GONE: { status: 410, message: "The requested events are no longer kept" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "Request body is too large" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Content-Type must be application/json" },
  VALIDATION_ERROR: { status: 422, message: "Request validation failed" },
  TOO_MANY_REQUESTS: { status: 429, message: "Too many requests" },
  HEADERS_TOO_LARGE: { status: 431, message: "Request headers are too large" },
  SERVER_ERROR: { status: 500, message: "An unexpected error occurred" },
  NOT_IMPLEMENTED: { status: 501, message: "This route is not implemented" },
  SERVICE_UNAVAILABLE: { status: 503, message: "Service temporarily unavailable" },
  GATEWAY_TIMEOUT: { status: 504, message: "The database did not answer in time" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

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
  A0410: "GONE",
  A0422: "VALIDATION_ERROR",
} as const satisfies Record<string, ErrorCode>;

export type OurCode = (typeof OUR_SQLSTATES)[keyof typeof OUR_SQLSTATES];

/** The SQLSTATE generated SQL raises for one of our codes (the gateway maps it back). */
export function sqlstateOf(code: OurCode): string {
  const found = Object.entries(OUR_SQLSTATES).find(([, c]) => c === code);
  if (!found) throw new Error(`${code} has no SQLSTATE of ours`);
  return found[0];
}
