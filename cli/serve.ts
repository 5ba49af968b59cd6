// The body of `make run` / `make serve` (cli/run.ts): Postgres, migrate, with `dev` the seed and
// the development token secret, then serve until SIGINT/SIGTERM, finishing in-flight requests
// before stopping. Loaded by cli/run.ts once its arguments are valid.

import path from "node:path";
import { AppError } from "../app/errors.ts";
import { readAppSchema } from "../app/load.ts";
import { ensureDatabase } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { loadAuthenticator } from "../gateway/auth/index.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { describeProblem, loadHandlers } from "../gateway/custom/index.ts";
import { readRateLimitConfig } from "../gateway/http/rateLimit.ts";
import { closeGracefully } from "../gateway/ops/index.ts";
import { deriveGatewayUrl, deriveServiceUrl, gatewayPools, serviceDatabaseUrl } from "../gateway/pool.ts";
import { readDatabaseUrl, readRouter } from "../gateway/readPool.ts";
import { buildGateway } from "../gateway/server.ts";
import { appPostgres, envFlag } from "./common.ts";
import { useDevSecretNoisily } from "./devSecret.ts";
import { seedAppNoisily } from "./seed.ts";

/** Serves the app until SIGINT/SIGTERM; the exit code. */
export async function serveApp(appDir: string, dev: boolean): Promise<number> {
  if (dev) useDevSecretNoisily(appDir);
  const config = readGatewayConfig();
  const server = await appPostgres(appDir);
  let stopping = false;
  try {
    console.log(`postgres: ${server.source}`);
    const url = await ensureDatabase(server);
    const result = await migrateApp({
      appDir,
      url,
      allowDataLoss: envFlag("ALLOW_DATA_LOSS"),
      log: (line) => console.log(line),
    });
    for (const line of result.warnings) console.log(line);
    const schema = readAppSchema(appDir).schema;
    if (!schema) throw new Error("the schema changed while starting");
    // seed.sql runs on every `make run` (it must be idempotent); cli/seed.ts.
    if (dev) await seedAppNoisily(url, appDir, schema);
    // Custom-route handlers: all imported now; a missing one stops start-up unless allowed.
    const handlers = await loadHandlers(appDir, schema);
    const allowMissingHandlers = envFlag("ALLOW_MISSING_HANDLERS");
    if (handlers.problems.length > 0) {
      const lines = handlers.problems.map((p) => `  ${describeProblem(p)}`).join("\n");
      if (!allowMissingHandlers) {
        throw new AppError(
          `custom routes without handlers:\n${lines}\nWrite them (docs/handlers.md), or set ALLOW_MISSING_HANDLERS=1 to serve anyway (those routes answer 501).`,
        );
      }
      console.warn(`ALLOW_MISSING_HANDLERS=1: these routes answer 501 NOT_IMPLEMENTED:\n${lines}`);
    }
    const gatewayUrl = config.gatewayDatabaseUrl ?? (await deriveGatewayUrl(url));
    const pools = gatewayPools(config, {
      gateway: gatewayUrl,
      read: readDatabaseUrl(process.env, gatewayUrl),
      // api_service, not the migrating superuser.
      service: serviceDatabaseUrl() ?? (await deriveServiceUrl(url)),
    });
    const { pool, readPool, servicePool } = pools;
    if (readPool) console.log("reads: GET standard routes on READ_DATABASE_URL (replica)");
    const authenticate = await loadAuthenticator(appDir, schema);
    console.log(authenticate.summary);
    if (authenticate.warning) console.warn(authenticate.warning);
    const app = buildGateway({
      schema,
      pool,
      authenticate,
      config,
      handlers,
      allowMissingHandlers,
      servicePool,
      rateLimit: readRateLimitConfig(),
      publicDir: path.join(appDir, "public"),
      ...(readPool
        ? {
            reads: readRouter(readPool, pool, {
              onReplicaDown: (error) =>
                console.warn(`replica unavailable, reading from the primary: ${(error as Error).message}`),
            }),
          }
        : {}),
    });
    await app.listen({ port: config.port, host: config.host });
    console.log(`serving ${path.basename(appDir)} on http://${config.host}:${config.port}`);

    await new Promise<void>((resolve) => {
      const stop = () => {
        if (stopping) return;
        stopping = true;
        resolve();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    // Stop accepting, /ready 503, in-flight requests finish within SHUTDOWN_TIMEOUT_MS
    // (docs/operations.md "Shutdown"); then the pools and the cluster go.
    console.log(`stopping: finishing requests in flight (at most ${config.ops.shutdownTimeoutMs} ms)`);
    const closed = await closeGracefully(app, config.ops.shutdownTimeoutMs);
    if (closed.forced)
      console.warn("requests still running at SHUTDOWN_TIMEOUT_MS: their connections were closed");
    await pools.end();
    return 0;
  } finally {
    await server.stop();
  }
}
