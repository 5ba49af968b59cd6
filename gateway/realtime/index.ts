// Realtime: table changes to WebSocket subscribers (docs/realtime.md). Registered by buildGateway
// in one call. The endpoint (REALTIME_PATH) upgrades with @fastify/websocket; each socket is a
// Connection; one RealtimeHub per gateway reads the outbox, started by the first subscription.
// On close (app.close, closeGracefully) every socket gets a 1001 close frame before the server
// stops, and the reader's LISTEN connection ends before the pools do.

import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Schema } from "../../generator/schema/types.ts";
import type { Authenticator } from "../auth/context.ts";
import { REALTIME_DEFAULTS, type RealtimeConfig } from "../config.ts";
import { errorBody } from "../errors.ts";
import { metricsRegistry } from "../ops/metrics.ts";
import { Connection } from "./connection.ts";
import { policyGlobals } from "./groups.ts";
import { RealtimeHub } from "./hub.ts";
import { realtimeMetrics } from "./metrics.ts";
import { CLOSE } from "./protocol.ts";
import { notifyTables } from "./tables.ts";

export interface RealtimeDeps {
  schema: Schema;
  pool: pg.Pool;
  /** The gateway's own authenticator (guarded: the same checks as HTTP requests). */
  authenticate: Authenticator;
  config?: Partial<RealtimeConfig> | undefined;
}

/** Largest message a client may send (a subscribe with a long filter fits many times over). */
const MAX_PAYLOAD = 64 * 1024;
/** How long shutdown waits for clients to answer the 1001 close frame. */
const CLOSE_WAIT_MS = 1_000;

export function registerRealtime(app: FastifyInstance, deps: RealtimeDeps): void {
  const config: RealtimeConfig = { ...REALTIME_DEFAULTS, ...deps.config };
  const registry = metricsRegistry(app);
  const connections = new Set<Connection>();
  const hub = new RealtimeHub({
    pool: deps.pool,
    pollMs: config.pollMs,
    retentionSeconds: config.retentionSeconds,
    log: app.log,
    metrics: registry ? realtimeMetrics(registry) : undefined,
    afterBatch: () => shedOverBudget(connections, config.memoryBytes),
  });
  const connectionDeps = {
    hub,
    tables: notifyTables(deps.schema),
    schemaTables: new Set(deps.schema.database.map((t) => t.name)),
    authenticate: deps.authenticate,
    globals: policyGlobals(deps.schema),
    bufferBytes: config.bufferBytes,
    pingMs: config.pingMs,
    path: config.path,
    log: app.log,
  };

  // Only a serving gateway prunes (not one built for app.inject in tests).
  app.addHook("onListen", async () => hub.startPruning());
  app.register(async (scope) => {
    await scope.register(websocket, {
      options: { maxPayload: MAX_PAYLOAD },
      // Protocol errors (a message over MAX_PAYLOAD, a bad frame): ws closes the socket itself
      // with the right code (1009, 1002); the plugin's default would cut it without one.
      errorHandler: (error) => app.log.debug({ err: error }, "realtime: WebSocket protocol error"),
      // Shutdown: 1001 going away to every client, then the reader stops (before the pools end).
      preClose: async () => {
        const closing = [...connections].map((connection) => connection.closed);
        for (const connection of connections) connection.close(CLOSE.goingAway, "server shutting down");
        await Promise.race([
          Promise.all(closing),
          new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS)),
        ]);
        await hub.stop();
      },
    });
    scope.route({
      method: "GET",
      url: config.path,
      handler: async (_request, reply) =>
        reply
          .code(400)
          .send(errorBody("BAD_REQUEST", "This endpoint takes WebSocket connections (Upgrade: websocket)")),
      wsHandler: (socket, request) => {
        const connection = new Connection(socket, connectionDeps);
        connections.add(connection);
        socket.on("close", () => connections.delete(connection));
        if (request.headers.authorization !== undefined) connection.authenticateUpgrade(request);
      },
    });
  });
}

/**
 * Each connection is bounded (REALTIME_BUFFER), but thousands of them are not: 5,000 connections
 * each allowed several MiB is more memory than the machine has. After each batch, when all
 * connections together hold more than REALTIME_MEMORY unsent bytes, the ones furthest behind are
 * dropped as slow consumers (they resume with `since`) until the rest fit. Furthest behind is
 * first the backlog, the bytes still unsent from before the last check (a client that stopped
 * reading), then all unsent bytes: a reading client that has just been handed a large batch is
 * not behind. Each connection starts a new check once read. Returns how many were dropped.
 */
export function shedOverBudget(connections: Iterable<BudgetedConnection>, budget: number): number {
  let total = 0;
  const behind: { connection: BudgetedConnection; unsent: number; backlog: number }[] = [];
  for (const connection of connections) {
    const unsent = connection.unsent;
    total += unsent;
    if (unsent > 0) behind.push({ connection, unsent, backlog: connection.backlog });
    connection.checked();
  }
  let shed = 0;
  if (total > budget) {
    behind.sort((a, b) => b.backlog - a.backlog || b.unsent - a.unsent);
    for (const { connection, unsent } of behind) {
      if (total <= budget) break;
      total -= unsent;
      connection.shed();
      shed++;
    }
  }
  return shed;
}

/** What the budget check reads of a connection (realtime/connection.ts). */
export interface BudgetedConnection {
  /** Bytes queued and not yet written to the network. */
  readonly unsent: number;
  /** Of those, the bytes already unsent at the last check. */
  readonly backlog: number;
  shed(): void;
  checked(): void;
}
