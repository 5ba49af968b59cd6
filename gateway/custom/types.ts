// The custom-handler contract (docs/handlers.md, "The contract"): what a handler method receives and how
// it answers. App handler files import these types.

import type { GlobalValue } from "../auth/types.ts";
import type { ErrorCode, ErrorDetails } from "../errors.ts";

/** An uploaded file, streamed to a temporary file that is removed after the request. */
export interface UploadedFile {
  /** The multipart field: `file` (SINGLE) or `files` (MULTIPLE). */
  fieldName: string;
  /** The client's file name (base name only; not trusted for paths). */
  fileName: string;
  /** The client's content type (not checked: sniff the content if it matters). */
  contentType: string;
  /** Bytes received. */
  size: number;
  /** The temporary file; copy it somewhere to keep it. */
  path: string;
}

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

/**
 * SQL as the caller: one transaction on a gateway connection (role api_gateway), with the
 * caller's `api.ctx` set and `search_path` = `api`, so `FROM "task"` reads the API view of
 * `task`: row policies and column rules hold exactly as for standard routes. Read-only apart
 * from `call`: the gateway role may SELECT the views and EXECUTE route functions, nothing else.
 */
export interface CallerDb {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
  /**
   * The request's one and only statement, in a transaction of its own: the caller's context, the
   * statement and the commit in one round trip (`query` takes two: the transaction's opening with
   * the statement, then COMMIT when the handler answers). It commits before it returns, whatever
   * the handler answers next, and it must be the request's only use of `req.db`: any other
   * (before or after) throws.
   */
  queryAlone<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
  /**
   * Runs a standard route of this schema as the caller (same route check, same route function,
   * same transaction), e.g. `call("PATCH", "/api/v1/task/:id", { id: 3, done: true })`; returns
   * the route's `data`. Failures are ApiErrors (403, 404, 409, 422...), which a handler may let
   * through: they answer with their own envelope.
   */
  call(method: string, path: string, params?: Record<string, unknown>): Promise<unknown>;
}

/**
 * Privileged SQL for trusted server code only (login looking up a password hash): the
 * migrating connection, which bypasses the API layer, row policies and column rules. Never pass
 * client input into its SQL text, and scope every statement yourself.
 */
export interface ServiceDb {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
}

export interface HandlerRequest<Data = Record<string, unknown>> {
  /** Validated request parameters, or the whole `requestType` object, validated. */
  data: Data;
  /** Path parameters as sent (also in `data` after validation). */
  params: Record<string, string>;
  /** The caller's global parameters plus `role` and `scopes` (anonymous: role null, no scopes). */
  global: { role: string | null; scopes: string[] } & Record<string, GlobalValue | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** The request id (also in the log and the `x-request-id` header). */
  id: string;
  /** SINGLE upload routes: the `file` part. */
  file?: UploadedFile;
  /** MULTIPLE upload routes: the `files` parts. */
  files?: UploadedFile[];
  db: CallerDb;
  service: ServiceDb;
  log: {
    info(obj: unknown, msg?: string): void;
    warn(obj: unknown, msg?: string): void;
    error(obj: unknown, msg?: string): void;
  };
}

export interface HandlerResponse {
  /** `{data: payload}`; CUSTOM_PAGED routes pass `total` too: `{data, total}`. */
  sendData(payload: unknown, total?: number): void;
  /** The error envelope with the code's status from the registry. */
  sendError(code: ErrorCode, message?: string, details?: ErrorDetails): void;
  /** Whether the handler has answered. */
  readonly sent: boolean;
}

export type HandlerMethod = (req: HandlerRequest, res: HandlerResponse) => unknown;

/** What a handler class's constructor receives. */
export interface HandlerContext {
  /** The application directory (absolute). */
  appDir: string;
}
