// Builders for request-validation tests: a route with just what compileRequest reads.

import { compileRequest, type RequestInput, type RequestResult } from "../../gateway/request/index.ts";
import type {
  CustomRoute,
  HttpMethod,
  RequestParam,
  Route,
  StandardRoute,
  Validator,
} from "../../generator/schema/types.ts";

export function standard(overrides: Partial<StandardRoute> = {}): StandardRoute {
  return {
    name: "test",
    description: "",
    method: "GET",
    path: "/thing",
    type: "ARRAY",
    roles: [],
    scopes: [],
    request: [],
    table: "thing",
    joins: [],
    where: [],
    assignments: [],
    response: [],
    ...overrides,
  };
}

export function custom(overrides: Partial<CustomRoute> = {}): CustomRoute {
  return {
    name: "test",
    description: "",
    method: "POST",
    path: "/thing",
    type: "CUSTOM_ONE",
    roles: [],
    scopes: [],
    request: [],
    responseType: "boolean",
    ...overrides,
  };
}

interface ParamOptions {
  required?: boolean;
  isNullable?: boolean;
  oneOf?: (string | number | boolean)[];
  min?: number;
  max?: number;
}

/** A request parameter: `param("id", "number", { required: true, min: 1 })`. */
export function param(name: string, type?: string, options: ParamOptions = {}): RequestParam {
  const validator: Validator[] = [];
  if (type !== undefined) validator.push({ type: "TYPE_CHECK", value: type });
  if (options.oneOf) validator.push({ type: "ONE_OF", value: options.oneOf });
  if (options.min !== undefined) validator.push({ type: "MIN", value: options.min });
  if (options.max !== undefined) validator.push({ type: "MAX", value: options.max });
  const p: RequestParam = { name, required: options.required ?? false, validator };
  if (options.isNullable !== undefined) p.isNullable = options.isNullable;
  return p;
}

export type Validate = (input?: Partial<RequestInput>) => RequestResult;

/** Compiles the route once; the returned function fills missing input parts with empties. */
export function compile(route: Route, maxPerPage = 100): Validate {
  const validate = compileRequest(route, { maxPerPage });
  return (input = {}) => validate({ query: {}, params: {}, body: undefined, ...input });
}

/** A GET route with these parameters, validating query strings. */
export function query(...request: RequestParam[]): (q: Record<string, string | string[]>) => RequestResult {
  const validate = compile(standard({ request }));
  return (q) => validate({ query: q });
}

/** A route with this method reading a JSON body. */
export function body(method: HttpMethod, ...request: RequestParam[]): (b: unknown) => RequestResult {
  const validate = compile(standard({ method, type: "ONE", request }));
  return (b) => validate({ body: b });
}

/** `{ok, params}` or `{ok, status, code, message, details}`: easy to compare with t.same. */
export function outcome(result: RequestResult): unknown {
  if (result.ok) return { ok: true, params: result.params };
  const { status, code, message, details } = result.error;
  return details === undefined
    ? { ok: false, status, code, message }
    : { ok: false, status, code, message, details };
}

/** The details of a 422, or a marker when the result is something else. */
export function details(result: RequestResult): unknown {
  if (result.ok) return { unexpectedlyOk: result.params };
  if (result.error.code !== "VALIDATION_ERROR") return { unexpectedCode: result.error.code };
  return result.error.details;
}

/** The params of a success, or the error's details when it failed. */
export function params(result: RequestResult): unknown {
  return result.ok ? result.params : { failed: result.error.code, details: result.error.details };
}
