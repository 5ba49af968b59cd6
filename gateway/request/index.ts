// Request parameter coercion and validation (docs/schema.md "Request parameters"),
// compiled once per route when the schema loads. Per request there is one loop over the declared
// parameters and one over the keys the client sent; no schema is interpreted. See README.md here
// for the rules and decisions.

import type { CustomRoute, Route } from "../../generator/schema/types.ts";
import { ApiError, type ErrorDetails } from "../errors.ts";
import * as msg from "./messages.ts";
import { pagedDefs } from "./paged.ts";
import { type CompiledParam, compileParam, declaredDef } from "./param.ts";
import { Invalid } from "./values.ts";

export { PAGED_PARAMS, SORT_ORDERS } from "./paged.ts";

export interface RequestInput {
  /** Fastify's parsed query string: repeated keys give arrays. */
  query: Record<string, string | string[]>;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /** The parsed JSON body (undefined when none was sent); multipart fields for upload routes. */
  body: unknown;
}

export type RequestResult = { ok: true; params: Record<string, unknown> } | { ok: false; error: ApiError };

export type RequestValidator = (input: RequestInput) => RequestResult;

export interface RequestOptions {
  /** Largest `perPage` a paged route accepts. */
  maxPerPage: number;
  /**
   * The seam for custom routes with a `requestType` (a custom TypeScript type is the whole
   * input; validated by the custom-types work). Without it such a route does not compile.
   */
  requestType?: (route: CustomRoute) => RequestValidator;
}

/** GET and DELETE read the query string; POST, PUT and PATCH a JSON body. */
export function readsBody(route: Route): boolean {
  return route.method === "POST" || route.method === "PUT" || route.method === "PATCH";
}

/** At most this many problems are listed in a 422: a body of a million unknown keys is not echoed. */
export const MAX_DETAILS = 20;
/** Names the client chose (unknown keys) are echoed up to this many characters. */
export const MAX_DETAIL_KEY = 100;

/**
 * 422 VALIDATION_ERROR with per-parameter messages: the first MAX_DETAILS, each name cut to
 * MAX_DETAIL_KEY characters; the message says how many there were when some are left out.
 */
export function validationError(details: ErrorDetails): ApiError {
  const keys = Object.keys(details);
  if (keys.length <= MAX_DETAILS && keys.every((key) => key.length <= MAX_DETAIL_KEY)) {
    return clientError("VALIDATION_ERROR", undefined, details);
  }
  const shown: ErrorDetails = {};
  for (const key of keys.slice(0, MAX_DETAILS)) {
    const name = key.length > MAX_DETAIL_KEY ? `${key.slice(0, MAX_DETAIL_KEY)}...` : key;
    put(shown, name, details[key] as string);
  }
  const message =
    keys.length > MAX_DETAILS
      ? `Request validation failed: ${keys.length} problems, the first ${MAX_DETAILS} listed`
      : undefined;
  return clientError("VALIDATION_ERROR", message, shown);
}

/**
 * A client error without a stack trace: it is the client's mistake, the stack says nothing, and
 * capturing it is most of the cost of a rejected request.
 */
function clientError(
  code: "BAD_REQUEST" | "VALIDATION_ERROR",
  message?: string,
  details?: ErrorDetails,
): ApiError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ApiError(code, message, details);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface Slot extends CompiledParam {
  /** Also filled from the URL path. */
  inPath: boolean;
  /** `name[]` for array parameters read from text (`a[]=1&a[]=2`). */
  bracketKey: string | undefined;
}

const EMPTY: Record<string, never> = Object.freeze({}) as Record<string, never>;
const hasOwn = Object.hasOwn;

/** Sets a key, even `__proto__` (a plain assignment would change the object's prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Adds a problem to the (lazily created) details. */
function detail(details: ErrorDetails | undefined, key: string, message: string): ErrorDetails {
  const target = details ?? {};
  put(target, key, message);
  return target;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => item === b[i]);
}

