import t from "tap";
import {
  classifyValue,
  customTypeNames,
  parseEnumValues,
  sqlMentions,
} from "../../generator/schema/index.ts";
import { at, comparePaths, isWithin, pointerToPath } from "../../generator/schema/paths.ts";
import { closest, editDistance } from "../../generator/schema/suggest.ts";

t.test("paths", async (t) => {
  t.equal(
    pointerToPath("/endpoints/0/routes/3/where/1/columnName"),
    "endpoints[0].routes[3].where[1].columnName",
  );
  t.equal(pointerToPath(""), "");
  t.equal(pointerToPath("/a~1b/x y"), '["a/b"]["x y"]');
  t.equal(at("", "database"), "database");
  t.equal(at("database", 2), "database[2]");
  t.ok(isWithin("database[1].columns", "database[1]"));
  t.ok(isWithin("database[1]", "database[1]"));
  t.notOk(isWithin("database[10]", "database[1]"));
  t.ok(isWithin("anything", ""));
  const sorted = [
    "endpoints[0]",
    "database[10].name",
    "database[2].name",
    "database",
    "database[2]",
    "customTypes",
  ].sort(comparePaths);
  t.same(sorted, [
    "customTypes",
    "database",
    "database[2]",
    "database[2].name",
    "database[10].name",
    "endpoints[0]",
  ]);
});

t.test("suggestions", async (t) => {
  t.equal(editDistance("emial", "email"), 1, "a transposition is one edit");
  t.equal(editDistance("kitten", "sitting"), 3);
  t.equal(closest("emial", ["id", "email", "firstName"]), "email");
  t.equal(closest("isnullable", ["isNullable", "isUnique"]), "isNullable", "case differences are close");
  t.equal(closest("zzz", ["id", "email"]), undefined);
  t.equal(closest("id", ["id"]), undefined, "an exact match is no suggestion");
});

t.test("value forms", async (t) => {
  t.same(classifyValue("#userId"), { kind: "global", name: "userId" });
  t.same(classifyValue("$id"), { kind: "param", name: "id" });
  t.same(classifyValue('"we""ird"."id"'), { kind: "column", table: 'we"ird', column: "id" });
  t.same(classifyValue("'it''s'"), { kind: "text", text: "it's" });
  t.same(classifyValue("12"), { kind: "number", value: 12 });
  t.same(classifyValue("012"), { kind: "bare", word: "012" }, "leading zeros stay text");
  t.same(classifyValue("TRUE"), { kind: "boolean", value: true });
  t.same(classifyValue("null"), { kind: "null" });
  t.same(classifyValue("bill"), { kind: "bare", word: "bill" });
  t.same(classifyValue("lower(x)"), { kind: "invalid" });
});

t.test("ENUM values", async (t) => {
  t.same(parseEnumValues("'a','b'"), ["a", "b"]);
  t.same(parseEnumValues(" 'a' , 'it''s', 'x,y' "), ["a", "it's", "x,y"]);
  t.equal(parseEnumValues("a,b"), undefined);
  t.equal(parseEnumValues("'a',"), undefined);
  t.equal(parseEnumValues("'a' 'b'"), undefined);
  t.equal(parseEnumValues(""), undefined);
});

t.test(
  "$ and # mentions in raw SQL skip literals, quoted names, comments and positional params",
  async (t) => {
    t.same(
      sqlMentions(
        `"a"."b" < $date AND c = #companyId AND '$x' = "#y" AND $$ $z $$ AND $1 AND d #>> '{a}' -- $c`,
      ),
      {
        params: ["date"],
        globals: ["companyId"],
      },
    );
  },
);

t.test("custom type names", async (t) => {
  const names = customTypeNames([
    "export interface A { x: string }\ninterface B extends Restura.PageQuery { y: number }",
    "export type C<T> = { data: T[] };\ntype D = 'x' | 'y';\n// type NotMe = string\nexport enum E { X }",
    "/* interface Hidden { } */ const type = 1;",
  ]);
  t.same([...names].sort(), ["A", "B", "C", "D", "E"]);
});
