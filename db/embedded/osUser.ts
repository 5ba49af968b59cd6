// Postgres refuses to run as root. As root we run initdb and postgres as the `postgres` OS user
// (created when missing), so everything they touch must be reachable by that user; as anyone
// else they run as ourselves.

import { spawnSync } from "node:child_process";
import { EmbeddedPostgresError } from "./errors.ts";

export interface OsUser {
  name: string;
  uid: number;
  gid: number;
}

/** The OS user Postgres runs as, or undefined when that is the current user. */
export function postgresOsUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = lookup("postgres");
  if (found) return found;
  spawnSync("groupadd", ["--system", "postgres"], { stdio: "ignore" });
  spawnSync(
    "useradd",
    ["--system", "--gid", "postgres", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
    { stdio: "ignore" },
  );
  const created = lookup("postgres");
  if (created) return created;
  throw new EmbeddedPostgresError(
    "running as root, Postgres needs an OS user `postgres` to run as, and it could not be created",
    "Create it (useradd --system postgres), run as another user, or set DATABASE_URL to use another Postgres server.",
  );
}

function lookup(name: string): OsUser | undefined {
  const id = (flag: string) => spawnSync("id", [flag, name], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Options that run a child process as `user` (cwd "/": our own directory may be closed to it). */
export function runAs(user: OsUser | undefined): { uid?: number; gid?: number; cwd: string } {
  return user ? { uid: user.uid, gid: user.gid, cwd: "/" } : { cwd: "/" };
}

/** Whether `user` may enter `dir` (every directory above it included), asked as that user. */
export function canEnter(user: OsUser | undefined, dir: string): boolean {
  if (!user) return true;
  const probe = spawnSync("/bin/sh", ["-c", 'test -x "$1"', "sh", dir], { ...runAs(user), stdio: "ignore" });
  return probe.status === 0;
}