function pathNames(path: string): Set<string> {
  return new Set(path.split("/").flatMap((segment) => (segment.startsWith(":") ? [segment.slice(1)] : [])));
}

/** Compiles the route's request validator. Throws (at schema load) on a route it cannot serve. */
export function compileRequest(route: Route, options: RequestOptions): RequestValidator {
  const label = `${route.method} ${route.path}`;
  if ("requestType" in route && route.requestType !== undefined) {
    if (!options.requestType)
      throw new Error(`${label}: requestType "${route.requestType}" needs a type validator`);
    return options.requestType(route);
  }

  const declared = new Map(route.request.map((p) => [p.name, p]));
  const paged = route.type === "PAGED" || route.type === "CUSTOM_PAGED";
  const defs = paged ? pagedDefs(declared, options.maxPerPage, label) : [];
  const implicit = new Set(defs.map((d) => d.name));
  for (const param of route.request) if (!implicit.has(param.name)) defs.push(declaredDef(param));

  const fromBody = readsBody(route);
  // Multipart fields (upload routes) are text, like a query string.
  const textSource = !fromBody || ("fileUploadType" in route && route.fileUploadType !== undefined);
  const inPath = pathNames(route.path);
  const slots: Slot[] = defs.map((def) => ({
    ...compileParam(def),
    inPath: inPath.has(def.name),
    bracketKey: textSource && def.isArray ? `${def.name}[]` : undefined,
  }));
  const known: Record<string, true> = Object.create(null);
  for (const slot of slots) {
    known[slot.name] = true;
    if (slot.bracketKey !== undefined) known[slot.bracketKey] = true;
  }

  return function validate(input: RequestInput): RequestResult {
    let src: Record<string, unknown>;
    if (fromBody) {
      const body = input.body;
      if (body === undefined) src = EMPTY;
      else if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return { ok: false, error: clientError("BAD_REQUEST", msg.BODY_NOT_OBJECT) };
      } else src = body as Record<string, unknown>;
    } else src = input.query ?? EMPTY;
    const path = input.params ?? EMPTY;
    const out: Record<string, unknown> = {};
    let details: ErrorDetails | undefined;

    for (let i = 0; i < slots.length; i++) {
      const p = slots[i] as Slot;
      const name = p.name;
      let raw = src[name];
      if (raw !== undefined && !hasOwn(src, name)) raw = undefined;
      if (p.bracketKey !== undefined && hasOwn(src, p.bracketKey)) {
        const extra = src[p.bracketKey];
        raw = raw === undefined ? extra : ([] as unknown[]).concat(raw, extra);
      }
      let value: unknown;
      const fromPath = p.inPath ? path[name] : undefined;
      if (fromPath !== undefined) {
        value = p.text(fromPath);
        if (raw !== undefined && !(value instanceof Invalid)) {
          const other = raw === null ? null : textSource ? p.text(raw) : p.json(raw);
          if (!same(other, value)) value = new Invalid(msg.PATH_CONFLICT);
        }
      } else if (raw === undefined) {
        if (p.fallback !== undefined) out[name] = p.fallback;
        else if (p.required) details = detail(details, name, msg.REQUIRED);
        continue;
      } else if (raw === null) {
        if (p.nullable) put(out, name, null);
        else details = detail(details, name, msg.NOT_NULL);
        continue;
      } else value = textSource ? p.text(raw) : p.json(raw);
      if (value instanceof Invalid) details = detail(details, name, value.message);
      else put(out, name, value);
    }

    for (const key in src) if (known[key] !== true) details = detail(details, key, msg.UNKNOWN);
    if (fromBody && input.query) {
      for (const key in input.query)
        details = detail(details, key, known[key] === true ? msg.IN_BODY : msg.UNKNOWN);
    }
    return details === undefined ? { ok: true, params: out } : { ok: false, error: validationError(details) };
  };
}
