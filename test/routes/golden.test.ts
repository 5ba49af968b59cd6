// Golden tests: each folder of test/golden/routes holds schema.json (a whole schema file, or
// `{"$fixture": "<path under test/fixtures>"}`) and expected.sql, the route functions it
// compiles to, compared byte for byte. A schema without endpoints gives the runtime helpers.
// UPDATE_GOLDEN=1 rewrites expected.sql, never in CI.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { helperStatements, routeStatements } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import { toSqlScript } from "../../generator/tables/index.ts";
import { FIXTURES_DIR } from "../harness/fixtures.ts";
import { goldenCases, matchesGolden } from "../harness/golden.ts";

const cases = goldenCases("routes");

t.ok(cases.length > 0, "golden cases exist");

for (const { name, dir } of cases) {
  t.test(name, async (t) => {
    let raw = JSON.parse(fs.readFileSync(path.join(dir, "schema.json"), "utf8"));
    if (typeof raw.$fixture === "string") {
      raw = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, raw.$fixture), "utf8"));
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
    matchesGolden(t, dir, actual);
  });
}
