// `<app>/generated/client.ts`: a typed HTTP client from the model (docs/generated-output.md
// "client.ts"). One method per route, named as its types are (`GET /user/:id` -> `getUserById`,
// typed `GetUserByIdRequest` -> `GetUserByIdResponse`), plus `request("METHOD /path", ...)` over
// the `Api` map. It builds the path, the query string (arrays as repeated keys, as the gateway
// reads them) and the JSON body, sends the bearer token, and returns the envelope, or throws an
// `ApiError` holding the error envelope. Nothing but the platform's `fetch` (browsers, Node 18+).
// Deterministic: the same schema gives the same text.

import { ERRORS } from "../model/errors.ts";
import type { Model, ModelRoute } from "../model/index.ts";
import { isStandardRoute } from "../schema/types.ts";
import { routeTypeNames } from "./types.ts";

const HEADER = `// Generated from api.schema.json by \`make migrate\` / \`make check\`: do not edit.
// A typed client for every route, using only \`fetch\` (docs/generated-output.md "client.ts").

import type * as T from "./types.ts";
`;

/** The part that is the same for every app: options, errors, request building. */
const RUNTIME = `
/** Every \`error.code\` the API answers with (docs/errors.md). */
export type ErrorCode = __ERROR_CODES__;

/** The body of every failed request. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: Record<string, string> };
}

/** A request the API refused or failed: the error envelope, the status and the request id. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, string> | undefined;
  /** The \`x-request-id\` the answer carried: quote it when reporting a problem. */
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
  /** Where the API is served, e.g. \`http://localhost:3000\` (routes add their full path). */
  baseUrl: string;
  /** A bearer token sent with every request; \`setToken\` changes it. */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A \`fetch\` to use instead of the global one. */
  fetch?: typeof fetch;
}

/** Per call: extra headers (e.g. \`Prefer: count=planned\` on PAGED routes) and an abort signal. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A route's request with its empty parts optional: \`{ path: {}, query: {} }\` may be left out. */
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
  const base = options.baseUrl.replace(/\\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function send<Out>(method: string, template: string, input: Parts = {}, call: CallOptions = {}): Promise<Out> {
    const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
      const value = input.path?.[name];
      if (value === undefined) throw new TypeError(\`\${method} \${template}: path parameter "\${name}" is missing\`);
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
    if (token !== undefined) headers.authorization = \`Bearer \${token}\`;
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
    const response = await doFetch(\`\${base}\${path}\${query ? \`?\${query}\` : ""}\`, {
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
        : { error: { code: "SERVER_ERROR" as const, message: \`HTTP \${response.status}\` } };
      throw new ApiError(response.status, envelope, requestId);
    }
    return parsed as Out;
  }

  return {
    /** Changes the bearer token of later requests (undefined: none). */
    setToken(next: string | undefined): void {
      token = next;
    },
    /** Any route by \`METHOD /path\`, typed through \`Api\`. */
    request<K extends keyof T.Api>(route: K, input: Input<T.Api[K]["request"]>, call?: CallOptions): Promise<T.Api[K]["response"]> {
      const space = (route as string).indexOf(" ");
      return send((route as string).slice(0, space), (route as string).slice(space + 1), input as Parts, call);
    },
__METHODS__
  };
}

export type Client = ReturnType<typeof createClient>;

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" && typeof error.message === "string";
}
`;

export function clientSource(model: Model): string {
  const names = routeTypeNames(model.routes);
  const methods = model.routes.map((route) => method(route, names.get(route) as string));
  const codes = Object.keys(ERRORS)
    .map((code) => JSON.stringify(code))
    .join(" | ");
  return `${HEADER}${RUNTIME.replace("__ERROR_CODES__", codes).replace("__METHODS__", methods.join("\n"))}`;
}

function method(route: ModelRoute, typeName: string): string {
  const name = typeName.charAt(0).toLowerCase() + typeName.slice(1);
  const request = `T.${typeName}Request`;
  const response = `T.${typeName}Response`;
  const r = route.route;
  const upload = !isStandardRoute(r) ? r.fileUploadType : undefined;
  const input = upload
    ? `UploadInput<${request}, ${upload === "SINGLE" ? "{ file: Blob }" : "{ files: Blob[] }"}>`
    : `Input<${request}>`;
  // The argument may be left out when nothing in it is required.
  const optional = !upload && !needsInput(route) ? "?" : "";
  const doc = `    /** ${route.key}${r.name ? `: ${r.name.replace(/\*\//g, "* /")}` : ""} */\n`;
  return `${doc}    ${name}: (input${optional}: ${input}, call?: CallOptions): Promise<${response}> =>
      send(${JSON.stringify(route.method)}, ${JSON.stringify(route.path)}, input as Parts, call),`;
}

/** A path parameter, a required parameter or a custom request type: the caller must pass input. */
function needsInput(route: ModelRoute): boolean {
  const r = route.route;
  if (route.pathParams.length > 0) return true;
  if (!isStandardRoute(r) && r.requestType) return true;
  return r.request.some((p) => p.required && !route.pathParams.includes(p.name));
}
