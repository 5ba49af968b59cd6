// What the route compiler proves about row counts (generator/routes/unique.ts): which ONE routes
// read their row with SELECT INTO and FOUND, and which must count to tell one row from several.
// A wrong "at most one" would turn a 409 into an arbitrary row, so every way out is tested.

import t from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { QueryScope } from "../../generator/routes/scope.ts";
import { joinsOneRow, returnsAtMostOneRow } from "../../generator/routes/unique.ts";
import type { Column, Index, Join, Schema, Table, WhereCondition } from "../../generator/schema/types.ts";

const column = (name: string, extra: Partial<Column> = {}): Column => ({
  name,
  type: "BIGINT",
  isNullable: false,
  roles: [],
  scopes: [],
  ...extra,
});

const table = (name: string, columns: Column[], indexes: Index[] = []): Table => ({
  name,
  columns,
  indexes,
  foreignKeys: [],
  checkConstraints: [],
  roles: [],
  scopes: [],
  policies: [],
});

const schema: Schema = {
  database: [
    table(
      "member",
      [
        column("id", { isPrimary: true }),
        column("email", { type: "TEXT", isUnique: true }),
        column("teamId"),
        column("seat"),
        column("badge"),
        column("nickname", { type: "TEXT" }),
      ],
      [
        {
          name: "member_team_seat",
          columns: [{ column: "teamId" }, { column: "seat" }],
          isUnique: true,
          isPrimaryKey: false,
        },
        {
          name: "member_badge_active",
          columns: [{ column: "badge" }],
          isUnique: true,
          isPrimaryKey: false,
          where: '"seat" > 0',
        },
      ],
    ),
    table("team", [column("id", { isPrimary: true }), column("name", { type: "TEXT" })]),
    table("note", [column("id", { isPrimary: true }), column("memberId")]),
  ],
  endpoints: [],
  customTypes: [],
  globalParams: ["userId"],
  roles: [],
  scopes: [],
  extensions: [],
};

const model = buildModel(schema);
const scope = () => {
  const s = new QueryScope(model);
  s.add("member", "member");
  return s;
};
const eq = (
  columnName: string,
  value: WhereCondition["value"],
  extra: Partial<WhereCondition> = {},
): WhereCondition => ({
  tableName: "member",
  columnName,
  operator: "=",
  value,
  ...extra,
});
const teamJoin: Join = {
  table: "team",
  alias: "team",
  type: "LEFT",
  localColumnName: "teamId",
  foreignColumnName: "id",
};
const notesJoin: Join = {
  table: "note",
  alias: "note",
  type: "LEFT",
  localColumnName: "id",
  foreignColumnName: "memberId",
};
const oneRow = (where: WhereCondition[], joins: Join[] = [], groupBy?: unknown) =>
  returnsAtMostOneRow({ where, joins, ...(groupBy ? { groupBy } : {}) }, scope());

t.test("a where that pins a unique key returns at most one row", async (t) => {
  t.ok(oneRow([eq("id", "$id")]), "primary key = $param");
  t.ok(oneRow([eq("id", "#userId")]), "primary key = #global");
  t.ok(oneRow([eq("id", 7)]), "primary key = number");
  t.ok(oneRow([eq("email", "'a@b.c'")]), "unique column = literal");
  t.ok(oneRow([eq("teamId", "$team"), eq("seat", "$seat")]), "every column of a unique index");
  t.ok(oneRow([eq("nickname", "$n"), eq("id", "$id")]), "more conditions than the key");
  t.ok(oneRow([eq("id", "$id")], [teamJoin]), "a join on the joined table's key");
});

t.test("anything else may return several rows", async (t) => {
  t.notOk(oneRow([]), "no where");
  t.notOk(oneRow([eq("nickname", "$n")]), "a column that is not unique");
  t.notOk(oneRow([eq("teamId", "$team")]), "part of a composite key");
  t.notOk(oneRow([eq("badge", "$b")]), "a partial unique index");
  t.notOk(oneRow([eq("id", "$a"), eq("id", "$b", { conjunction: "OR" })]), "an OR");
  t.notOk(oneRow([eq("id", "$id", { operator: ">" })]), "not =");
  t.notOk(oneRow([eq("id", ["1", "2"], { operator: "IN" })]), "IN a list");
  t.notOk(oneRow([eq("id", '"member"."teamId"')]), "a column reference");
  t.notOk(oneRow([eq("id", null)]), "NULL");
  t.notOk(oneRow([{ custom: '"member"."id" = $id' }]), "raw SQL");
  t.notOk(oneRow([eq("id", "$id", { tableName: "team" })]), "a key of another table");
  t.notOk(oneRow([eq("id", "$id")], [notesJoin]), "a join that adds rows");
  t.notOk(oneRow([eq("id", "$id")], [{ ...teamJoin, type: "RIGHT" }]), "a RIGHT join");
  t.notOk(
    oneRow([eq("id", "$id")], [{ table: "team", alias: "team", type: "LEFT", custom: "true" }]),
    "a raw join",
  );
  t.notOk(oneRow([eq("id", "$id")], [], { tableName: "member", columnName: "teamId" }), "grouped");
});

t.test("joins that add at most one row", async (t) => {
  const team = model.table("team").table;
  const member = model.table("member").table;
  t.ok(joinsOneRow(teamJoin, team), "on the primary key");
  t.ok(
    joinsOneRow({ ...teamJoin, table: "member", foreignColumnName: "email" }, member),
    "on a unique column",
  );
  t.notOk(
    joinsOneRow({ ...teamJoin, table: "member", foreignColumnName: "badge" }, member),
    "on a partial unique index",
  );
  t.notOk(
    joinsOneRow({ ...teamJoin, table: "member", foreignColumnName: "teamId" }, member),
    "on part of a key",
  );
});
