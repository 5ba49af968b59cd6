// One version of the app in watch mode: the schema validated, its handlers imported afresh, the
// database migrated, and a new gateway instance with pools of its own (the old instance's pools
// stay open under its last requests). Any failure leaves the database and the serving version as
// they were, except a migration that applied: it is on the database before the swap, which the
// zero-downtime migrate makes safe for the old version's requests (docs/migrations.md).

import path from "node:path";
import { formatDiagnostics, readAppSchema } from "../../app/load.ts";
import { migrateApp } from "../../db/migrate.ts";
import { loadAuthenticator } from "../auth/index.ts";
import type { GatewayConfig } from "../config.ts";
import { describeProblem, loadHandlers } from "../custom/index.ts";
import { readRateLimitConfig } from "../http/rateLimit.ts";
import { gatewayPools } from "../pool.ts";
import { buildGateway } from "../server.ts";
import type { ServedVersion } from "./dispatcher.ts";

export interface VersionDeps {
  appDir: string;
  /** The migrating (owner) connection. */
  url: string;
  /** Derived once at start: deriving sets a new password, which would lock out older pools. */
  gatewayUrl: string;
  serviceUrl: string;
  config: GatewayConfig;
  allowDataLoss: boolean;
  allowMissingHandlers: boolean;
  log: (line: string) => void;
  logStream?: NodeJS.WritableStream;
}

/** A version ready to serve, or the reasons there is none (printed; the old one keeps serving). */
export type BuiltVersion = { ok: true; version: ServedVersion } | { ok: false; errors: string[] };

export async function buildVersion(deps: VersionDeps): Promise<BuiltVersion> {
  const { appDir, config, log } = deps;
  const loaded = readAppSchema(appDir);
  if (!loaded.schema) {
    return { ok: false, errors: formatDiagnostics(loaded.file, "error", loaded.errors, loaded.routes) };
  }
  // Handlers before the migration: a broken handler must not leave the database ahead of the
  // version that serves.
  const handlers = await loadHandlers(appDir, loaded.schema, { fresh: true });
  if (handlers.problems.length > 0 && !deps.allowMissingHandlers) {
    return { ok: false, errors: handlers.problems.map(describeProblem) };
  }
  try {
    const result = await migrateApp({ appDir, url: deps.url, allowDataLoss: deps.allowDataLoss, log });
    for (const line of result.warnings) log(line);
  } catch (error) {
    // A destructive change without ALLOW_DATA_LOSS=1 ends here, with the refused changes listed.
    return { ok: false, errors: [(error as Error).message] };
  }
  const schema = loaded.schema;
  const {
    pool,
    servicePool,
    end: closePools,
  } = gatewayPools(config, {
    gateway: deps.gatewayUrl,
    service: deps.serviceUrl,
  });
  try {
    const authenticate = await loadAuthenticator(appDir, schema);
    const app = buildGateway({
      schema,
      pool,
      authenticate,
      config,
      handlers,
      allowMissingHandlers: deps.allowMissingHandlers,
      servicePool,
      rateLimit: readRateLimitConfig(),
      publicDir: path.join(appDir, "public"),
      ...(deps.logStream ? { logStream: deps.logStream } : {}),
    });
    return {
      ok: true,
      version: {
        app,
        retire: async () => {
          await app.close();
          await closePools();
        },
      },
    };
  } catch (error) {
    await closePools();
    return { ok: false, errors: [(error as Error).message] };
  }
}
