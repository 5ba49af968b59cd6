// Pure parts of the route compiler: function names, raw SQL mentions, the dollar-quote tag, LIKE
// escaping, where precedence. No database.

import t from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { dollarTag } from "../../generator/routes/function.ts";
import { routeFunctionName } from "../../generator/routes/index.ts";
import { mentionsOf, rawSql } from "../../generator/routes/rawSql.ts";
import { QueryScope } from "../../generator/routes/scope.ts";
import { escapeLike } from "../../generator/routes/values.ts";
import { whereSql } from "../../generator/routes/where.ts";
import { sqlMentions } from "../../generator/schema/index.ts";
import type { Schema, WhereCondition } from "../../generator/schema/types.ts";

const schema: Schema = {
  database: [
    {
      name: "user",
      columns: [
        { name: "id", type: "BIGSERIAL", isNullable: false, roles: [], scopes: [], isPrimary: true },
        { name: "createdOn", type: "DATETIME", isNullable: false, roles: [], scopes: [] },
        { name: "name", type: "VARCHAR", length: 20, isNullable: false, roles: [], scopes: [] },
        { name: "doc", type: "JSON", isNullable: false, roles: [], scopes: [] },
      ],
      indexes: [],
      foreignKeys: [],
      checkConstraints: [],
      roles: [],
      scopes: [],
      policies: [],
    },
  ],
  endpoints: [],
  customTypes: [],
  globalParams: [],
  roles: [],
  scopes: [],
  extensions: [],
};

function scope(): QueryScope {
  const s = new QueryScope(buildModel(schema));
  s.add("user", "user");
  return s;
}

t.test("routeFunctionName", async (t) => {
  t.equal(
    routeFunctionName({ method: "GET", path: "/user/:id" }, { baseUrl: "/api/v1" }),
    "GET /api/v1/user/:id",
  );
  t.equal(routeFunctionName({ method: "GET", path: "/" }, { baseUrl: "/api/v1" }), "GET /api/v1");
  const long = (tail: string) =>
    routeFunctionName(
      { method: "GET", path: `/a-very-long-path-segment/that-goes-on/and-on/${tail}` },
      { baseUrl: "/api/v1" },
    );
  const a = long("and-on-forever-a");
  const b = long("and-on-forever-b");
  t.equal(Buffer.byteLength(a), 63);
  t.match(a, /^GET \/api\/v1\/a-very-long-path-segment\/that-goes-on\/.* [0-9a-f]{8}$/);
  t.not(a, b, "names differing only past the cut stay distinct");
  t.equal(a, long("and-on-forever-a"), "deterministic");
  const wide = routeFunctionName({ method: "GET", path: `/${"é".repeat(40)}` }, { baseUrl: "/api/v1" });
  t.ok(Buffer.byteLength(wide) <= 63, "multi-byte characters are never cut in half");
  t.match(wide, /^GET \/api\/v1\/é+ [0-9a-f]{8}$/);
});

t.test("raw SQL mentions", async (t) => {
  const r = (text: string) => rawSql(text, scope()).toString();
  t.equal(r("lower($name)"), "lower(($1->>'name'))");
  t.equal(r("#companyId"), "($2->>'companyId')");
  t.equal(r(`"user"."id" = $id`), `"user"."id" = ($1->>'id')::bigint`, "compared with a column: its type");
  t.equal(r(`$since<"user"."createdOn"`), `($1->>'since')::timestamptz<"user"."createdOn"`, "either side");
  t.equal(r(`"user"."name" <> #me`), `"user"."name" <> ($2->>'me')`, "text columns need no cast");
  t.equal(r(`"user"."doc" = $d`), `"user"."doc" = ($1->'d')`, "JSON columns compare as jsonb");
  t.equal(r(`"user"."id" + $n`), `"user"."id" + ($1->>'n')`, "not a comparison: text");
  t.equal(r(`"nope"."id" = $n`), `"nope"."id" = ($1->>'n')`, "unknown column: text");
  t.equal(r(`$x = "user"."id"."more"`), `($1->>'x') = "user"."id"."more"`, "not a column reference");
  const untouched = [
    "'$a' || '#b'",
    `"$a" AND "#b"`,
    "x -- $a #b\n",
    "/* $a #b */",
    "$$ $a $$ || $q$ #b $q$",
    "$1 + $2",
    "data #>> '{a}'",
    "'it''s $a'",
  ];
  for (const text of untouched) t.equal(r(text), text, text);
  t.equal(r("$tag$ unclosed $a"), "($1->>'tag')$ unclosed ($1->>'a')", "an unclosed tag is a mention");
  const samples = [
    ...untouched,
    "EXISTS (SELECT 1 FROM t WHERE t.a = $a AND t.b = #b) -- $c",
    "a$b + #c#d",
    `"a""$b" $c`,
  ];
  for (const text of samples)
    t.same(mentionsOf(text), sqlMentions(text), `same mentions as the loader: ${text}`);
});

t.test("dollarTag avoids the body's text", async (t) => {
  t.equal(dollarTag("SELECT 1"), "$fn$");
  t.equal(dollarTag("SELECT '$fn$'"), "$fn1$");
  t.equal(dollarTag("SELECT '$fn$ $fn1$'"), "$fn2$");
});

t.test("escapeLike", async (t) => {
  t.equal(escapeLike("100% of a_b \\ c"), "100\\% of a\\_b \\\\ c");
});

t.test("where: AND binds tighter than OR", async (t) => {
  const c = (columnName: string, conjunction?: "AND" | "OR"): WhereCondition => ({
    tableName: "user",
    columnName,
    operator: "IS",
    value: null,
    ...(conjunction ? { conjunction } : {}),
  });
  const w = (list: WhereCondition[]) => whereSql(list, scope())?.toString();
  t.equal(w([]), undefined);
  t.equal(w([c("id")]), `"user"."id" IS NULL`);
  t.equal(w([c("id"), c("name", "OR")]), `"user"."id" IS NULL OR "user"."name" IS NULL`);
  t.equal(
    w([c("id"), c("name"), c("doc", "OR"), c("createdOn")]),
    `("user"."id" IS NULL AND "user"."name" IS NULL) OR ("user"."doc" IS NULL AND "user"."createdOn" IS NULL)`,
  );
  t.equal(
    w([{ custom: "a OR b" }, c("id")]),
    `(a OR b) AND "user"."id" IS NULL`,
    "custom SQL is parenthesised",
  );
  t.equal(
    w([{ tableName: "user", columnName: "name", operator: "STARTS WITH", value: "'50%_'" }]),
    `"user"."name" ILIKE '50\\%\\_%'`,
  );
  t.equal(
    w([{ tableName: "user", columnName: "id", operator: "NOT IN", value: [1, 2] }]),
    `"user"."id" NOT IN (1, 2)`,
  );
});
