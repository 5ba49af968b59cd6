// A route's `rateLimit` (our extension, docs/schema.md "Rate limits"): at most `max` requests per
// `timeWindow` for each value of each key. Normalised here (the window in milliseconds), checked
// in `checkRateLimits`; the gateway applies it (gateway/http/rateLimit.ts).

import type { Context } from "./context.ts";
import { at } from "./paths.ts";
import { arr, obj, strs } from "./read.ts";
import { didYouMean } from "./suggest.ts";
import { isStandardRoute, type RateLimit, type Route } from "./types.ts";

const UNITS: Record<string, number> = {
  ms: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

/** Longest window: a day (a longer one is a ban, which this is not meant to be). */
export const MAX_WINDOW_MS = 86_400_000;
export const MAX_REQUESTS = 1_000_000;

/** `"1 minute"`, `"30s"`, `"500 ms"` or a number of milliseconds; undefined when malformed. */
export function parseTimeWindow(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$/.exec(value);
  const unit = m ? UNITS[(m[2] as string).toLowerCase()] : undefined;
  return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : undefined;
}

/** Shape errors are the structure check's: this only falls back to harmless values. */
export function rateLimit(raw: unknown): RateLimit {
  const r = obj(raw);
  return {
    max: typeof r.max === "number" ? r.max : 0,
    timeWindow: parseTimeWindow(r.timeWindow) ?? 0,
    keys: strs(r.keys),
  };
}

const KEY = /^(ip|(body|query|params)\.[A-Za-z_][A-Za-z0-9_]*)$/;

export function checkRateLimits(ctx: Context): void {
  const raw = arr(obj(ctx.raw).endpoints);
  ctx.schema.endpoints.forEach((group, gi) => {
    group.routes.forEach((route, ri) => {
      if (!route.rateLimit) return;
      const rawLimit = obj(obj(arr(obj(raw[gi]).routes)[ri]).rateLimit);
      checkRateLimit(ctx, route, route.rateLimit, rawLimit, `endpoints[${gi}].routes[${ri}].rateLimit`);
    });
  });
}

function checkRateLimit(
  ctx: Context,
  route: Route,
  limit: RateLimit,
  raw: Record<string, unknown>,
  path: string,
): void {
  const { diag } = ctx;
  if (typeof raw.max === "number" && (limit.max < 1 || limit.max > MAX_REQUESTS)) {
    diag.error(at(path, "max"), `expected a whole number from 1 to ${MAX_REQUESTS}, got ${limit.max}`);
  }
  if (typeof raw.timeWindow === "string" || typeof raw.timeWindow === "number") {
    if (parseTimeWindow(raw.timeWindow) === undefined) {
      diag.error(
        at(path, "timeWindow"),
        `expected a duration like "1 minute", "30 seconds", "500 ms" or a number of milliseconds, got ${JSON.stringify(raw.timeWindow)}`,
      );
    } else if (limit.timeWindow < 1 || limit.timeWindow > MAX_WINDOW_MS) {
      diag.error(at(path, "timeWindow"), "expected a duration from 1 millisecond to 1 day");
    }
  }
  if (Array.isArray(raw.keys) && limit.keys.length === 0) {
    diag.error(at(path, "keys"), `expected a non-empty list of keys, like ["ip", "body.username"]`);
  }
  const pathParams = route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : []));
  const requestNames = route.request.map((p) => p.name);
  const seen = new Set<string>();
  limit.keys.forEach((key, i) => {
    const kp = at(at(path, "keys"), i);
    if (seen.has(key)) diag.error(kp, `key "${key}" is listed more than once`);
    seen.add(key);
    if (!KEY.test(key)) {
      diag.error(
        kp,
        `expected "ip", "body.<field>", "query.<field>" or "params.<name>", got ${JSON.stringify(key)}`,
      );
      return;
    }
    const [where, name = ""] = key.split(".") as [string, string?];
    if (where === "params" && !pathParams.includes(name)) {
      diag.error(kp, `"${name}" is not a parameter of the path ${route.path}${didYouMean(name, pathParams)}`);
    } else if (where === "body" && route.method === "GET") {
      diag.error(kp, "a GET request has no body: use query.<field>");
    } else if (where === "body" && !isStandardRoute(route) && route.fileUploadType !== undefined) {
      diag.error(
        kp,
        "an upload route's body is multipart, read after the limit is checked: use ip or params",
      );
    } else if (
      (where === "body" || where === "query") &&
      (isStandardRoute(route) || route.requestType === undefined) &&
      !requestNames.includes(name)
    ) {
      // With a requestType the body's fields are the type's, which this check does not read.
      diag.error(kp, `"${name}" is not a request parameter of this route${didYouMean(name, requestNames)}`);
    }
  });
}
