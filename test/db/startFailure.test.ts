// Whatever stops the embedded cluster from starting, the user reads one line saying what to do:
// no stack trace, no unhandled 'error' event. A missing app directory is refused before anything
// is created.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t, { type Test } from "tap";
import { postgresOsUser } from "../../db/embedded/osUser.ts";
import { EmbeddedPostgresError, startEmbedded } from "../../db/postgres.ts";
import { runCliFile, scratchDataDir } from "../harness/cluster.ts";

/** A data directory that looks initialised but holds a cluster of another Postgres version. */
function corruptCluster(dataDir: string): void {
  fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.writeFileSync(path.join(dataDir, "PG_VERSION"), "9\n");
  fs.writeFileSync(`${dataDir}.password`, "x", { mode: 0o600 });
  const user = postgresOsUser();
  if (user) {
    fs.chownSync(dataDir, user.uid, user.gid);
    fs.chownSync(path.join(dataDir, "PG_VERSION"), user.uid, user.gid);
  }
}

function oneLineOfAdvice(t: Test, text: string) {
  const lines = text.trim().split("\n");
  t.equal(lines.length, 1, `one line: ${text}`);
  t.notMatch(text, /^\s+at /m, "no stack trace");
  t.match(text, /^embedded Postgres: .*DATABASE_URL/, "says what to do");
}

t.test("a data directory Postgres refuses: one clear line", async (t) => {
  const dataDir = scratchDataDir(t, { open: true });
  corruptCluster(dataDir);
  const error = await startEmbedded({ dataDir }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof EmbeddedPostgresError);
  oneLineOfAdvice(t, (error as Error).message);
  t.match((error as Error).message, /stopped at start-up.*postgresql\.conf.*make clean-data/);
});

t.test("make migrate on that app prints the line alone and exits 1", async (t) => {
  const dataDir = scratchDataDir(t, { open: true });
  corruptCluster(dataDir);
  const appDir = path.resolve(dataDir, "../..");
  fs.writeFileSync(path.join(appDir, "api.schema.json"), JSON.stringify({ database: [], endpoints: [] }));
  const r = runCliFile("migrate.ts", ["--app", appDir]);
  t.equal(r.status, 1);
  oneLineOfAdvice(t, r.stderr);
});

t.test("no Postgres binaries: one clear line", async (t) => {
  const dataDir = scratchDataDir(t, { open: true });
  const packageDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-nopkg-"));
  t.teardown(() => fs.rmSync(packageDir, { recursive: true, force: true }));
  const error = await startEmbedded({ dataDir, packageDir, throwaway: true }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof EmbeddedPostgresError);
  oneLineOfAdvice(t, (error as Error).message);
});

t.test("make migrate APP=<missing dir> says so before creating anything", async (t) => {
  const missing = path.join(os.tmpdir(), `api-missing-${process.pid}-${Date.now()}`);
  const r = runCliFile("migrate.ts", ["--app", missing]);
  t.equal(r.status, 1);
  t.equal(r.stderr.trim(), `the app directory ${missing} does not exist`);
  t.notOk(fs.existsSync(missing), "nothing was created");
});
