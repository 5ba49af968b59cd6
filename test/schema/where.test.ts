import t from "tap";
import { err, errorsOf, getUser, listOrders, load, type Raw, standardRoute, warningsOf } from "./fixtures.ts";

const W = "endpoints[0].routes[0].where";
const cond = (columnName: string, operator: string, value: unknown) => ({
  tableName: "user",
  columnName,
  operator,
  value,
});
/** Adds conditions to the "get user" route (its where[0] is `user.id = $id`). */
const withWhere =
  (...conditions: Raw[]) =>
  (s: Raw) => {
    getUser(s).where.push(...conditions);
  };
const whereOf = (...conditions: Raw[]) => standardRoute(load(withWhere(...conditions)), 0).where;

t.test("the example from the spec: unknown column with a suggestion", async (t) => {
  t.same(errorsOf(withWhere(cond("emial", "=", "'a'"))), [
    err(`${W}[1].columnName`, 'table "user" has no column "emial" (did you mean "email"?)'),
  ]);
});

t.test("tableName is the base table, a join alias or a joined table", async (t) => {
  t.same(errorsOf(withWhere({ ...cond("emial", "=", "'a'"), tableName: "usr" })), [
    err(`${W}[1].tableName`, '"usr" is not a table or alias of this query (did you mean "user"?)'),
  ]);
  t.same(
    errorsOf((s) => {
      listOrders(s).where.push({ tableName: "user", columnName: "email", operator: "=", value: "'x'" });
    }),
    [],
  );
});

t.test("operators: known, case-insensitive", async (t) => {
  t.same(errorsOf(withWhere(cond("email", "==", "'a'"))), [
    err(
      `${W}[1].operator`,
      'expected one of "=", "!=", "<", ">", "<=", ">=", "LIKE", "NOT LIKE", "STARTS WITH", "ENDS WITH", "IN", "NOT IN", "IS", "IS NOT", got "==" (did you mean "="?)',
    ),
  ]);
  t.same(whereOf(cond("email", "not  like", "'a'"))[1], cond("email", "NOT LIKE", "'a'"));
});

t.test("#global values must be declared; role and scopes always are", async (t) => {
  t.same(
    errorsOf(
      withWhere(cond("companyId", "=", "#compnyId"), cond("role", "=", "#role"), cond("id", "=", "#scopes")),
    ),
    [
      err(
        `${W}[1].value`,
        'global parameter "#compnyId" is not declared in globalParams (did you mean "#companyId"?)',
      ),
    ],
  );
});

t.test("$param values must be declared request parameters", async (t) => {
  t.same(errorsOf(withWhere(cond("id", "=", "$idd"))), [
    err(
      `${W}[1].value`,
      `request parameter "$idd" is not declared in this route's request (did you mean "$id"?)`,
    ),
  ]);
});

t.test('"table"."column" references must resolve', async (t) => {
  t.same(
    errorsOf(
      withWhere(cond("companyId", "=", '"company"."id"'), cond("companyId", "=", '"user"."companyid"')),
    ),
    [
      err(`${W}[1].value`, '"company" is not a table or alias of this query'),
      err(`${W}[2].value`, 'table "user" has no column "companyid" (did you mean "companyId"?)'),
    ],
  );
});

t.test("value forms are normalised", async (t) => {
  const where = whereOf(
    cond("id", ">", "5"),
    cond("id", "<", -1.5),
    cond("role", "=", " 'it''s' "),
    cond("firstName", "=", true),
    cond("firstName", "!=", "FALSE"),
    cond("id", "=", ' "user" . "id" '),
  );
  t.same(
    where.map((c) => c.value),
    ["$id", 5, -1.5, "'it''s'", true, false, '"user"."id"'],
  );
});

t.test("a bare word is read as a text literal, with a warning", async (t) => {
  const mutate = withWhere(cond("firstName", "NOT LIKE", "bill"));
  t.same(warningsOf(mutate), [
    err(`${W}[1].value`, "bare word \"bill\" is read as the text 'bill'; quote it to say so"),
  ]);
  t.equal(whereOf(cond("firstName", "NOT LIKE", "bill"))[1]?.value, "'bill'");
});

t.test("anything else is an error", async (t) => {
  t.same(errorsOf(withWhere(cond("email", "=", "now()"), cond("email", "=", "$1"))), [
    err(
      `${W}[1].value`,
      `invalid value "now()": expected #global, $param, "table"."column", 'text', a number, true, false or null (write SQL expressions as a custom condition)`,
    ),
    err(
      `${W}[2].value`,
      `invalid value "$1": expected #global, $param, "table"."column", 'text', a number, true, false or null (write SQL expressions as a custom condition)`,
    ),
  ]);
});

t.test("NULL only with IS / IS NOT; lists only with IN / NOT IN", async (t) => {
  t.same(
    errorsOf(withWhere(cond("email", "=", "NULL"), cond("email", "!=", null), cond("email", "=", ["a"]))),
    [
      err(`${W}[1].value`, "use IS or IS NOT to compare with NULL"),
      err(`${W}[2].value`, "use IS or IS NOT to compare with NULL"),
      err(`${W}[3].value`, "only IN and NOT IN take a list of values, got a list for ="),
    ],
  );
});

