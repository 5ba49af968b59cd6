import t from "tap";
import { ident, join, literal, param, sql, trusted } from "../../generator/sql/sql.ts";

t.test("ident quotes names exactly as written and doubles embedded quotes", async (t) => {
  t.equal(ident("firstName").toString(), '"firstName"');
  t.equal(ident("public", 'we"ird').toString(), '"public"."we""ird"');
});

t.test("literal renders generator constants safely", async (t) => {
  t.equal(literal("it's").toString(), "'it''s'");
  t.equal(literal(3).toString(), "3");
  t.equal(literal(null).toString(), "NULL");
  t.equal(literal(true).toString(), "true");
  t.throws(() => literal(Number.NaN));
});

t.test("param values become numbered bind parameters, reused when repeated", async (t) => {
  const id = param(42);
  const q = sql`SELECT ${ident("a")} FROM t WHERE x = ${id} OR y = ${id} OR z = ${param("s")}`.toQuery();
  t.same(q, { text: 'SELECT "a" FROM t WHERE x = $1 OR y = $1 OR z = $2', values: [42, "s"] });
  t.throws(() => sql`x = ${param(1)}`.toString(), /bind parameters/);
});

t.test("join and trusted compose fragments", async (t) => {
  t.equal(join([ident("a"), trusted("now()")], " | ").toString(), '"a" | now()');
  // @ts-expect-error plain strings are not fragments
  t.throws(() => sql`SELECT ${"1; DROP TABLE x"}`, TypeError);
});
