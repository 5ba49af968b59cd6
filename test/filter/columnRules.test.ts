// columnRules: which names a caller may filter and sort a PAGED route by and, when not, why
// (docs/query-language.md, "Errors"). Built from the model's filter columns of the example app's
// project list and the features schema's member routes; no database.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import type { AuthResult } from "../../gateway/auth/types.ts";
import { type ColumnRules, columnRules, REASONS } from "../../gateway/filter/columnRules.ts";
import { routeFilterColumns } from "../../generator/model/filterColumns.ts";
import { buildModel } from "../../generator/model/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema, StandardRoute } from "../../generator/schema/types.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

function rulesFor(schema: Schema, fullPath: string): ColumnRules {
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      if (route.method === "GET" && `${group.baseUrl}${route.path}` === fullPath) {
        return columnRules(buildModel(schema).routeOf(route).filterColumns);
      }
    }
  }
  throw new Error(`no route GET ${fullPath}`);
}

const example = readAppSchema(path.join(REPO, "example")).schema as Schema;
const features = loadSchema(
  JSON.parse(fs.readFileSync(path.join(REPO, "test/routes/features.schema.json"), "utf8")),
).schema as Schema;

const as = (role: string | null, scopes: string[] = []): AuthResult => ({
  user: { role, scopes, globals: {} },
});
const anonymous: AuthResult = { anonymous: true, reason: "missing" };
const member = as("member");
const manager = as("manager");

t.test("the example's project list", async (t) => {
  const rules = rulesFor(example, "/api/v1/project");
  const filter = (column: string, who: AuthResult = member) => rules.why(column, "filter", who);
  const sort = (column: string, who: AuthResult = member) => rules.why(column, "sort", who);

  for (const ok of [
    "status",
    "project.status",
    "companyName",
    "companyId_company.name",
    "ownerId_user.lastName",
  ]) {
    t.equal(filter(ok), null, `filter ${ok}`);
    t.equal(sort(ok), null, `sort ${ok}`);
  }
  t.equal(filter("settings"), null, "a JSON column, whole");
  t.equal(filter("project.settings.color"), null, "a JSON key");
  t.equal(filter("project.settings.a.b"), null, "a JSON key holding dots, as api.filter_sql reads it");
  t.equal(sort("project.settings.color"), REASONS.jsonKeySort);
  t.equal(filter("project.name.x"), REASONS.notJson);

  t.equal(filter("budget"), REASONS.hiddenRole, "a column of the response the role may not see");
  t.equal(filter("project.budget"), REASONS.hiddenRole, "... by table.column");
  t.equal(sort("budget"), REASONS.hiddenRole);
  t.equal(filter("budget", manager), null, "a manager may");
  t.equal(sort("project.budget", manager), null);
  t.equal(filter("budget", anonymous), REASONS.hiddenRole, "anonymous callers have no role");

  t.equal(filter("openTaskCount"), REASONS.computed, "a raw SQL property");
  t.equal(sort("openTaskCount"), null, "... can be sorted");

  t.equal(filter("description"), REASONS.notInResponse, "a column of the base table no property shows");
  t.equal(filter("project.companyId"), REASONS.notInResponse);
  t.equal(filter("ownerId_user.passwordHash"), REASONS.notInResponse, "a joined table's column, by alias");
  t.equal(filter("passwordHash"), REASONS.notInResponse, "... by its bare name");
  t.equal(filter("user.email"), REASONS.notInResponse, "... by its table name (joined once)");
  t.equal(sort("ownerId_user.passwordHash"), REASONS.notInResponse);
  t.equal(filter("ownerId_user.passwordHash.x"), REASONS.notInResponse, "a key of a column not shown");

  t.equal(filter("stauts"), `${REASONS.unknown} (did you mean "status"?)`);
  t.equal(sort("dueDte"), `${REASONS.unknown} (did you mean "dueDate"?)`);
  t.equal(filter("nothingLikeIt"), REASONS.unknown);
  t.equal(filter("budgte"), REASONS.unknown, "never suggests a column hidden from the caller");
  t.equal(filter("budgte", manager), `${REASONS.unknown} (did you mean "budget"?)`);
  t.equal(filter("openTaskCont"), REASONS.unknown, "never suggests what cannot be filtered");
  t.equal(sort("openTaskCont"), `${REASONS.unknown} (did you mean "openTaskCount"?)`);
  t.equal(
    filter("settings.color"),
    `${REASONS.unknown} (did you mean "project.settings.color"? a JSON key needs table.column.jsonKey)`,
  );
  t.equal(sort('id"; DROP TABLE project; --'), REASONS.unknown);
});

t.test("the features schema: scopes, subqueries, grouping", async (t) => {
  const paged = rulesFor(features, "/api/v1/member/paged");
  const admin = as("admin");
  t.equal(paged.why("salary", "filter", as("member")), REASONS.hiddenRole);
  t.equal(paged.why("salary", "filter", admin), null);
  t.equal(paged.why("tags", "filter", admin), REASONS.subquery);
  t.equal(paged.why("tags", "sort", admin), REASONS.subquery);
  t.equal(paged.why("member.teamId", "filter", admin), REASONS.notInResponse);
  t.equal(paged.why("t.secret", "filter", admin), REASONS.notInResponse, "a joined column no property shows");
  t.equal(paged.why("member.profile.city", "filter", as("member")), null);

  const grouped = rulesFor(features, "/api/v1/member/per-team");
  t.equal(grouped.why("members", "sort", admin), null, "a raw property");
  t.equal(grouped.why("members", "filter", admin), REASONS.computed);
  t.equal(grouped.why("member.teamId", "sort", admin), null, "the groupBy column");
  t.equal(grouped.why("teamId", "filter", admin), null);
});

t.test("a column rule by scopes says so", async (t) => {
  const schema = loadSchema(
    JSON.parse(fs.readFileSync(path.join(REPO, "test/routes/features.schema.json"), "utf8")),
  ).schema as Schema;
  // The team list shows budget (scopes: finance); make it PAGED to get its column map.
  const group = schema.endpoints[0];
  const team = group?.routes.find((r) => r.method === "GET" && r.path === "/team") as StandardRoute;
  t.ok(team, "GET /team exists");
  const model = buildModel(schema);
  const rules = columnRules(routeFilterColumns({ ...team, type: "PAGED" }, model.table));
  t.equal(rules.why("budget", "filter", as("admin")), REASONS.hiddenScopes);
  t.equal(rules.why("budget", "filter", as("admin", ["finance"])), null);
});
