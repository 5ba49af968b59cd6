// Which PAGED routes take the keys-first path (generator/routes/kinds/pagedKeys.ts): it chooses
// rows over the tables without their column masks, so it must be refused wherever choosing rows
// could read a hidden column or the page's rows are not one per key. Each refusal is tested.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { routeStatements } from "../../generator/routes/index.ts";
import { isScalarSubquery } from "../../generator/routes/rawSql.ts";
import { loadSchema } from "../../generator/schema/index.ts";

const base = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../golden/routes/paged/schema.json"), "utf8"),
);
// The golden route has a raw selector that is not a scalar subquery; without it the route fits.
const fits = (schema: typeof base) => {
  const route = schema.endpoints[0].routes[0];
  route.response = route.response.filter((p: { name: string }) => p.name !== "emailDomain");
  return route;
};

function keysFirst(change: (route: ReturnType<typeof fits>) => void): boolean {
  const raw = structuredClone(base);
  change(fits(raw));
  const loaded = loadSchema(raw);
  if (!loaded.schema) throw new Error(JSON.stringify(loaded.errors));
  const sql = routeStatements(loaded.schema).join("\n");
  const helper = sql.includes(`CREATE FUNCTION "api"."PAGE /api/v1/user"`);
  if (helper !== sql.includes(`"api"."PAGE /api/v1/user"($1, $2, ARRAY(`))
    throw new Error("the helper and its call come together");
  return helper;
}

t.ok(
  keysFirst(() => {}),
  "a route whose where, joins and order read visible columns",
);
t.ok(
  keysFirst((r) =>
    r.response.push({ name: "n", selector: '(SELECT count(*) FROM "company")', type: "number" }),
  ),
  "a raw selector that is a scalar subquery",
);
t.notOk(
  keysFirst((r) =>
    r.response.push({ name: "d", selector: 'split_part("user"."email", \'@\', 2)', type: "string" }),
  ),
  "another raw selector (it could return several rows)",
);
t.notOk(
  keysFirst((r) => {
    r.orderBy = { tableName: "user", columnName: "lastLoginOn", order: "DESC" };
  }),
  "ordered by a column with rules",
);
t.notOk(
  keysFirst((r) =>
    r.where.push({ tableName: "user", columnName: "lastLoginOn", operator: "IS NOT", value: null }),
  ),
  "a where on a column with rules",
);
t.notOk(
  keysFirst((r) =>
    r.where.push({ tableName: "user", columnName: "email", operator: "=", value: '"user"."lastLoginOn"' }),
  ),
  "a where comparing with a column with rules",
);
t.notOk(
  keysFirst((r) => r.where.push({ custom: "true" })),
  "raw SQL in the where",
);
t.notOk(
  keysFirst((r) => {
    r.joins[0].custom = '"c"."id" = "user"."companyId"';
    delete r.joins[0].localColumnName;
    delete r.joins[0].foreignColumnName;
  }),
  "a raw join condition",
);
t.notOk(
  keysFirst((r) => {
    r.joins[0].foreignColumnName = "name";
    r.joins[0].localColumnName = "email";
  }),
  "a join that may add rows",
);

t.test("scalar subqueries", async (t) => {
  t.ok(isScalarSubquery("((SELECT count(*) FROM \"task\" WHERE x = ')'))"));
  t.notOk(isScalarSubquery("((SELECT 1) + (SELECT 2))"), "two subqueries");
  t.notOk(isScalarSubquery("(unnest(ARRAY[1, 2]))"), "a set-returning call");
  t.notOk(isScalarSubquery("((SELECT 1)"), "unbalanced");
});
