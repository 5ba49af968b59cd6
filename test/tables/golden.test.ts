// Golden tests: each folder of test/golden/tables holds schema.json (a `database` array and
// optional `extensions`; `{"$fixture": "<path under test/fixtures>"}` loads a fixture instead), optionally
// previous.json (same shape: the case is then a migration) and options.json ({allowDataLoss, app}),
// and expected.sql, compared byte for byte. UPDATE_GOLDEN=1 rewrites expected.sql, never in CI.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import type { Table } from "../../generator/schema/types.ts";
import {
  createDatabaseSql,
  type MigrationPlan,
  planMigration,
  toSqlScript,
} from "../../generator/tables/index.ts";
import { goldenCases, matchesGolden } from "../harness/golden.ts";
import { normaliseTables, readFixture } from "./helpers.ts";

interface SchemaFile {
  database: Table[];
  extensions: string[];
}

function readSchema(file: string): SchemaFile {
  let raw = JSON.parse(fs.readFileSync(file, "utf8"));
  if (typeof raw.$fixture === "string") raw = readFixture(raw.$fixture);
  return { database: normaliseTables(raw.database), extensions: raw.extensions ?? [] };
}

/** A migration plan as a commented SQL script: refusals and preconditions first. */
function renderPlan(plan: MigrationPlan): string {
  const header = [
    `-- title: ${plan.title || "(no change)"}`,
    ...plan.changes.map((c) => `-- change: ${c}`),
    ...plan.refusals.map((r) => `-- refused: ${r.path}: ${r.message}`),
    ...plan.preconditions.flatMap((p) => [`-- precondition: ${p.path}: ${p.message}`, `--   ${p.sql}`]),
  ];
  const script = toSqlScript(plan.statements);
  return `${header.join("\n")}\n${script ? `\n${script}` : ""}`;
}

const cases = goldenCases("tables");

t.ok(cases.length > 0, "golden cases exist");

for (const { name, dir } of cases) {
  t.test(name, async (t) => {
    const next = readSchema(path.join(dir, "schema.json"));
    const previousFile = path.join(dir, "previous.json");
    const optionsFile = path.join(dir, "options.json");
    let actual: string;
    if (fs.existsSync(previousFile)) {
      const previous = readSchema(previousFile);
      const options = fs.existsSync(optionsFile) ? JSON.parse(fs.readFileSync(optionsFile, "utf8")) : {};
      const plan = planMigration(previous.database, next.database, {
        allowDataLoss: false,
        ...options,
        extensionsBefore: previous.extensions,
        extensionsAfter: next.extensions,
      });
      actual = renderPlan(plan);
    } else {
      actual = createDatabaseSql(next.database, next.extensions);
      const plan = planMigration(null, next.database, {
        allowDataLoss: false,
        extensionsAfter: next.extensions,
      });
      t.equal(toSqlScript(plan.statements), actual, "planMigration(null, ...) creates the same database");
      const again = planMigration(next.database, next.database, {
        allowDataLoss: false,
        extensionsBefore: next.extensions,
        extensionsAfter: next.extensions,
      });
      t.same(again.statements, [], "migrating a schema to itself changes nothing");
    }
    matchesGolden(t, dir, actual);
  });
}
