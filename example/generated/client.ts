// Generated from api.schema.json by `make migrate` / `make check`: do not edit.
// A typed client for every route, using only `fetch` (docs/generated-output.md "client.ts").

import type * as T from "./types.ts";

/** Every `error.code` the API answers with (docs/errors.md). */
export type ErrorCode = "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "REQUEST_TIMEOUT" | "CONFLICT" | "GONE" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "VALIDATION_ERROR" | "TOO_MANY_REQUESTS" | "HEADERS_TOO_LARGE" | "SERVER_ERROR" | "NOT_IMPLEMENTED" | "SERVICE_UNAVAILABLE" | "GATEWAY_TIMEOUT";

/** The body of every failed request. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: Record<string, string> };
}

/** A request the API refused or failed: the error envelope, the status and the request id. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, string> | undefined;
  /** The `x-request-id` the answer carried: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(status: number, envelope: ErrorEnvelope, requestId: string | undefined) {
    super(envelope.error.message);
    this.name = "ApiError";
    this.status = status;
    this.code = envelope.error.code;
    this.details = envelope.error.details;
    this.requestId = requestId;
  }
}

export interface ClientOptions {
  /** Where the API is served, e.g. `http://localhost:3000` (routes add their full path). */
  baseUrl: string;
  /** A bearer token sent with every request; `setToken` changes it. */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Per call: extra headers (e.g. `Prefer: count=planned` on PAGED routes) and an abort signal. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A route's request with its empty parts optional: `{ path: {}, query: {} }` may be left out. */
export type Input<R> = { [K in keyof R as {} extends R[K] ? never : K]: R[K] } & {
  [K in keyof R as {} extends R[K] ? K : never]?: R[K];
};

/** Upload routes: the request, and the file(s); sent as multipart/form-data, fields as text. */
export type UploadInput<R, F> = Input<R> & F;

interface Parts {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  file?: Blob;
  files?: Blob[];
}

