// The API layer generator on its own (no database): condition compilation, global types, names,
// determinism.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import {
  apiLayerStatements,
  type ConditionEnv,
  castTypeOf,
  compileConditions,
  escapeLike,
  inferGlobalTypes,
  policyName,
  substituteMentions,
} from "../../generator/api/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Column, Schema, WhereCondition } from "../../generator/schema/types.ts";
import { ident, sql, trusted } from "../../generator/sql/sql.ts";

const example = (): Schema => {
  const file = path.resolve(import.meta.dirname, "../../example/api.schema.json");
  const schema = loadSchema(JSON.parse(fs.readFileSync(file, "utf8"))).schema;
  if (!schema) throw new Error("the example schema does not load");
  return schema;
};

const col = (name: string, type: Column["type"], extra: Partial<Column> = {}): Column => ({
  name,
  type,
  isNullable: true,
  roles: [],
  scopes: [],
  ...extra,
});

const columns = [
  col("id", "BIGINT"),
  col("title", "VARCHAR", { length: 20 }),
  col("amount", "DECIMAL", { value: "10,2" }),
  col("done", "BOOLEAN"),
  col("at", "DATETIME"),
];
const env: ConditionEnv = {
  column: (_table, name) => columns.find((c) => c.name === name),
  global: (name, column, inRawSql) =>
    sql`G(${ident(name)}:${column ? ident(castTypeOf(column)) : trusted(`raw=${inRawSql}`)})`,
};
const compile = (...list: WhereCondition[]) => compileConditions(list, env).toString();
const c = (
  columnName: string,
  operator: WhereCondition["operator"],
  value: WhereCondition["value"],
  extra: Partial<WhereCondition> = {},
): WhereCondition => ({
  tableName: "t",
  columnName,
  operator,
  value,
  ...extra,
});

t.test("comparisons, IS, IN", async (t) => {
  t.equal(compile(c("id", "=", "#companyId")), `("t"."id" = G("companyId":"bigint"))`);
  t.equal(compile(c("id", "!=", 5)), `("t"."id" <> 5)`);
  t.equal(compile(c("title", "<", "'it''s'")), `("t"."title" < 'it''s')`);
  t.equal(compile(c("done", "IS", true)), `("t"."done" IS TRUE)`);
  t.equal(compile(c("done", "IS NOT", null)), `("t"."done" IS NOT NULL)`);
  t.equal(compile(c("title", "IN", ["'a'", "'b'"])), `("t"."title" IN ('a', 'b'))`);
  t.equal(compile(c("id", "NOT IN", [1, 2])), `("t"."id" NOT IN (1, 2))`);
  t.equal(compile(c("id", ">=", `"t"."amount"`)), `("t"."id" >= "t"."amount")`);
  t.equal(compile(), "true");
});

t.test("globals are cast to the column's type without length or precision", async (t) => {
  t.equal(castTypeOf(columns[1] as Column), "text", "varchar(20) -> text, never truncating");
  t.equal(castTypeOf(columns[2] as Column), "numeric", "numeric(10,2) -> numeric, never rounding");
  t.equal(castTypeOf(columns[4] as Column), "timestamptz");
  t.equal(castTypeOf(col("e", "ENUM", { value: "'a','b'" })), "text");
});

t.test("LIKE family: case-insensitive, % and _ literal", async (t) => {
  t.equal(compile(c("title", "LIKE", "'50%_off\\'")), `("t"."title" ILIKE '%50\\%\\_off\\\\%')`);
  t.equal(compile(c("title", "NOT LIKE", "'x'")), `("t"."title" NOT ILIKE '%x%')`);
  t.equal(compile(c("title", "STARTS WITH", "'x'")), `("t"."title" ILIKE 'x%')`);
  t.equal(compile(c("title", "ENDS WITH", "'x'")), `("t"."title" ILIKE '%x')`);
  t.equal(compile(c("id", "LIKE", 12)), `("t"."id"::text ILIKE '%12%')`, "non-text columns compare as text");
  t.equal(
    compile(c("title", "STARTS WITH", "#prefix")),
    `("t"."title" ILIKE api.like_literal(G("prefix":raw=false)) || '%')`,
    "a global pattern is escaped at run time, as text",
  );
  t.equal(escapeLike("a%b_c\\d"), "a\\%b\\_c\\\\d");
});

