// The example app's checked-in migrations match its schema, and its seed data loads twice.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { migrateApp } from "../../db/migrate.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { copyApp, REPO } from "../harness/templates.ts";

t.test("example/migrations is up to date with example/api.schema.json", async (t) => {
  const appDir = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(appDir, { recursive: true, force: true }));
  const url = await testDatabase(t);
  const result = await migrateApp({ appDir, url });
  t.equal(
    result.written,
    undefined,
    "no new migration: run `make migrate` after changing the example schema",
  );
  t.ok(result.applied.length > 0);
  t.same(result.warnings, []);
});

t.test("the seed is idempotent and spans two companies", async (t) => {
  const db = await connect(t, await testDatabase(t, "tpl_example"));
  const seed = fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8");
  await db.query(seed);
  const count = async () =>
    (await db.query(`SELECT count(*)::int AS n, count(DISTINCT "companyId")::int AS companies FROM "user"`))
      .rows[0];
  const first = await count();
  await db.query(seed);
  t.same(await count(), first);
  t.equal(first.companies, 2);
});