t.test("IS / IS NOT take NULL, TRUE or FALSE", async (t) => {
  t.same(errorsOf(withWhere(cond("email", "IS NOT", "'x'"))), [
    err(`${W}[1].value`, `IS NOT needs NULL, TRUE or FALSE, got "'x'"`),
  ]);
  t.same(
    whereOf(
      cond("email", "IS", "null"),
      cond("email", "is not", null),
      cond("email", "IS", "True"),
      cond("email", "IS", false),
    )
      .slice(1)
      .map((c) => [c.operator, c.value]),
    [
      ["IS", null],
      ["IS NOT", null],
      ["IS", true],
      ["IS", false],
    ],
  );
});

t.test("IN / NOT IN take a list of literals or an array $param", async (t) => {
  const params = (s: Raw) => {
    getUser(s).request.push(
      { name: "ids", required: false, validator: [{ type: "TYPE_CHECK", value: "number[]" }] },
      { name: "one", required: false, validator: [{ type: "TYPE_CHECK", value: "number" }] },
    );
  };
  const run = (...conditions: Raw[]) =>
    load((s) => {
      params(s);
      getUser(s).where.push(...conditions);
    });
  const r = run(
    cond("id", "IN", "$ids"),
    cond("id", "IN", "$one"),
    cond("id", "NOT IN", []),
    cond("id", "IN", [1, "2", "x", "'y'", "$one"]),
    cond("id", "IN", "1,2"),
  );
  t.same(r.errors, [
    err(`${W}[2].value`, 'IN needs a list: give "$one" a TYPE_CHECK of an array type like "number[]"'),
    err(`${W}[3].value`, "NOT IN needs at least one value"),
    err(`${W}[4].value[4]`, 'expected text or a number, got "$one"'),
    err(`${W}[5].value`, 'IN needs a list of values or a $param with an array TYPE_CHECK, got "1,2"'),
  ]);
  t.same(r.warnings, [
    err(`${W}[4].value[2]`, "bare word \"x\" is read as the text 'x'; quote it to say so"),
  ]);
  const ok = run(cond("id", "IN", "$ids"), cond("email", "in", ["'a'", 2, "3", "b"]));
  t.same(ok.errors, []);
  t.same(standardRoute(ok, 0).where.slice(1), [
    cond("id", "IN", "$ids"),
    cond("email", "IN", ["'a'", 2, 3, "'b'"]),
  ]);
});

t.test("custom conditions are trusted SQL, but their $ and # mentions must be declared", async (t) => {
  t.same(
    errorsOf(
      withWhere(
        {
          custom: `"user"."id" > $min AND #nope IS NOT NULL AND '$notParam' = "#notGlobal" AND x #>> '{a}' = $1`,
        },
        { custom: "true", tableName: "user" },
      ),
    ),
    [
      err(`${W}[1].custom`, 'global parameter "#nope" is not declared in globalParams'),
      err(`${W}[1].custom`, `request parameter "$min" is not declared in this route's request`),
      err(`${W}[2].custom`, "a condition has either custom or tableName/columnName/operator/value, not both"),
    ],
  );
  t.same(
    errorsOf(withWhere({ custom: '"user"."companyId" = #companyId OR $id > 0', conjunction: "OR" })),
    [],
  );
});

t.test("a condition needs tableName, columnName, operator and value", async (t) => {
  t.same(errorsOf(withWhere({ tableName: "user" })), [
    err(`${W}[1].columnName`, 'missing required property "columnName"'),
    err(`${W}[1].operator`, 'missing required property "operator"'),
    err(`${W}[1].value`, 'missing required property "value"'),
  ]);
});

t.test("assignments: base-table columns, no column references, values normalised", async (t) => {
  const A = "endpoints[0].routes[1].assignments";
  const r = load((s) => {
    listOrders(s).method = "POST";
    listOrders(s).assignments = [
      { name: "userId", value: "#userId" },
      { name: "amount", value: '"user"."id"' },
      { name: "amount", value: "$x" },
      { name: "amt", value: "bill" },
    ];
  });
  t.same(r.errors, [
    err(`${A}[1].value`, 'expected #global, $param or a literal, got the column reference "user"."id"'),
    err(`${A}[2].name`, 'duplicate assignment to "amount"'),
    err(`${A}[2].value`, `request parameter "$x" is not declared in this route's request`),
    err(`${A}[3].name`, 'table "order" has no column "amt"'),
  ]);
  t.same(r.warnings, [
    err(`${A}[3].value`, "bare word \"bill\" is read as the text 'bill'; quote it to say so"),
  ]);
  const ok = load((s) => {
    listOrders(s).method = "POST";
    listOrders(s).assignments = [
      { name: "userId", value: "#userId" },
      { name: "amount", value: "12.50" },
    ];
  });
  t.same(standardRoute(ok, 1).assignments, [
    { name: "userId", value: "#userId" },
    { name: "amount", value: 12.5 },
  ]);
});
