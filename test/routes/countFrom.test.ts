// A count of a route's rows under its own where leaves out the LEFT joins on a unique key that
// nothing it evaluates reads (generator/routes/select.ts countFrom): such a join neither adds nor
// removes rows, and reading the joining column kept Postgres from counting on an index alone.
// Every way a count can read a join keeps it; a join that could add or remove rows is kept. The
// project's INNER join to its company is left out too: the policies and the foreign key imply it
// (generator/routes/impliedJoin.ts, test/routes/impliedJoin.test.ts).

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { Checks } from "../../generator/routes/permissions.ts";
import { compileQuery, type QuerySpec } from "../../generator/routes/select.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Join, ResponseProperty, WhereCondition } from "../../generator/schema/types.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const loaded = loadSchema(JSON.parse(fs.readFileSync(path.join(REPO, "example/api.schema.json"), "utf8")));
if (!loaded.schema) throw new Error("the example schema does not load");
const model = buildModel(loaded.schema);

const company: Join = {
  alias: "companyId_company",
  table: "company",
  type: "INNER",
  localColumnName: "companyId",
  foreignColumnName: "id",
};
const owner: Join = {
  alias: "ownerId_user",
  table: "user",
  type: "LEFT",
  localColumnName: "ownerId",
  foreignColumnName: "id",
};
const name: ResponseProperty = { name: "name", selector: "project.name" };

/** The aliases a count's FROM joins (masked and plain), for a query over projects. */
function counted(spec: Partial<QuerySpec>): { masked: string[]; plain: string[] } {
  const q = compileQuery(
    { table: "project", joins: [company, owner], where: [], properties: [name], ...spec },
    model,
    new Checks(),
    "",
  );
  const aliases = (from: string) =>
    [...from.matchAll(/JOIN .*? AS "([^"]+)" ON/g)].map((m) => m[1] as string);
  const all = aliases(q.from.toString());
  t.same(
    all,
    (spec.joins ?? [company, owner]).map((j) => j.alias),
    "the page's FROM keeps every join",
  );
  return { masked: aliases(q.countFrom.toString()), plain: aliases(q.plainCountFrom.toString()) };
}

t.test("a LEFT join on a unique key that nothing reads is left out", async (t) => {
  t.same(counted({}), { masked: [], plain: [] });
  // What the object reads does not matter to a count.
  t.same(counted({ properties: [name, { name: "owner", selector: "ownerId_user.firstName" }] }).masked, []);
});

t.test("a join the count reads, or that changes the row count, is kept", async (t) => {
  const where = (w: WhereCondition): string[] => counted({ where: [w] }).masked;
  const both = ["ownerId_user"];
  t.same(where({ tableName: "ownerId_user", columnName: "isActive", operator: "=", value: "true" }), both);
  t.same(
    where({ tableName: "project", columnName: "ownerId", operator: "=", value: '"ownerId_user"."id"' }),
    both,
    "a where value that is the join's column",
  );
  t.same(where({ custom: `"ownerId_user"."isActive"` }), both, "raw SQL naming it quoted");
  t.same(where({ custom: "ownerid_user.id IS NULL" }), both, "raw SQL that may name it bare");
  t.same(where({ custom: `'"ownerId_user"'` }), [], "its name in a string is no reference");
  // A raw selector that could change the row count is evaluated by the count, so what it names is read.
  const srf: ResponseProperty = { name: "x", selector: `unnest(ARRAY["ownerId_user"."id"])` };
  t.same(counted({ properties: [name, srf] }).masked, both, "a set-returning raw selector");
  const scalar: ResponseProperty = {
    name: "x",
    selector: `(SELECT count(*) FROM "task" WHERE "task"."assigneeId" = "ownerId_user"."id")`,
  };
  t.same(counted({ properties: [name, scalar] }).masked, [], "a scalar subquery is not");
  t.same(
    counted({ groupBy: { tableName: "ownerId_user", columnName: "id" } }).masked,
    both,
    "the groupBy's column",
  );
  // A join that reaches through it.
  const ownersCompany: Join = {
    alias: "owner_company",
    table: "company",
    type: "LEFT",
    localTableAlias: "ownerId_user",
    localColumnName: "companyId",
    foreignColumnName: "id",
  };
  t.same(counted({ joins: [company, owner, ownersCompany] }).masked, ["ownerId_user"]);
  // Not on a unique key (a project has many tasks): it adds rows.
  const tasks: Join = {
    alias: "t",
    table: "task",
    type: "LEFT",
    localColumnName: "id",
    foreignColumnName: "projectId",
  };
  t.same(counted({ joins: [company, tasks] }).masked, ["t"]);
  // A custom ON: nothing proves it matches at most one row.
  const custom: Join = { alias: "o", table: "user", type: "LEFT", custom: `"o"."id" = "project"."ownerId"` };
  t.same(counted({ joins: [company, custom] }).masked, ["o"]);
  // INNER removes the rows without a match.
  t.same(counted({ joins: [company, { ...owner, type: "INNER" }] }).masked, ["ownerId_user"]);
});
