// Operations endpoints and hooks, registered by buildGateway in one call (docs/operations.md):
// `/health`, `/ready`, `/metrics` (when enabled), and `Retry-After` on every 503.

import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { OpsConfig } from "../config.ts";
import { registerHealth } from "./health.ts";
import { registerMetrics } from "./metrics.ts";

export { closeGracefully, isDraining } from "./shutdown.ts";

/** Seconds a client should wait before retrying a 503 (the database restarting, the pool full). */
export const RETRY_AFTER_SECONDS = 1;

export interface OpsDeps {
  pool: pg.Pool;
  servicePool?: pg.Pool | undefined;
  ops?: Partial<OpsConfig> | undefined;
}

export function registerOps(app: FastifyInstance, { pool, servicePool, ops }: OpsDeps): void {
  registerHealth(app, pool);
  registerMetrics(app, {
    pools: { primary: pool, service: servicePool },
    metrics: ops?.metrics ?? { enabled: false },
  });
  // A callback hook (every response passes here): no promise per request.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (reply.statusCode === 503 && !reply.hasHeader("retry-after")) {
      reply.header("retry-after", String(RETRY_AFTER_SECONDS));
    }
    done(null, payload);
  });
}
