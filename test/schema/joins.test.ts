import t from "tap";
import { err, errorsOf, listOrders, load, type Raw, standardRoute, warningsOf } from "./fixtures.ts";

// The "list orders" route: base table order, joins[0] = user AS owner ON order.userId = owner.id.
const J = "endpoints[0].routes[1].joins";
const R = "endpoints[0].routes[1].response";
const join = (alias: string, table: string, extra: Raw = {}) => ({ alias, table, type: "INNER", ...extra });
const company = (alias: string, extra: Raw = {}) =>
  join(alias, "company", { localColumnName: "companyId", foreignColumnName: "id", ...extra });
const withJoins =
  (...joins: Raw[]) =>
  (s: Raw) => {
    listOrders(s).joins.push(...joins);
  };

t.test("aliases are unique identifiers and not the name of a table in the query", async (t) => {
  t.same(errorsOf(withJoins(company("owner", { localTableAlias: "owner" }))), [
    err(`${J}[1].alias`, 'duplicate join alias "owner"'),
  ]);
  t.same(
    errorsOf(
      withJoins(
        join("order", "company", { custom: "true" }),
        join("company", "user", { localColumnName: "userId", foreignColumnName: "id" }),
        join("bad alias", "company", { custom: "true" }),
      ),
    ),
    [
      err(`${J}[1].alias`, 'alias "order" is the name of a table used in this query'),
      err(`${J}[2].alias`, 'alias "company" is the name of a table used in this query'),
      err(
        `${J}[3].alias`,
        'invalid alias name "bad alias": use letters, digits and _, not starting with a digit',
      ),
    ],
  );
  t.same(
    errorsOf(withJoins(company("company", { localTableAlias: "owner" }))),
    [],
    "a join may use its own table's name",
  );
});

t.test("the joined table and both columns exist", async (t) => {
  t.same(
    errorsOf((s) => {
      listOrders(s).joins[0].table = "usr";
    }),
    [err(`${J}[0].table`, 'table "usr" does not exist (did you mean "user"?)')],
  );
  t.same(
    errorsOf((s) => {
      listOrders(s).joins[0].localColumnName = "userid";
      listOrders(s).joins[0].foreignColumnName = "iid";
    }),
    [
      err(`${J}[0].foreignColumnName`, 'table "user" has no column "iid" (did you mean "id"?)'),
      err(`${J}[0].localColumnName`, 'table "order" has no column "userid" (did you mean "userId"?)'),
    ],
  );
});

t.test("a join needs both column names, or custom, not both", async (t) => {
  t.same(
    errorsOf(
      withJoins(
        join("a", "company"),
        join("b", "company", { localColumnName: "userId" }),
        join("c", "company", { custom: '"c"."id" = $cid', localColumnName: "x", foreignColumnName: "y" }),
      ),
    ),
    [
      err(`${J}[1]`, "a join needs localColumnName and foreignColumnName, or custom"),
      err(`${J}[2].foreignColumnName`, 'missing required property "foreignColumnName"'),
      err(`${J}[3].custom`, "a join has either custom or localColumnName/foreignColumnName, not both"),
      err(`${J}[3].custom`, `request parameter "$cid" is not declared in this route's request`),
    ],
  );
});

t.test("chains: localTableAlias names an earlier join, localTable agrees", async (t) => {
  const r = load((s) => {
    withJoins(company("co", { localTable: "user", localTableAlias: "owner" }))(s);
    listOrders(s).response.push({ name: "companyName", selector: "co.name" });
  });
  t.same(r.errors, []);
  t.same(
    errorsOf((s) => {
      listOrders(s).joins.unshift(company("co", { localTableAlias: "owner" }));
      listOrders(s).joins.push(company("c2", { localTableAlias: "ownr" }));
    }),
    [
      err(
        `${J}[0].localTableAlias`,
        'alias "owner" is declared by a later join; a join can only refer to earlier ones',
      ),
      err(
        `${J}[2].localTableAlias`,
        'alias "ownr" is not declared by an earlier join (did you mean "owner"?)',
      ),
    ],
  );
  t.same(
    errorsOf(
      withJoins(
        company("co", { localTable: "company", localTableAlias: "owner" }),
        company("c3", { localTable: "compny" }),
      ),
    ),
    [
      err(`${J}[1].localTable`, 'localTable "company" does not match the table "user" of alias "owner"'),
      err(
        `${J}[2].localTable`,
        '"compny" is not the base table or a table joined earlier (did you mean "company"?)',
      ),
    ],
  );
});

