// Databases on a cluster: the app's own database on an embedded cluster, and template copies
// for tests (CREATE DATABASE ... TEMPLATE takes ~15 ms, so each test file gets a fresh copy).

import pg from "pg";
import { ident } from "../generator/sql/sql.ts";
import { type PostgresServer, withDatabase } from "./postgres.ts";

/** The embedded cluster keeps the app in a database of its own. */
export const APP_DATABASE = "app";

/** The URL the app uses: DATABASE_URL as given, or the embedded cluster's app database (created once). */
export async function ensureDatabase(server: PostgresServer): Promise<string> {
  if (server.source === "DATABASE_URL") return server.url;
  await createDatabase(server.url, APP_DATABASE, { ifMissing: true });
  return withDatabase(server.url, APP_DATABASE);
}

export async function createDatabase(
  serverUrl: string,
  name: string,
  options: { template?: string; ifMissing?: boolean } = {},
): Promise<string> {
  await withClient(serverUrl, async (client) => {
    if (options.ifMissing) {
      const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (rowCount) return;
    }
    const template = options.template ? ` TEMPLATE ${ident(options.template)}` : "";
    await client.query(`CREATE DATABASE ${ident(name)}${template}`);
  });
  return withDatabase(serverUrl, name);
}

/**
 * Drops a database once the connections still closing have gone (up to `waitMs`), then by force.
 * pg-pool's `end()` resolves once it has asked its clients to close, not once they have: a FORCE
 * drop at that moment terminates them, and the pool reports the server's FATAL through an idle
 * client's error listener it leaves behind, as an `error` event nobody handles (a test file
 * failed that way in a full run).
 */
export async function dropDatabase(serverUrl: string, name: string, waitMs = 2000): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1",
        [name],
      );
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await client.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
  });
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
