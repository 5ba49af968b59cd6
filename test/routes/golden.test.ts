// Golden tests: each folder of test/golden/routes holds schema.json (a whole schema file, or
// `{"$fixture": "<path under shared/fixtures>"}`) and expected.sql, the route functions it
// compiles to, compared byte for byte. A schema without endpoints gives the runtime helpers.
// UPDATE_GOLDEN=1 rewrites expected.sql, never in CI.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { helperStatements, routeStatements } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import { toSqlScript } from "../../generator/tables/index.ts";
import { SHARED } from "../harness/templates.ts";

const GOLDEN_DIR = fileURLToPath(new URL("../golden/routes/", import.meta.url));
const update = process.env.UPDATE_GOLDEN === "1" && !process.env.CI;

const cases = fs
  .readdirSync(GOLDEN_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

t.ok(cases.length > 0, "golden cases exist");

for (const name of cases) {
  t.test(name, async (t) => {
    const dir = path.join(GOLDEN_DIR, name);
    let raw = JSON.parse(fs.readFileSync(path.join(dir, "schema.json"), "utf8"));
    if (typeof raw.$fixture === "string") {
      raw = JSON.parse(fs.readFileSync(path.join(SHARED, "fixtures", raw.$fixture), "utf8"));
    }
    const loaded = loadSchema(raw);
    if (!loaded.schema) throw new Error(`${name}: ${JSON.stringify(loaded.errors)}`);
    const statements =
      loaded.schema.endpoints.length === 0 ? helperStatements() : routeStatements(loaded.schema);
    const actual = toSqlScript(statements);
    const reordered = loadSchema({
      ...raw,
      endpoints: [...(raw.endpoints ?? [])].reverse().map((g: { routes?: unknown[] }) => ({
        ...g,
        routes: [...(g.routes ?? [])].reverse(),
      })),
    }).schema;
    if (reordered)
      t.equal(
        toSqlScript(routeStatements(reordered)),
        toSqlScript(routeStatements(loaded.schema)),
        "route order in the file does not matter",
      );
    const expectedFile = path.join(dir, "expected.sql");
    if (update) {
      fs.writeFileSync(expectedFile, actual);
      t.pass("expected.sql rewritten");
      return;
    }
    if (!fs.existsSync(expectedFile)) {
      t.fail(`${name}/expected.sql is missing: run with UPDATE_GOLDEN=1 to write it`);
      return;
    }
    t.equal(actual, fs.readFileSync(expectedFile, "utf8"), "matches expected.sql");
  });
}