t.test("chains by table name resolve to the alias in the normalised output", async (t) => {
  const r = load(withJoins(company("co", { localTable: "user" })));
  t.same(r.errors, []);
  t.same(standardRoute(r, 1).joins[1], {
    alias: "co",
    table: "company",
    type: "INNER",
    localColumnName: "companyId",
    foreignColumnName: "id",
    localTable: "user",
    localTableAlias: "owner",
  });
});

t.test("a table joined twice must be named by alias", async (t) => {
  t.same(
    errorsOf((s) => {
      withJoins(
        join("buyer", "user", { localColumnName: "userId", foreignColumnName: "id" }),
        company("co", { localTable: "user" }),
      )(s);
      listOrders(s).response.push({ name: "x", selector: "user.email" });
    }),
    [
      err(`${J}[2].localTable`, '"user" is joined more than once; use localTableAlias'),
      err(`${R}[2].selector`, '"user" is joined more than once here; use the join\'s alias'),
    ],
  );
});

t.test("references by joined table name are rewritten to the alias", async (t) => {
  const r = load((s) => {
    listOrders(s).response.push({ name: "x", selector: "user.email" });
    listOrders(s).where.push({ tableName: "user", columnName: "id", operator: "=", value: '"user"."id"' });
    listOrders(s).orderBy = { tableName: "user", columnName: "email" };
  });
  t.same(r.errors, []);
  const route = standardRoute(r, 1);
  t.same(route.response[2], { name: "x", selector: "owner.email" });
  t.same(route.where[1], { tableName: "owner", columnName: "id", operator: "=", value: '"owner"."id"' });
  t.same(route.orderBy, { tableName: "owner", columnName: "email", order: "ASC" });
});

t.test("selectors: table.column and alias.column resolve; other text is raw SQL", async (t) => {
  const r = load((s) => {
    listOrders(s).response.push(
      { name: "id", selector: "order.id" },
      { name: "a", selector: "ownr.email" },
      { name: "b", selector: "email" },
      { name: "c", selector: "COUNT(*) + $n", type: "number" },
      { name: "d" },
      {
        name: "e",
        selector: "owner.id",
        subquery: { table: "company", properties: [{ name: "x", selector: "company.id" }] },
      },
    );
  });
  t.same(r.errors, [
    err(`${R}[2].name`, 'duplicate response property "id"'),
    err(`${R}[3].selector`, '"ownr" is not a table or alias of this query (did you mean "owner"?)'),
    err(`${R}[5].selector`, `request parameter "$n" is not declared in this route's request`),
    err(`${R}[6]`, "a response property needs a selector or a subquery"),
    err(`${R}[7]`, "a response property has either a selector or a subquery, not both"),
  ]);
  t.same(r.warnings, [
    err(`${R}[4].selector`, 'selector "email" is raw SQL; write "owner.email" to select the column'),
  ]);
  t.same(
    warningsOf((s) => {
      listOrders(s).response.push({ name: "n", selector: '(SELECT COUNT(*) FROM "order")', type: "number" });
    }),
    [],
  );
});

t.test("orderBy and groupBy resolve", async (t) => {
  t.same(
    errorsOf((s) => {
      listOrders(s).orderBy = { tableName: "owner", columnName: "emial", order: "DESC" };
      listOrders(s).groupBy = { tableName: "nobody", columnName: "id" };
    }),
    [
      err("endpoints[0].routes[1].groupBy.tableName", '"nobody" is not a table or alias of this query'),
      err(
        "endpoints[0].routes[1].orderBy.columnName",
        'table "user" has no column "emial" (did you mean "email"?)',
      ),
    ],
  );
});
