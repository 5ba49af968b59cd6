// A Postgres server under callgrind, for `make bench-instructions`: each backend writes its own
// instruction count when it exits, so a statement's cost is read off the backend that ran it. The
// statement goes through the extended protocol as the gateway and the hand-written server send
// it: parsed once as a named statement, then bound with text values and executed. One backend
// runs it `base` times, another `base + calls` times; the difference over `calls` is one call,
// with the connection's start-up, the first calls' planning and cold caches left out. With
// `keepDir`, both backends' callgrind files are kept there for bench/callgrindDiff.ts, which shows
// per function where a call's instructions go.

import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { type OsUser, runAs } from "../db/embedded/osUser.ts";
import { CellQuery, type CellStatement } from "../gateway/cellQuery.ts";
import { ZoneTrackingClient } from "../gateway/sessionZone.ts";

export interface Statement {
  text: string;
  values: (string | null)[];
  /** Sent instead as the gateway sends it (its own statement or batch: gateway/cellQuery.ts), when given. */
  cell?: CellStatement;
}

/** Where a counted statement's callgrind files are kept: `<dir>/<name>.base` and `<dir>/<name>.more`. */
export interface Kept {
  dir: string;
  name: string;
}

export interface CountingServer {
  /** Instructions one call of `statement` costs a backend on `database`, after `setup` ran there. */
  perCall(database: string, setup: string[], statement: Statement, keep?: Kept): Promise<number>;
  stop(): Promise<void>;
}

export interface CountingOptions {
  postgres: string;
  /** A stopped cluster's data directory. */
  dataDir: string;
  user: OsUser | undefined;
  /** The superuser's password (the cluster asks for one on its socket too). */
  password: string;
  base: number;
  calls: number;
}

export async function countingServer(options: CountingOptions): Promise<CountingServer> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-callgrind-"));
  const socketDir = path.join(work, "socket");
  const countDir = path.join(work, "counts");
  for (const dir of [socketDir, countDir]) {
    fs.mkdirSync(dir);
    if (options.user) fs.chownSync(dir, options.user.uid, options.user.gid);
  }
  if (options.user) fs.chownSync(work, options.user.uid, options.user.gid);
  let log = "";
  const postmaster: ChildProcess = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      `--callgrind-out-file=${countDir}/backend.%p`,
      options.postgres,
      "-D",
      options.dataDir,
      "-c",
      "listen_addresses=",
      "-c",
      `unix_socket_directories=${socketDir}`,
      // Nothing else runs in the cluster while a statement is counted.
      "-c",
      "autovacuum=off",
    ],
    { ...runAs(options.user), stdio: ["ignore", "ignore", "pipe"] },
  );
  postmaster.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise((resolve) => postmaster.once("exit", resolve));

  const connect = async (database: string): Promise<pg.Client> => {
    // The postmaster starts slowly under valgrind.
    for (let attempt = 0; attempt < 240; attempt++) {
      // As the gateway's pools do: a statement that renders in UTC sets the zone once, not each call.
      const client = new ZoneTrackingClient({
        host: socketDir,
        user: "postgres",
        password: options.password,
        database,
      });
      client.on("error", () => {});
      try {
        await client.connect();
        return client;
      } catch {
        await sleep(250);
      }
    }
    throw new Error(`the postmaster under callgrind did not accept connections: ${log}`);
  };

  /**
   * The instructions of one backend that runs `setup`, then `statement` `times` times; its
   * callgrind file copied to `keepAs` when given.
   */
  const backend = async (
    database: string,
    setup: string[],
    statement: Statement,
    times: number,
    keepAs?: string,
  ) => {
    const client = await connect(database);
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    for (const line of setup) await client.query(line);
    for (let i = 0; i < times; i++) {
      const { cell } = statement;
      if (cell) {
        await new Promise<void>((resolve, reject) => {
          const query = new CellQuery(cell);
          query.callback = (error) => (error ? reject(error) : resolve());
          client.query(query);
        });
      } else {
        await client.query({
          name: "counted",
          text: statement.text,
          values: statement.values,
          rowMode: "array",
        });
      }
    }
    await client.end();
    const file = path.join(countDir, `backend.${rows[0]?.pid}`);
    const count = await readCount(file);
    if (keepAs) fs.copyFileSync(file, keepAs);
    return count;
  };

  const server: CountingServer = {
    async perCall(database, setup, statement, keep) {
      // Uncounted: the first backend to run a statement leaves the catalog rows it reads in a
      // state the next ones find cheaper.
      await backend(database, setup, statement, options.base);
      const kept = (suffix: string) => (keep ? path.join(keep.dir, `${keep.name}.${suffix}`) : undefined);
      const base = await backend(database, setup, statement, options.base, kept("base"));
      const more = await backend(database, setup, statement, options.base + options.calls, kept("more"));
      return (more - base) / options.calls;
    },
    async stop() {
      postmaster.kill("SIGINT");
      await exited;
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
  try {
    // The first backends after start-up cost more than the ones after them, whatever they run.
    await server.perCall("postgres", [], { text: "SELECT 1", values: [] });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** A backend's total from its callgrind file, once the backend has exited and written it. */
async function readCount(file: string): Promise<number> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const total = fs.existsSync(file)
      ? /^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(file, "utf8"))
      : null;
    if (total) return Number(total[1]);
    await sleep(50);
  }
  throw new Error(`no callgrind count in ${file}`);
}
