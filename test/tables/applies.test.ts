// Every golden case, run against real Postgres: the fresh DDL applies to an empty database, and a
// migration applied on top of the previous schema yields exactly the catalog (columns, types,
// defaults, constraints, indexes) that creating the new schema from scratch does.

import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import t from "tap";
import type { Table } from "../../generator/schema/types.ts";
import { createDatabaseSql, planMigration, toSqlScript } from "../../generator/tables/index.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { goldenCases } from "../harness/golden.ts";
import { normaliseTables, readFixture } from "./helpers.ts";

function readSchema(file: string): { database: Table[]; extensions: string[] } {
  let raw = JSON.parse(fs.readFileSync(file, "utf8"));
  if (typeof raw.$fixture === "string") raw = readFixture(raw.$fixture);
  return { database: normaliseTables(raw.database), extensions: raw.extensions ?? [] };
}

/** What the public schema looks like, independent of the order things were created in. */
async function catalog(db: pg.Client) {
  const q = async (sql: string) => (await db.query(sql)).rows;
  return {
    columns: await q(`SELECT table_name, column_name, data_type, character_maximum_length, numeric_precision,
        numeric_scale, is_nullable, column_default, is_identity, col_description(
          format('%I.%I', table_schema, table_name)::regclass, ordinal_position) AS comment
      FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`),
    // Postgres 18 lists NOT NULL as constraints with generated names; nullability is compared above.
    constraints:
      await q(`SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND contype <> 'n' ORDER BY 1, 2`),
    indexes: await q(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`,
    ),
    tables: await q(`SELECT relname, obj_description(oid, 'pg_class') AS comment FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1`),
  };
}

const cases = goldenCases("tables");

for (const { name, dir } of cases) {
  t.test(name, async (t) => {
    const next = readSchema(path.join(dir, "schema.json"));
    const fresh = await connect(t, await testDatabase(t));
    await fresh.query(createDatabaseSql(next.database, next.extensions));
    const previousFile = path.join(dir, "previous.json");
    if (!fs.existsSync(previousFile)) {
      t.pass("the fresh DDL applies");
      return;
    }
    const previous = readSchema(previousFile);
    const optionsFile = path.join(dir, "options.json");
    const options = fs.existsSync(optionsFile) ? JSON.parse(fs.readFileSync(optionsFile, "utf8")) : {};
    const plan = planMigration(previous.database, next.database, {
      allowDataLoss: false,
      ...options,
      extensionsBefore: previous.extensions,
      extensionsAfter: next.extensions,
    });
    if (plan.refusals.length > 0) {
      t.equal(plan.statements.length, 0, "a refused plan has nothing to apply");
      return;
    }
    const migrated = await connect(t, await testDatabase(t));
    await migrated.query(createDatabaseSql(previous.database, previous.extensions));
    await migrated.query(`BEGIN; ${toSqlScript(plan.statements)} COMMIT;`);
    t.same(await catalog(migrated), await catalog(fresh), "migrating equals creating from scratch");
  });
}
