// A PgBouncer in transaction mode in front of the test run's cluster, for
// test/scaling/pgbouncer.test.ts. Debian's package (`apt-get install pgbouncer`) puts the binary in
// /usr/sbin; PGBOUNCER names another. PgBouncer refuses to run as root, so as root it runs as
// the OS user the embedded cluster runs as.

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { postgresOsUser, runAs } from "../../db/embedded/osUser.ts";
import { freePort } from "../../db/postgres.ts";

export interface Bouncer {
  port: number;
  version: [number, number];
  stop(): Promise<void>;
}

/** The pgbouncer binary and its version, or why there is none. */
export function findPgbouncer(): { binary: string; version: [number, number] } | { missing: string } {
  const candidates = [process.env.PGBOUNCER, "/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].filter(
    (c): c is string => !!c,
  );
  const binary = candidates.find((c) => fs.existsSync(c));
  if (!binary) return { missing: "no pgbouncer binary (apt-get install pgbouncer, or set PGBOUNCER)" };
  const out = spawnSync(binary, ["--version"], { encoding: "utf8" });
  const match = /PgBouncer (\d+)\.(\d+)/.exec(out.stdout ?? "");
  if (!match) return { missing: `${binary} --version did not say its version` };
  return { binary, version: [Number(match[1]), Number(match[2])] };
}

/**
 * Starts PgBouncer on a free port, every database of the server at `serverUrl` reachable through
 * it, with one server connection per user and database (so transactions of different clients
 * share it), logging in as the `users` given (name, password).
 */
export async function startPgbouncer(
  binary: string,
  version: [number, number],
  serverUrl: string,
  users: Record<string, string>,
  settings: Record<string, string> = {},
): Promise<Bouncer> {
  const user = postgresOsUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-pgbouncer-"));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new URL(serverUrl);
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  fs.writeFileSync(
    path.join(dir, "userlist.txt"),
    Object.entries(users)
      .map(([name, password]) => `${quote(name)} ${quote(password)}`)
      .join("\n"),
    { mode: 0o600 },
  );
  const config = {
    listen_addr: "127.0.0.1",
    listen_port: String(port),
    unix_socket_dir: "",
    auth_type: "scram-sha-256",
    auth_file: path.join(dir, "userlist.txt"),
    pool_mode: "transaction",
    default_pool_size: "1",
    max_client_conn: "100",
    logfile: path.join(dir, "pgbouncer.log"),
    pidfile: path.join(dir, "pgbouncer.pid"),
    ...settings,
  };
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port}`,
      "[pgbouncer]",
      ...Object.entries(config).map(([k, v]) => `${k} = ${v}`),
      "",
    ].join("\n"),
  );
  // Its log and pid file are made in `dir` too.
  if (user)
    for (const f of [dir, ...fs.readdirSync(dir).map((f) => path.join(dir, f))])
      fs.chownSync(f, user.uid, user.gid);
  const child: ChildProcess = spawn(binary, [path.join(dir, "pgbouncer.ini")], {
    ...runAs(user),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = fs.existsSync(config.logfile) ? fs.readFileSync(config.logfile, "utf8") : "";
      await stop();
      throw new Error(`pgbouncer did not start: ${stderr}${log}`.slice(-2000));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, version, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
