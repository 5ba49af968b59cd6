// The body of `make dev` (cli/dev.ts): serves the app as `make run` does, then validates,
// migrates and swaps in every saved version (gateway/dev/). Loaded by cli/dev.ts once its
// arguments are valid.

import path from "node:path";
import pinoPretty from "pino-pretty";
import { readAppSchema } from "../app/load.ts";
import { ensureDatabase } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { startDevServer } from "../gateway/dev/index.ts";
import { deriveGatewayUrl, deriveServiceUrl, serviceDatabaseUrl } from "../gateway/pool.ts";
import { appPostgres, envFlag } from "./common.ts";
import { useDevSecretNoisily } from "./devSecret.ts";
import { seedAppNoisily } from "./seed.ts";

/** Serves and watches the app until SIGINT/SIGTERM; the exit code. */
export async function serveAndWatch(appDir: string): Promise<number> {
  useDevSecretNoisily(appDir);
  const config = readGatewayConfig({ LOG_PRETTY: "1", ...process.env });
  const server = await appPostgres(appDir);
  try {
    console.log(`postgres: ${server.source}`);
    const url = await ensureDatabase(server);
    // Seeding needs the tables: migrate once before the first version (it migrates again, a no-op).
    await migrateApp({ appDir, url, allowDataLoss: envFlag("ALLOW_DATA_LOSS"), log: (l) => console.log(l) });
    const schema = readAppSchema(appDir).schema;
    if (schema) await seedAppNoisily(url, appDir, schema);
    const dev = await startDevServer({
      appDir,
      url,
      gatewayUrl: config.gatewayDatabaseUrl ?? (await deriveGatewayUrl(url)),
      serviceUrl: serviceDatabaseUrl() ?? (await deriveServiceUrl(url)),
      config,
      allowDataLoss: envFlag("ALLOW_DATA_LOSS"),
      allowMissingHandlers: envFlag("ALLOW_MISSING_HANDLERS"),
      log: (line) => console.log(line),
      ...(config.logPretty ? { logStream: pinoPretty({ colorize: process.stdout.isTTY }) } : {}),
      port: config.port,
      host: config.host,
    });
    console.log(`watching ${path.basename(appDir)}: serving on http://${config.host}:${dev.port}`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    console.log("stopping");
    await dev.close();
    return 0;
  } finally {
    await server.stop();
  }
}