export function createClient(options: ClientOptions) {
  let token = options.token;
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function send<Out>(method: string, template: string, input: Parts = {}, call: CallOptions = {}): Promise<Out> {
    const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined) throw new TypeError(`${method} ${template}: path parameter "${name}" is missing`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(input.query ?? {})) {
      // null and undefined are left out: a query string has no null.
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) search.append(key, String(item));
      }
    }
    const headers: Record<string, string> = { accept: "application/json", ...options.headers, ...call.headers };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (input.file !== undefined || input.files !== undefined) {
      const form = new FormData();
      for (const [key, value] of Object.entries((input.body ?? {}) as Record<string, unknown>)) {
        if (value !== undefined && value !== null) form.append(key, String(value));
      }
      if (input.file !== undefined) form.append("file", input.file);
      for (const file of input.files ?? []) form.append("files", file);
      body = form;
    } else if (input.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(input.body);
    }
    const query = search.toString();
    const response = await doFetch(`${base}${path}${query ? `?${query}` : ""}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(call.signal ? { signal: call.signal } : {}),
    });
    const text = await response.text();
    const requestId = response.headers.get("x-request-id") ?? undefined;
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const envelope = isErrorEnvelope(parsed)
        ? parsed
        : { error: { code: "SERVER_ERROR" as const, message: `HTTP ${response.status}` } };
      throw new ApiError(response.status, envelope, requestId);
    }
    return parsed as Out;
  }

  return {
    /** Changes the bearer token of later requests (undefined: none). */
    setToken(next: string | undefined): void {
      token = next;
    },
    /** Any route by `METHOD /path`, typed through `Api`. */
    request<K extends keyof T.Api>(route: K, input: Input<T.Api[K]["request"]>, call?: CallOptions): Promise<T.Api[K]["response"]> {
      const space = (route as string).indexOf(" ");
      return send((route as string).slice(0, space), (route as string).slice(space + 1), input as Parts, call);
    },
    /** POST /api/v1/user/login: Log in */
    postUserLogin: (input: Input<T.PostUserLoginRequest>, call?: CallOptions): Promise<T.PostUserLoginResponse> =>
      send("POST", "/api/v1/user/login", input as Parts, call),
    /** POST /api/v1/user/refresh-token: Refresh a token */
    postUserRefreshToken: (input: Input<T.PostUserRefreshTokenRequest>, call?: CallOptions): Promise<T.PostUserRefreshTokenResponse> =>
      send("POST", "/api/v1/user/refresh-token", input as Parts, call),
    /** GET /api/v1/company/public/:id: Public company profile */
    getCompanyPublicById: (input: Input<T.GetCompanyPublicByIdRequest>, call?: CallOptions): Promise<T.GetCompanyPublicByIdResponse> =>
      send("GET", "/api/v1/company/public/:id", input as Parts, call),
    /** GET /api/v1/user/me: Get my user */
    getUserMe: (input?: Input<T.GetUserMeRequest>, call?: CallOptions): Promise<T.GetUserMeResponse> =>
      send("GET", "/api/v1/user/me", input as Parts, call),
    /** PATCH /api/v1/user/me: Update my user */
    patchUserMe: (input?: Input<T.PatchUserMeRequest>, call?: CallOptions): Promise<T.PatchUserMeResponse> =>
      send("PATCH", "/api/v1/user/me", input as Parts, call),
    /** GET /api/v1/user/me/session: My session */
    getUserMeSession: (input?: Input<T.GetUserMeSessionRequest>, call?: CallOptions): Promise<T.GetUserMeSessionResponse> =>
      send("GET", "/api/v1/user/me/session", input as Parts, call),
    /** POST /api/v1/user/me/avatar: Upload my avatar */
    postUserMeAvatar: (input: UploadInput<T.PostUserMeAvatarRequest, { file: Blob }>, call?: CallOptions): Promise<T.PostUserMeAvatarResponse> =>
      send("POST", "/api/v1/user/me/avatar", input as Parts, call),
    /** GET /api/v1/company/me: Get my company */
    getCompanyMe: (input?: Input<T.GetCompanyMeRequest>, call?: CallOptions): Promise<T.GetCompanyMeResponse> =>
      send("GET", "/api/v1/company/me", input as Parts, call),
    /** GET /api/v1/user: List my team */
    getUser: (input?: Input<T.GetUserRequest>, call?: CallOptions): Promise<T.GetUserResponse> =>
      send("GET", "/api/v1/user", input as Parts, call),
    /** GET /api/v1/user/search: Search my team */
    getUserSearch: (input: Input<T.GetUserSearchRequest>, call?: CallOptions): Promise<T.GetUserSearchResponse> =>
      send("GET", "/api/v1/user/search", input as Parts, call),
    /** PATCH /api/v1/user/:id: Change a user's role or access */
    patchUserById: (input: Input<T.PatchUserByIdRequest>, call?: CallOptions): Promise<T.PatchUserByIdResponse> =>
      send("PATCH", "/api/v1/user/:id", input as Parts, call),
    /** GET /api/v1/project: List projects */
    getProject: (input?: Input<T.GetProjectRequest>, call?: CallOptions): Promise<T.GetProjectResponse> =>
      send("GET", "/api/v1/project", input as Parts, call),
    /** GET /api/v1/project/:id: Get a project */
    getProjectById: (input: Input<T.GetProjectByIdRequest>, call?: CallOptions): Promise<T.GetProjectByIdResponse> =>
      send("GET", "/api/v1/project/:id", input as Parts, call),
    /** POST /api/v1/project: Create a project */
    postProject: (input: Input<T.PostProjectRequest>, call?: CallOptions): Promise<T.PostProjectResponse> =>
      send("POST", "/api/v1/project", input as Parts, call),
    /** PATCH /api/v1/project/:id: Update a project */
    patchProjectById: (input: Input<T.PatchProjectByIdRequest>, call?: CallOptions): Promise<T.PatchProjectByIdResponse> =>
      send("PATCH", "/api/v1/project/:id", input as Parts, call),
    /** DELETE /api/v1/project/:id: Delete a project */
    deleteProjectById: (input: Input<T.DeleteProjectByIdRequest>, call?: CallOptions): Promise<T.DeleteProjectByIdResponse> =>
      send("DELETE", "/api/v1/project/:id", input as Parts, call),
    /** GET /api/v1/task/mine: My tasks */
    getTaskMine: (input?: Input<T.GetTaskMineRequest>, call?: CallOptions): Promise<T.GetTaskMineResponse> =>
      send("GET", "/api/v1/task/mine", input as Parts, call),
    /** GET /api/v1/task/assigned-to-me: My tasks (deprecated) */
    getTaskAssignedToMe: (input?: Input<T.GetTaskAssignedToMeRequest>, call?: CallOptions): Promise<T.GetTaskAssignedToMeResponse> =>
      send("GET", "/api/v1/task/assigned-to-me", input as Parts, call),
    /** GET /api/v1/task/search: Search tasks */
    getTaskSearch: (input: Input<T.GetTaskSearchRequest>, call?: CallOptions): Promise<T.GetTaskSearchResponse> =>
      send("GET", "/api/v1/task/search", input as Parts, call),
    /** GET /api/v1/task/by-priority: Open tasks by priority */
    getTaskByPriority: (input: Input<T.GetTaskByPriorityRequest>, call?: CallOptions): Promise<T.GetTaskByPriorityResponse> =>
      send("GET", "/api/v1/task/by-priority", input as Parts, call),
    /** GET /api/v1/task/unassigned: Unassigned open tasks */
    getTaskUnassigned: (input?: Input<T.GetTaskUnassignedRequest>, call?: CallOptions): Promise<T.GetTaskUnassignedResponse> =>
      send("GET", "/api/v1/task/unassigned", input as Parts, call),
    /** GET /api/v1/task/overdue: Overdue tasks */
    getTaskOverdue: (input?: Input<T.GetTaskOverdueRequest>, call?: CallOptions): Promise<T.GetTaskOverdueResponse> =>
      send("GET", "/api/v1/task/overdue", input as Parts, call),
    /** GET /api/v1/task/large: Large open tasks */
    getTaskLarge: (input?: Input<T.GetTaskLargeRequest>, call?: CallOptions): Promise<T.GetTaskLargeResponse> =>
      send("GET", "/api/v1/task/large", input as Parts, call),
    /** GET /api/v1/task/late-for-project: Tasks due after their project */
    getTaskLateForProject: (input?: Input<T.GetTaskLateForProjectRequest>, call?: CallOptions): Promise<T.GetTaskLateForProjectResponse> =>
      send("GET", "/api/v1/task/late-for-project", input as Parts, call),
    /** GET /api/v1/task/stats: Task counts per project */
    getTaskStats: (input?: Input<T.GetTaskStatsRequest>, call?: CallOptions): Promise<T.GetTaskStatsResponse> =>
      send("GET", "/api/v1/task/stats", input as Parts, call),
    /** GET /api/v1/task/:id: Get a task */
    getTaskById: (input: Input<T.GetTaskByIdRequest>, call?: CallOptions): Promise<T.GetTaskByIdResponse> =>
      send("GET", "/api/v1/task/:id", input as Parts, call),
    /** POST /api/v1/task: Create a task */
    postTask: (input: Input<T.PostTaskRequest>, call?: CallOptions): Promise<T.PostTaskResponse> =>
      send("POST", "/api/v1/task", input as Parts, call),
    /** PATCH /api/v1/task/:id: Update a task */
    patchTaskById: (input: Input<T.PatchTaskByIdRequest>, call?: CallOptions): Promise<T.PatchTaskByIdResponse> =>
      send("PATCH", "/api/v1/task/:id", input as Parts, call),
    /** DELETE /api/v1/task/:id: Delete a task */
    deleteTaskById: (input: Input<T.DeleteTaskByIdRequest>, call?: CallOptions): Promise<T.DeleteTaskByIdResponse> =>
      send("DELETE", "/api/v1/task/:id", input as Parts, call),
    /** POST /api/v1/task/:id/attachments: Attach files to a task */
    postTaskByIdAttachments: (input: UploadInput<T.PostTaskByIdAttachmentsRequest, { files: Blob[] }>, call?: CallOptions): Promise<T.PostTaskByIdAttachmentsResponse> =>
      send("POST", "/api/v1/task/:id/attachments", input as Parts, call),
    /** POST /api/v1/comment: Comment on a task */
    postComment: (input: Input<T.PostCommentRequest>, call?: CallOptions): Promise<T.PostCommentResponse> =>
      send("POST", "/api/v1/comment", input as Parts, call),
    /** DELETE /api/v1/comment/:id: Delete my comment */
    deleteCommentById: (input: Input<T.DeleteCommentByIdRequest>, call?: CallOptions): Promise<T.DeleteCommentByIdResponse> =>
      send("DELETE", "/api/v1/comment/:id", input as Parts, call),
    /** GET /api/v1/tag: List tags */
    getTag: (input?: Input<T.GetTagRequest>, call?: CallOptions): Promise<T.GetTagResponse> =>
      send("GET", "/api/v1/tag", input as Parts, call),
    /** GET /api/v1/invoice: List invoices */
    getInvoice: (input?: Input<T.GetInvoiceRequest>, call?: CallOptions): Promise<T.GetInvoiceResponse> =>
      send("GET", "/api/v1/invoice", input as Parts, call),
    /** POST /api/v1/report/summary: Task summary report */
    postReportSummary: (input: Input<T.PostReportSummaryRequest>, call?: CallOptions): Promise<T.PostReportSummaryResponse> =>
      send("POST", "/api/v1/report/summary", input as Parts, call),
  };
}

export type Client = ReturnType<typeof createClient>;

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}
