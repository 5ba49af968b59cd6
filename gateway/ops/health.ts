// Liveness and readiness (docs/operations.md "Health and readiness"). `/health`: the process
// answers (no database involved: a load balancer must not restart a gateway whose database is
// down). `/ready`: this instance should get traffic: not shutting down, the database answers on
// the gateway's own pool (within POOL_WAIT_MS), and the API schema is loaded (migrated).

import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { errorBody } from "../errors.ts";
import { isDraining } from "./shutdown.ts";

export function registerHealth(app: FastifyInstance, pool: pg.Pool): void {
  app.get("/health", async () => ({ status: "ok" }));
  app.get("/ready", async (_request, reply) => {
    if (isDraining(app)) {
      return reply.code(503).send(errorBody("SERVICE_UNAVAILABLE", "Shutting down"));
    }
    let loaded: boolean;
    try {
      const result = await pool.query<{ loaded: boolean }>(
        "SELECT pg_catalog.to_regnamespace('api') IS NOT NULL AS loaded",
      );
      loaded = result.rows[0]?.loaded === true;
    } catch {
      return reply.code(503).send(errorBody("SERVICE_UNAVAILABLE", "Database unreachable"));
    }
    if (!loaded) return reply.code(503).send(errorBody("SERVICE_UNAVAILABLE", "API schema not loaded"));
    return { status: "ready" };
  });
}
