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
    /** POST /api/v1/user/me/avatar: /user/me/avatar */
    postUserMeAvatar: (input: UploadInput<T.PostUserMeAvatarRequest, { file: Blob }>, call?: CallOptions): Promise<T.PostUserMeAvatarResponse> =>
      send("POST", "/api/v1/user/me/avatar", input as Parts, call),
    /** GET /api/v1/user/me: get my user */
    getUserMe: (input?: Input<T.GetUserMeRequest>, call?: CallOptions): Promise<T.GetUserMeResponse> =>
      send("GET", "/api/v1/user/me", input as Parts, call),
    /** POST /api/v1/user/login: Login */
    postUserLogin: (input: Input<T.PostUserLoginRequest>, call?: CallOptions): Promise<T.PostUserLoginResponse> =>
      send("POST", "/api/v1/user/login", input as Parts, call),
    /** POST /api/v1/user/refresh-token: Refreshes a Token */
    postUserRefreshToken: (input?: Input<T.PostUserRefreshTokenRequest>, call?: CallOptions): Promise<T.PostUserRefreshTokenResponse> =>
      send("POST", "/api/v1/user/refresh-token", input as Parts, call),
    /** POST /api/v1/user/change-email: Change Email Request */
    postUserChangeEmail: (input: Input<T.PostUserChangeEmailRequest>, call?: CallOptions): Promise<T.PostUserChangeEmailResponse> =>
      send("POST", "/api/v1/user/change-email", input as Parts, call),
    /** PATCH /api/v1/user/change-email/commit: Commit Email Change */
    patchUserChangeEmailCommit: (input: Input<T.PatchUserChangeEmailCommitRequest>, call?: CallOptions): Promise<T.PatchUserChangeEmailCommitResponse> =>
      send("PATCH", "/api/v1/user/change-email/commit", input as Parts, call),
    /** POST /api/v1/user: Create User */
    postUser: (input: Input<T.PostUserRequest>, call?: CallOptions): Promise<T.PostUserResponse> =>
      send("POST", "/api/v1/user", input as Parts, call),
    /** PATCH /api/v1/user: Update User */
    patchUser: (input: Input<T.PatchUserRequest>, call?: CallOptions): Promise<T.PatchUserResponse> =>
      send("PATCH", "/api/v1/user", input as Parts, call),
    /** POST /api/v1/user/logout: Logout */
    postUserLogout: (input?: Input<T.PostUserLogoutRequest>, call?: CallOptions): Promise<T.PostUserLogoutResponse> =>
      send("POST", "/api/v1/user/logout", input as Parts, call),
    /** POST /api/v1/user/check-available: Check Available */
    postUserCheckAvailable: (input?: Input<T.PostUserCheckAvailableRequest>, call?: CallOptions): Promise<T.PostUserCheckAvailableResponse> =>
      send("POST", "/api/v1/user/check-available", input as Parts, call),
    /** POST /api/v1/user/verify-password: Verify User Password */
    postUserVerifyPassword: (input: Input<T.PostUserVerifyPasswordRequest>, call?: CallOptions): Promise<T.PostUserVerifyPasswordResponse> =>
      send("POST", "/api/v1/user/verify-password", input as Parts, call),
    /** POST /api/v1/user/resend-verify-email: Resend Verify Email Pin */
    postUserResendVerifyEmail: (input?: Input<T.PostUserResendVerifyEmailRequest>, call?: CallOptions): Promise<T.PostUserResendVerifyEmailResponse> =>
      send("POST", "/api/v1/user/resend-verify-email", input as Parts, call),
    /** POST /api/v1/user/forgot-password: Forgot Password */
    postUserForgotPassword: (input: Input<T.PostUserForgotPasswordRequest>, call?: CallOptions): Promise<T.PostUserForgotPasswordResponse> =>
      send("POST", "/api/v1/user/forgot-password", input as Parts, call),
    /** POST /api/v1/user/change-password: Change Password */
    postUserChangePassword: (input: Input<T.PostUserChangePasswordRequest>, call?: CallOptions): Promise<T.PostUserChangePasswordResponse> =>
      send("POST", "/api/v1/user/change-password", input as Parts, call),
    /** POST /api/v1/user/reset-password: Reset Password */
    postUserResetPassword: (input: Input<T.PostUserResetPasswordRequest>, call?: CallOptions): Promise<T.PostUserResetPasswordResponse> =>
      send("POST", "/api/v1/user/reset-password", input as Parts, call),
    /** POST /api/v1/user/verify-email: Verify Email */
    postUserVerifyEmail: (input: Input<T.PostUserVerifyEmailRequest>, call?: CallOptions): Promise<T.PostUserVerifyEmailResponse> =>
      send("POST", "/api/v1/user/verify-email", input as Parts, call),
    /** POST /api/v1/user/delete/me: Delete Me */
    postUserDeleteMe: (input: Input<T.PostUserDeleteMeRequest>, call?: CallOptions): Promise<T.PostUserDeleteMeResponse> =>
      send("POST", "/api/v1/user/delete/me", input as Parts, call),
    /** PATCH /api/v1/user/me: Update my user */
    patchUserMe: (input?: Input<T.PatchUserMeRequest>, call?: CallOptions): Promise<T.PatchUserMeResponse> =>
      send("PATCH", "/api/v1/user/me", input as Parts, call),
    /** GET /api/v1/weather: Get Weather Data */
    getWeather: (input: Input<T.GetWeatherRequest>, call?: CallOptions): Promise<T.GetWeatherResponse> =>
      send("GET", "/api/v1/weather", input as Parts, call),
    /** GET /api/v1/user/all: like test */
    getUserAll: (input?: Input<T.GetUserAllRequest>, call?: CallOptions): Promise<T.GetUserAllResponse> =>
      send("GET", "/api/v1/user/all", input as Parts, call),
    /** GET /api/v1/order/all: Orders With Joins */
    getOrderAll: (input?: Input<T.GetOrderAllRequest>, call?: CallOptions): Promise<T.GetOrderAllResponse> =>
      send("GET", "/api/v1/order/all", input as Parts, call),
    /** GET /api/v1/user/before: Users Before Join */
    getUserBefore: (input: Input<T.GetUserBeforeRequest>, call?: CallOptions): Promise<T.GetUserBeforeResponse> =>
      send("GET", "/api/v1/user/before", input as Parts, call),
    /** GET /api/v1/user/all/orders: Get All Users With Order Count */
    getUserAllOrders: (input?: Input<T.GetUserAllOrdersRequest>, call?: CallOptions): Promise<T.GetUserAllOrdersResponse> =>
      send("GET", "/api/v1/user/all/orders", input as Parts, call),
    /** GET /api/v1/user/with-orders: Users With Orders */
    getUserWithOrders: (input?: Input<T.GetUserWithOrdersRequest>, call?: CallOptions): Promise<T.GetUserWithOrdersResponse> =>
      send("GET", "/api/v1/user/with-orders", input as Parts, call),
    /** GET /api/v1/item/all: Get All Items with Orders Joined */
    getItemAll: (input?: Input<T.GetItemAllRequest>, call?: CallOptions): Promise<T.GetItemAllResponse> =>
      send("GET", "/api/v1/item/all", input as Parts, call),
    /** GET /api/v1/user/my-user: Get My User (Deprecated) */
    getUserMyUser: (input?: Input<T.GetUserMyUserRequest>, call?: CallOptions): Promise<T.GetUserMyUserResponse> =>
      send("GET", "/api/v1/user/my-user", input as Parts, call),
    /** GET /api/v1/user/paged: Get Users Paged */
    getUserPaged: (input?: Input<T.GetUserPagedRequest>, call?: CallOptions): Promise<T.GetUserPagedResponse> =>
      send("GET", "/api/v1/user/paged", input as Parts, call),
  };
}

export type Client = ReturnType<typeof createClient>;

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}
