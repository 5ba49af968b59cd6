// Running Postgres's own programs: initdb for a new cluster, the postmaster, and finding a
// postmaster another command already runs on the same directory (through its postmaster.pid).
// Children never emit an unhandled 'error' event: every failure becomes an EmbeddedPostgresError.

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Binaries } from "./binaries.ts";
import { EmbeddedPostgresError, oneLine, USE_ANOTHER_SERVER } from "./errors.ts";
import { type OsUser, runAs } from "./osUser.ts";

export const SUPERUSER = "postgres";
const READY_TIMEOUT_MS = 120_000;

/** initdb into the empty directory `dir`, with `password` for the superuser (SCRAM, also on the socket). */
export async function initCluster(bins: Binaries, dir: string, user: OsUser | undefined, password: string) {
  // initdb wants an empty directory, so the password file goes beside it, readable by initdb only.
  const pwfile = path.join(path.dirname(dir), `.${path.basename(dir)}-pw-${randomBytes(4).toString("hex")}`);
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) fs.chownSync(pwfile, user.uid, user.gid);
    const args = [`--pgdata=${dir}`, "--auth=scram-sha-256", `--username=${SUPERUSER}`, `--pwfile=${pwfile}`];
    // English messages whatever the environment's locale: start-up failures quote them.
    const { code, output, error } = await runToEnd(bins.initdb, [...args, "--lc-messages=C"], user);
    if (error) throw spawnFailure(bins.initdb, error, user);
    if (code !== 0) {
      throw new EmbeddedPostgresError(
        `initdb failed in ${dir}: ${lastLines(output)}`,
        `Remove ${dir} (make clean-data) and try again, ${USE_ANOTHER_SERVER}.`,
      );
    }
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

export interface Postmaster {
  port: number;
  /** Fast shutdown; resolves when it has exited. */
  stop(): Promise<void>;
}

export type StartOutcome =
  | { started: Postmaster }
  /** Another postmaster holds the directory (started at the same moment): use that one. */
  | { busy: true }
  /** The port was taken between choosing it and binding it: try another. */
  | { portTaken: true };

/** Starts a postmaster on `dir` and waits until it accepts connections; its output goes to `logFile`. */
export async function startPostmaster(
  bins: Binaries,
  dir: string,
  port: number,
  user: OsUser | undefined,
  logFile: string,
): Promise<StartOutcome> {
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const log = fs.openSync(logFile, "a", 0o600);
  let child: ChildProcess;
  try {
    const settings = [
      ["listen_addresses", "127.0.0.1"],
      // The default socket directory (/var/run/postgresql) may belong to a system server.
      ["unix_socket_directories", dir],
      ["lc_messages", "C"],
    ];
    child = spawn(
      bins.postgres,
      ["-D", dir, "-p", String(port), ...settings.flatMap(([k, v]) => ["-c", `${k}=${v}`])],
      {
        ...runAs(user),
        stdio: ["ignore", log, log],
      },
    );
  } finally {
    fs.closeSync(log);
  }
  const exited = new Promise<{ error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ error }));
    child.once("exit", () => resolve({}));
  });
  let gone: { error?: Error } | undefined;
  void exited.then((outcome) => {
    gone = outcome;
  });
  // Should this process end without stopping it (an uncaught error), the postmaster goes too.
  const orphanGuard = () => child.kill("SIGINT");
  process.once("exit", orphanGuard);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!gone) {
    const running = readPostmasterPid(dir);
    if (running && running.pid === child.pid && running.status === "ready") {
      return {
        started: {
          port,
          stop: async () => {
            process.removeListener("exit", orphanGuard);
            if (!gone) child.kill("SIGINT");
            await exited;
          },
        },
      };
    }
    if (Date.now() > deadline) {
      child.kill("SIGINT");
      await exited;
      process.removeListener("exit", orphanGuard);
      throw new EmbeddedPostgresError(
        `Postgres did not become ready in ${READY_TIMEOUT_MS / 1000} s (log: ${logFile})`,
        `Read the log, ${USE_ANOTHER_SERVER}.`,
      );
    }
    await sleep(50);
  }
  process.removeListener("exit", orphanGuard);
  const { error } = await exited;
  if (error) throw spawnFailure(bins.postgres, error, user);
  const output = readFrom(logFile, logStart);
  if (/could not bind|Address already in use/i.test(output)) return { portTaken: true };
  if (/lock file "postmaster\.pid" already exists/.test(output)) return { busy: true };
  throw new EmbeddedPostgresError(
    `Postgres stopped at start-up in ${dir}: ${lastLines(output)} (log: ${logFile})`,
    `If its data is disposable, remove it (make clean-data) to start afresh; ${USE_ANOTHER_SERVER}.`,
  );
}

export interface RunningPostmaster {
  pid: number;
  port: number;
  status: string;
}

/** The postmaster that postmaster.pid names, when that process is alive and is a postgres. */
export function readPostmasterPid(dir: string): RunningPostmaster | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  if (!alive(pid)) return undefined;
  return { pid, port, status: (lines[7] ?? "").trim() };
}

/** Waits while a live postmaster on `dir` is still starting; undefined when none runs there. */
export async function runningPostmaster(dir: string): Promise<RunningPostmaster | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const running = readPostmasterPid(dir);
    if (!running || running.status === "ready" || Date.now() > deadline) return running;
    await sleep(100);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // After a crash or a reboot the pid in a stale postmaster.pid may belong to anything.
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return !fs.existsSync("/proc/self");
  }
}

function spawnFailure(file: string, error: NodeJS.ErrnoException, user: OsUser | undefined) {
  const who = user ? `the OS user ${user.name}` : "this user";
  return new EmbeddedPostgresError(
    `${who} cannot run ${file} (${error.code ?? error.message})`,
    `Make it reachable and executable for ${who}, ${USE_ANOTHER_SERVER}.`,
  );
}

function runToEnd(
  file: string,
  args: string[],
  user: OsUser | undefined,
): Promise<{ code: number | null; output: string; error?: Error }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(file, args, { ...runAs(user), stdio: ["ignore", "pipe", "pipe"] });
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-8000);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", (error) => resolve({ code: null, output, error }));
    child.once("close", (code) => resolve({ code, output }));
  });
}

/** The lines that explain a failure: FATAL/ERROR/PANIC ones when present, else the last one. */
function lastLines(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const serious = lines.filter((l) => /\b(FATAL|PANIC|ERROR|error)\b|initdb:/.test(l));
  return oneLine((serious.length ? serious.slice(-2) : lines.slice(-1)).join("; ")) || "no output";
}

function readFrom(file: string, offset: number): string {
  try {
    return fs.readFileSync(file).subarray(offset).toString("utf8");
  } catch {
    return "";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
