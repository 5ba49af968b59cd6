// Prometheus metrics at /metrics (docs/operations.md "Metrics"), with prom-client. Each gateway
// has its own registry, so several gateways in one process (tests) never share counters.
//
// Labels are bounded: `route` is the route's pattern (`/api/v1/task/:id`), never the raw URL, and
// every request no route matched (404, 405, malformed) shares the one label `unmatched`.

import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type pg from "pg";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { OpsConfig } from "../config.ts";
import { errorBody } from "../errors.ts";
import { isConnectionFailure } from "./connectionFailures.ts";

export const UNMATCHED_ROUTE = "unmatched";

/** Request latency buckets in seconds: 1 ms to 10 s (a route call is ~1 ms; a timeout is seconds). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  /** The pools to report, by name (`primary`, `service`, `read`). */
  pools: Record<string, pg.Pool | undefined>;
  metrics: OpsConfig["metrics"];
}

/** Each gateway's registry, for metrics registered elsewhere (realtime). */
const registries = new WeakMap<FastifyInstance, Registry>();

/** The gateway's metrics registry; undefined when metrics are off. */
export function metricsRegistry(app: FastifyInstance): Registry | undefined {
  return registries.get(app);
}

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Registry | undefined {
  if (!options.metrics.enabled) return undefined;
  const registry = new Registry();
  registries.set(app, registry);
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from receiving a request to sending its answer, by route pattern and method",
    labelNames: ["route", "method"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const dbErrors = new Counter({
    name: "db_errors_total",
    help: "Database errors behind answers, by SQLSTATE class (first two characters; `connection` for an unreachable database)",
    labelNames: ["sqlstate_class"] as const,
    registers: [registry],
  });
  const pools = Object.entries(options.pools).filter((entry): entry is [string, pg.Pool] => !!entry[1]);
  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"] as const,
      registers: [registry],
      collect() {
        for (const [label, pool] of pools) this.set({ pool: label }, read(pool));
      },
    });
  poolGauge("db_pool_connections_total", "Open connections of the pool", (p) => p.totalCount);
  poolGauge("db_pool_connections_idle", "Open connections not lent out", (p) => p.idleCount);
  poolGauge(
    "db_pool_connections_in_use",
    "Connections lent out to requests",
    (p) => p.totalCount - p.idleCount,
  );
  poolGauge(
    "db_pool_waiting",
    "Requests waiting for a connection (bounded by POOL_WAIT_MS)",
    (p) => p.waitingCount,
  );

  // A callback hook (every response passes here): no promise per request.
  app.addHook("onResponse", (request, reply, done) => {
    const route = routeLabel(request);
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    duration.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    done();
  });
  app.addHook("onError", async (_request, _reply, error) => {
    const sqlClass = sqlstateClass(error);
    if (sqlClass) dbErrors.inc({ sqlstate_class: sqlClass });
  });

  const expected = options.metrics.token ? digest(options.metrics.token) : undefined;
  app.get("/metrics", async (request, reply) => {
    if (expected) {
      const header = request.headers.authorization ?? "";
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? "";
      // Compared as digests: equal length, constant time, whatever the client sends.
      if (!timingSafeEqual(digest(given), expected)) {
        return reply
          .code(401)
          .header("www-authenticate", "Bearer")
          .send(errorBody("UNAUTHORIZED", "Metrics need the bearer token METRICS_TOKEN"));
      }
    }
    return reply.header("content-type", registry.contentType).send(await registry.metrics());
  });
  return registry;
}

function routeLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  // Fastify's 404 handler has no pattern; CORS preflights run on a wildcard route.
  return url === undefined || url.includes("*") ? UNMATCHED_ROUTE : url;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * The SQLSTATE class of a database error behind a failed request (the error, or the cause an
 * ApiError keeps); `connection` for an unreachable database; undefined when no database error
 * is behind it. Our own A0 class (a route function's 400/401/403/404/409/422) is an answer,
 * not a database fault, and is not counted.
 */
export function sqlstateClass(error: unknown): string | undefined {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 3; depth++) {
    if (isConnectionFailure(e)) return "connection";
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !/^E[A-Z]+$/.test(code)) {
      return code.startsWith("A0") ? undefined : code.slice(0, 2);
    }
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return "connection";
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
