// Graceful shutdown (docs/operations.md "Shutdown"): on SIGTERM the gateway stops accepting
// connections, answers `/ready` with 503 (a load balancer still polling an open connection takes
// the instance out), lets in-flight requests finish, and after SHUTDOWN_TIMEOUT_MS closes the
// connections that remain. Fastify's close does the first and third (server.close, waiting for
// requests, closing idle keep-alive sockets); the deadline is ours, since Fastify waits forever.

import type { FastifyInstance } from "fastify";

const draining = new WeakSet<FastifyInstance>();

/** Whether `closeGracefully` has begun on this gateway. */
export function isDraining(app: FastifyInstance): boolean {
  return draining.has(app);
}

export interface CloseOutcome {
  /** Connections were still open at the deadline and were closed. */
  forced: boolean;
  elapsedMs: number;
}

export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<CloseOutcome> {
  const started = Date.now();
  draining.add(app);
  let forced = false;
  const deadline = setTimeout(() => {
    forced = true;
    // Requests still running lose their socket; their handlers' transactions roll back when the
    // handler ends (HANDLER_TIMEOUT_MS at the latest) and the pool closes after that.
    app.server.closeAllConnections();
  }, timeoutMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
  return { forced, elapsedMs: Date.now() - started };
}
