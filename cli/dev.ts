// `make dev APP=dir`: watch mode. Serves the app like `make run` (embedded Postgres unless
// DATABASE_URL, seed, development token secret), then on every saved api.schema.json or handler
// file (<app>/src/**) validates, migrates and swaps the new version in without a restart; a broken
// version is printed and the last good one keeps serving (docs/operations.md "Watch mode").

// First: V8 settings for serving (gateway/v8Flags.ts), before any other module runs code.
import "../gateway/v8Flags.ts";
import path from "node:path";
import pinoPretty from "pino-pretty";
import { readAppSchema } from "../app/load.ts";
import { ensureDatabase, withClient } from "../db/databases.ts";
import { migrateApp } from "../db/migrate.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { startDevServer } from "../gateway/dev/index.ts";
import { deriveGatewayUrl, deriveServiceUrl, serviceDatabaseUrl } from "../gateway/pool.ts";
import { type Command, ENV } from "./args.ts";
import { appPostgres, envFlag, parseArgs, runCli } from "./common.ts";
import { devSecretFile, useDevSecret } from "./devSecret.ts";
import { SEED_FILE, seedApp } from "./seed.ts";

const DEV: Command = {
  usage: "make dev [APP=dir]",
  summary:
    "Watch mode: serves the app as make run does, and on every saved schema file or handler\n" +
    "(<app>/src/**) validates, migrates and swaps in the new routes and handlers without a restart.\n" +
    "A broken version is printed and the last good one keeps serving. Readable logs (pino-pretty).",
  env: {
    DATABASE_URL: ENV.DATABASE_URL,
    "PORT, HOST": "where to listen (default: 3000, 127.0.0.1)",
    ALLOW_DATA_LOSS: "1: confirm migrations that drop data (otherwise such an edit is refused)",
    ALLOW_MISSING_HANDLERS: "1: serve custom routes without handlers (they answer 501)",
    LOG_PRETTY: "0: JSON log lines as in production (default here: 1)",
  },
};

runCli(async () => {
  const { appDir } = parseArgs(DEV);
  if (useDevSecret(appDir)) {
    console.log(
      `JWT_SECRET unset: using the development secret in ${path.relative(process.cwd(), devSecretFile(appDir))}`,
    );
  }
  const config = readGatewayConfig({ LOG_PRETTY: "1", ...process.env });
  const server = await appPostgres(appDir);
  try {
    console.log(`postgres: ${server.source}`);
    const url = await ensureDatabase(server);
    // Seeding needs the tables: migrate once before the first version (it migrates again, a no-op).
    await migrateApp({ appDir, url, allowDataLoss: envFlag("ALLOW_DATA_LOSS"), log: (l) => console.log(l) });
    const schema = readAppSchema(appDir).schema;
    if (schema && (await withClient(url, (client) => seedApp(client, appDir, schema)))) {
      console.log(`seeded from ${path.relative(process.cwd(), path.join(appDir, SEED_FILE))}`);
    }
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
});
