import t from "tap";
import { err, errorsOf, getUser, load, type Raw, standardRoute } from "./fixtures.ts";

// Subqueries nest under the "get user" route (base table user, request param id).
const S = "endpoints[0].routes[0].response[2].subquery";
const withSubquery =
  (subquery: Raw) =>
  (s: Raw): void => {
    getUser(s).response.push({ name: "orders", subquery });
  };
const orders = (extra: Raw = {}) => ({
  table: "order",
  joins: [],
  where: [{ tableName: "order", columnName: "userId", operator: "=", value: '"user"."id"' }],
  properties: [{ name: "id", selector: "order.id" }],
  ...extra,
});

t.test("a subquery linked to its parent loads and keeps its shape", async (t) => {
  const r = load(withSubquery(orders({ orderBy: { tableName: "order", columnName: "id", order: "DESC" } })));
  t.same(r.errors, []);
  t.same(standardRoute(r, 0).response[2], {
    name: "orders",
    subquery: {
      table: "order",
      joins: [],
      where: [{ tableName: "order", columnName: "userId", operator: "=", value: '"user"."id"' }],
      properties: [{ name: "id", selector: "order.id" }],
      orderBy: { tableName: "order", columnName: "id", order: "DESC" },
    },
  });
});

t.test("the subquery's table exists", async (t) => {
  t.same(
    errorsOf(
      withSubquery(orders({ table: "ordr", where: [], properties: [{ name: "id", selector: "ordr.id" }] })),
    ),
    [err(`${S}.table`, 'table "ordr" does not exist (did you mean "order"?)')],
  );
});

t.test("enclosing names are visible, innermost first; SQL names beat joined-table names", async (t) => {
  const r = load(
    withSubquery(
      orders({
        joins: [
          { alias: "buyer", table: "user", type: "LEFT", localColumnName: "userId", foreignColumnName: "id" },
        ],
        where: [
          // "user" is the parent's base table here, not the join of table user (which is "buyer")
          { tableName: "user", columnName: "id", operator: "=", value: '"order"."userId"' },
          { tableName: "order", columnName: "id", operator: ">", value: "$id" },
        ],
        properties: [
          { name: "id", selector: "order.id" },
          { name: "buyerEmail", selector: "buyer.email" },
          { name: "parentEmail", selector: "user.email" },
        ],
      }),
    ),
  );
  t.same(r.errors, []);
  const sub = standardRoute(r, 0).response[2]?.subquery;
  t.same(sub?.where[0], { tableName: "user", columnName: "id", operator: "=", value: '"order"."userId"' });
  t.same(sub?.properties[2], { name: "parentEmail", selector: "user.email" });
});

t.test("errors inside nested subqueries have full paths", async (t) => {
  t.same(
    errorsOf(
      withSubquery(
        orders({
          joins: [
            {
              alias: "buyer",
              table: "user",
              type: "LEFT",
              localColumnName: "userId",
              foreignColumnName: "id",
            },
          ],
          properties: [
            { name: "id", selector: "order.id" },
            { name: "id", selector: "buyer.emial" },
            {
              name: "company",
              subquery: {
                table: "company",
                where: [
                  { tableName: "company", columnName: "id", operator: "=", value: '"buyer"."companyId"' },
                  { tableName: "company", columnName: "id", operator: "=", value: '"nobody"."id"' },
                  { custom: '"company"."id" = #companyId AND $nope' },
                ],
                properties: [{ name: "n", selector: "company.name" }],
                orderBy: { tableName: "company", columnName: "nme" },
                groupBy: { tableName: "buyer", columnName: "id" },
              },
            },
          ],
        }),
      ),
    ),
    [
      err(`${S}.properties[1].name`, 'duplicate response property "id"'),
      err(`${S}.properties[1].selector`, 'table "user" has no column "emial" (did you mean "email"?)'),
      err(
        `${S}.properties[2].subquery.orderBy.columnName`,
        'table "company" has no column "nme" (did you mean "name"?)',
      ),
      err(`${S}.properties[2].subquery.where[1].value`, '"nobody" is not a table or alias of this query'),
      err(
        `${S}.properties[2].subquery.where[2].custom`,
        `request parameter "$nope" is not declared in this route's request`,
      ),
    ],
  );
});

t.test("a subquery needs properties", async (t) => {
  t.same(errorsOf(withSubquery(orders({ properties: [] }))), [
    err(`${S}.properties`, "expected a non-empty list"),
  ]);
  t.same(
    errorsOf(withSubquery({ table: "order", properties: [{ name: "id", selector: "order.id" }], extra: 1 })),
    [err(`${S}.extra`, 'unknown property "extra"')],
  );
});

t.test("a subquery's own aliases are not visible to its parent", async (t) => {
  t.same(
    errorsOf((s) => {
      withSubquery(
        orders({
          joins: [
            {
              alias: "buyer",
              table: "user",
              type: "LEFT",
              localColumnName: "userId",
              foreignColumnName: "id",
            },
          ],
        }),
      )(s);
      getUser(s).response.push({ name: "leak", selector: "buyer.email" });
    }),
    [err("endpoints[0].routes[0].response[3].selector", '"buyer" is not a table or alias of this query')],
  );
});
