// The Restura fixture migrates unchanged into an empty database, and a second run does nothing.

import fs from "node:fs";
import t from "tap";
import { migrateApp } from "../../db/migrate.ts";
import { scratchApp } from "../harness/app.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { RESTURA_FIXTURE } from "../harness/templates.ts";

t.test("the Restura fixture migrates into an empty database, and again changes nothing", async (t) => {
  const url = await testDatabase(t);
  // As a Restura file: its undeclared route roles are warnings there, errors in an api.schema.json.
  const app = scratchApp(t);
  fs.copyFileSync(RESTURA_FIXTURE, `${app.dir}/restura.schema.json`);

  const first = await migrateApp({ appDir: app.dir, url });
  t.equal(first.written, "0001_initial.sql");
  t.same(first.applied, ["0001_initial.sql"]);
  t.ok(first.warnings.length > 0, "the fixture's undeclared roles and bare-word value are warnings");

  const db = await connect(t, url);
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  t.same(
    rows.map((r) => r.table_name),
    ["company", "item", "order", "user"],
  );
  const cols = await db.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = 'user' AND column_name IN ('firstName','role','metadata','birthDate','createdOn')
     ORDER BY column_name`,
  );
  t.same(cols.rows, [
    { column_name: "birthDate", data_type: "date" },
    { column_name: "createdOn", data_type: "timestamp with time zone" },
    { column_name: "firstName", data_type: "character varying" },
    { column_name: "metadata", data_type: "jsonb" },
    { column_name: "role", data_type: "text" },
  ]);
  // The ENUM check holds in the database.
  await db.query(`INSERT INTO "company" ("name") VALUES ('Acme')`);
  await t.rejects(
    db.query(
      `INSERT INTO "user" ("firstName","lastName","companyId","password","email","role") VALUES ('a','b',1,'x','a@b.c','owner')`,
    ),
    { code: "23514" },
  );

  const second = await migrateApp({ appDir: app.dir, url });
  t.same(second, { written: undefined, applied: [], warnings: first.warnings });
  t.same(app.migrations(), ["0001_initial.sql"]);
});
