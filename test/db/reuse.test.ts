// A second command on an app whose cluster is running (`make migrate` while `make run` serves)
// connects to that cluster instead of starting a second postmaster on the same directory, and
// leaves it running: the command that started a cluster is the one that stops it.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { APP_DATABASE, withClient } from "../../db/databases.ts";
import { startEmbedded, withDatabase } from "../../db/postgres.ts";
import { runCliFile, scratchDataDir, whoAmI } from "../harness/cluster.ts";
import { REPO } from "../harness/templates.ts";

t.test("make migrate while the app's cluster runs connects to it and migrates through it", async (t) => {
  const dataDir = scratchDataDir(t, { open: true });
  const appDir = path.resolve(dataDir, "../..");
  fs.copyFileSync(path.join(REPO, "example/api.schema.json"), path.join(appDir, "api.schema.json"));

  const first = await startEmbedded({ dataDir });
  t.teardown(() => first.stop());
  const pidFile = path.join(dataDir, "postmaster.pid");
  const postmaster = fs.readFileSync(pidFile, "utf8").split("\n")[0];

  const second = await startEmbedded({ dataDir });
  t.equal(second.url, first.url, "the same server, same port and password");
  await second.stop();
  t.equal(await whoAmI(first.url), "postgres", "the second command's stop leaves the cluster running");

  const migrate = runCliFile("migrate.ts", ["--app", appDir]);
  t.equal(migrate.status, 0, `make migrate succeeds: ${migrate.stderr}`);
  t.equal(migrate.stderr.trim(), "", "nothing on stderr");
  t.match(migrate.stdout, /0001_/, "it wrote and applied the first migration");
  t.equal(fs.readFileSync(pidFile, "utf8").split("\n")[0], postmaster, "still the first postmaster");
  const tables = await withClient(withDatabase(first.url, APP_DATABASE), async (c) => {
    const r = await c.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
    return r.rows[0].n;
  });
  t.ok(tables > 0, "the migration is in the running cluster's app database");

  await first.stop();
  t.notOk(fs.existsSync(pidFile), "the first command's stop stops the postmaster");
});
