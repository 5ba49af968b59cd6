// Rate limits (docs/schema.md "Rate limits"): a route's `rateLimit` allows `max` requests per
// `timeWindow` for each value of each of its keys (`ip`, `body.username`, ...), one counter per
// key, so a login is limited per address AND per submitted username: an attacker can neither try
// many passwords for one account from many addresses nor many accounts from one address. Routes
// without their own limit get RATE_LIMIT_MAX per RATE_LIMIT_WINDOW per IP when that is set.
//
// Counting is @fastify/rate-limit's (its `createRateLimit`, one limiter per route and key), with
// its stores: in memory by default, or Redis / any store class passed to buildGateway, so several
// instances share counters. The check runs in preHandler: after the body is parsed (body keys
// need it) and before anything of the route runs, so a refused request costs no database call and
// no password hash. A refusal is 429 TOO_MANY_REQUESTS with Retry-After (seconds) in the standard
// envelope. Every key of the request is counted, even once one is over: attempts keep counting.

import { createHash } from "node:crypto";
import rateLimitPlugin, { type FastifyRateLimitStoreCtor, normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { AppError } from "../../app/errors.ts";
import { parseTimeWindow } from "../../generator/schema/rateLimit.ts";
import type { RateLimit, Schema } from "../../generator/schema/types.ts";
import { ApiError } from "../errors.ts";

export interface RateLimitSettings {
  /** A per-IP limit for every schema route without its own `rateLimit` (RATE_LIMIT_MAX/_WINDOW). */
  defaultLimit?: RateLimit;
  /** A Redis client (ioredis) to keep counters in, shared by several gateway instances. */
  redis?: unknown;
  /** Or any @fastify/rate-limit store class. Neither: in memory, per process. */
  store?: FastifyRateLimitStoreCtor;
}

/** RATE_LIMIT_MAX (requests) per RATE_LIMIT_WINDOW (default "1 minute") per IP; unset: none. */
export function readRateLimitConfig(
  env: NodeJS.ProcessEnv = process.env,
): Pick<RateLimitSettings, "defaultLimit"> {
  const max = env.RATE_LIMIT_MAX;
  const window = env.RATE_LIMIT_WINDOW;
  if (max === undefined || max === "") {
    if (window) throw new AppError("RATE_LIMIT_WINDOW is set without RATE_LIMIT_MAX");
    return {};
  }
  if (!/^\d+$/.test(max) || Number(max) < 1 || Number(max) > 1_000_000) {
    throw new AppError(`RATE_LIMIT_MAX must be a whole number from 1 to 1000000 (got "${max}")`);
  }
  const ms = window ? parseTimeWindow(window) : 60_000;
  if (ms === undefined || ms < 1 || ms > 86_400_000) {
    throw new AppError(
      `RATE_LIMIT_WINDOW must be a duration like "1 minute" or "30 seconds", up to a day (got "${window}")`,
    );
  }
  return { defaultLimit: { max: Number(max), timeWindow: ms, keys: ["ip"] } };
}

type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;

/** Where the key's value is read; undefined when the request has none (that counter is skipped). */
function keyValue(request: FastifyRequest, key: string): string | undefined {
  if (key === "ip") return normalizeIP(request.ip);
  const [where, name] = key.split(".") as [string, string];
  const source = (where === "body" ? request.body : where === "query" ? request.query : request.params) as
    | Record<string, unknown>
    | undefined;
  const value = source && typeof source === "object" ? source[name] : undefined;
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  // Case and surrounding spaces do not make another account (login compares lower(email)); a
  // digest keeps the store's keys short and free of what clients typed.
  const text = String(value).trim().toLowerCase();
  return createHash("sha256").update(text).digest("base64url").slice(0, 32);
}

/**
 * Registers the plugin and attaches the check to every schema route that has a limit. Call it
 * before the routes are declared (it watches them being added).
 */
export function registerRateLimits(
  app: FastifyInstance,
  schema: Schema,
  settings: RateLimitSettings = {},
): void {
  const limits = new Map<string, RateLimit>();
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      const limit = route.rateLimit ?? settings.defaultLimit;
      if (limit) limits.set(`${route.method} ${group.baseUrl}${route.path}`, limit);
    }
  }
  if (limits.size === 0) return;
  app.register(rateLimitPlugin, {
    global: false,
    ...(settings.redis ? { redis: settings.redis, nameSpace: "api-rate-limit:" } : {}),
    ...(settings.store ? { store: settings.store } : {}),
  });
  // One hook per schema route, shared with the HEAD route Fastify adds for a GET one (cloned
  // before this hook runs, so it would otherwise go unlimited) and counting on the same counters.
  const hooks = new Map<string, ReturnType<typeof limitHook>>();
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const name = `${method === "HEAD" ? "GET" : method} ${route.url}`;
      const limit = limits.get(name);
      if (!limit) continue;
      const hook = hooks.get(name) ?? limitHook(app, name, limit);
      hooks.set(name, hook);
      const existing = route.preHandler;
      route.preHandler = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
    }
  });
}

const KEY = Symbol("rate limit key");
type Keyed = FastifyRequest & { [KEY]?: string };

function limitHook(app: FastifyInstance, routeName: string, limit: RateLimit) {
  // Created at the first request: the plugin's decorator exists once the app is ready.
  let limiters: { key: string; check: Limiter }[] | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    limiters ??= limit.keys.map((key) => ({
      key,
      check: app.createRateLimit({
        max: limit.max,
        timeWindow: limit.timeWindow,
        // Counters are per route and key: a Redis store shares one namespace between them.
        keyGenerator: (req) => `${routeName}|${key}|${(req as Keyed)[KEY]}`,
      }),
    }));
    let retryAfter = 0;
    for (const { key, check } of limiters) {
      const value = keyValue(request, key);
      if (value === undefined) continue;
      (request as Keyed)[KEY] = value;
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) retryAfter = Math.max(retryAfter, result.ttlInSeconds, 1);
    }
    if (retryAfter > 0) {
      // Set here: the error handler answers with the envelope and keeps the reply's headers.
      reply.header("retry-after", String(retryAfter));
      throw new ApiError("TOO_MANY_REQUESTS", `Too many requests: try again in ${retryAfter} s`);
    }
  };
}