t.test("conjunctions: AND binds tighter than OR", async (t) => {
  t.equal(
    compile(
      c("id", "=", 1),
      c("id", "=", 2, { conjunction: "OR" }),
      c("done", "IS", true, { conjunction: "AND" }),
    ),
    `(("t"."id" = 1) OR ("t"."id" = 2) AND ("t"."done" IS TRUE))`,
  );
  t.equal(compile(c("id", "=", 1), c("done", "IS", false)), `(("t"."id" = 1) AND ("t"."done" IS FALSE))`);
});

t.test("custom SQL: #global replaced outside strings, identifiers and comments", async (t) => {
  const custom = `"t"."id" = #companyId AND x = '#notMe' AND "#id" > 0 -- #comment\n AND y = $$#dollar$$ AND z #> '{a}' = 1`;
  t.equal(
    compile({ custom }),
    `("t"."id" = G("companyId":raw=true) AND x = '#notMe' AND "#id" > 0 -- #comment\n AND y = $$#dollar$$ AND z #> '{a}' = 1)`,
  );
  t.throws(
    () => compile({ custom: "a = $id" }),
    /request parameters/,
    "no $params where there is no request",
  );
  const replaced = substituteMentions("#a + $b", (kind, name) => trusted(`<${kind}:${name}>`));
  t.equal(replaced.toString(), "<global:a> + <param:b>");
});

t.test("global types are inferred from the schema's comparisons and assignments", async (t) => {
  const types = inferGlobalTypes(example());
  t.equal(types.get("companyId"), "bigint");
  t.equal(types.get("userId"), "bigint");
});

t.test("conflicting uses: widest integer, else text", async (t) => {
  const schema = example();
  const user = schema.database.find((x) => x.name === "user");
  user?.policies.push({
    name: "x",
    roles: [],
    scopes: [],
    where: [{ tableName: "user", columnName: "id", operator: "=", value: "#other" }],
  });
  const tag = schema.database.find((x) => x.name === "tag");
  tag?.columns.push(col("small", "SMALLINT"));
  tag?.policies.push({
    name: "y",
    roles: [],
    scopes: [],
    where: [
      { tableName: "tag", columnName: "small", operator: "=", value: "#other" },
      { tableName: "tag", columnName: "name", operator: "=", value: "#mixed" },
      { tableName: "tag", columnName: "small", operator: "=", value: "#mixed" },
    ],
  });
  const types = inferGlobalTypes(schema);
  t.equal(types.get("other"), "bigint");
  t.equal(types.get("mixed"), "text");
});

t.test("policy names: prefixed, at most 63 bytes, distinct", async (t) => {
  t.equal(policyName("same company"), "api_same company");
  const long = policyName("x".repeat(70));
  t.ok(Buffer.byteLength(long) <= 63);
  t.not(long, policyName(`${"x".repeat(69)}y`));
});

t.test("the layer is deterministic and in the documented order", async (t) => {
  const a = apiLayerStatements(example(), ["-- runtime"], ["-- extra"]);
  t.same(a, apiLayerStatements(example(), ["-- runtime"], ["-- extra"]));
  const at = (re: RegExp) => a.findIndex((s) => re.test(s));
  const order = [
    at(/^SET LOCAL search_path/),
    at(/CREATE ROLE "api_owner"/),
    at(/^DROP SCHEMA IF EXISTS "api" CASCADE/),
    at(/^CREATE SCHEMA "api"$/),
    at(/^GRANT USAGE, CREATE ON SCHEMA "api" TO "api_owner"/),
    at(/^-- runtime/),
    at(/^CREATE VIEW "api"."company"/),
    at(/^CREATE POLICY "api_same_company" ON "public"."company"/),
    at(/^-- extra/),
    at(/^GRANT SELECT ON TABLE "api"."company"/),
    at(/^REVOKE CREATE ON SCHEMA "api" FROM "api_owner"/),
    at(/REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, %I/),
  ];
  t.ok(
    order.every((i) => i >= 0),
    "every step is there",
  );
  t.same(
    order,
    [...order].sort((x, y) => x - y),
    "in order",
  );
});
