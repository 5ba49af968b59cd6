// Routes that drifted from their tables, and undeclared route roles/scopes: errors in an
// api.schema.json (strict), warnings in a Restura file. Messages name the route.

import t from "tap";
import { describeDiagnostic } from "../../generator/schema/index.ts";
import { err, load, order, type Raw, routes } from "./fixtures.ts";

const strict = { strict: true };

/** A write route on `order` (POST /api/v1/order by default). */
function writeRoute(extra: Raw = {}): Raw {
  return {
    name: "write order",
    description: "",
    method: "POST",
    path: "/order",
    type: "ONE",
    table: "order",
    roles: [],
    scopes: [],
    request: [
      { name: "userId", required: true, validator: [] },
      { name: "amount", required: true, validator: [] },
    ],
    joins: [],
    where: [],
    assignments: [],
    response: [{ name: "id", selector: "order.id" }],
    ...extra,
  };
}

const param = (name: string) => ({ name, required: false, validator: [] });

t.test(
  "a column renamed under a POST route: the stale parameter and the unset column are errors",
  async (t) => {
    const drift = (s: Raw) => {
      order(s).columns[2].name = "total";
      routes(s).push(writeRoute());
    };
    const r = load(drift, strict);
    t.same(r.errors, [
      err(
        "endpoints[0].routes[3].request",
        'column "total" of table "order" is NOT NULL without a default, and this POST can never set it: ' +
          'every request would fail. Add a request parameter "total" or an assignment',
      ),
      err(
        "endpoints[0].routes[3].request[1].name",
        'request parameter "amount" is used by nothing: no column of table "order" has that name, and no ' +
          'assignment, where condition, join or raw SQL reads "$amount"',
      ),
    ]);
    t.equal(r.schema, undefined);
    t.equal(r.routes?.["endpoints[0].routes[3]"], "POST /api/v1/order");
    t.equal(
      describeDiagnostic(r.errors[1] as (typeof r.errors)[number], r.routes),
      'endpoints[0].routes[3].request[1].name (POST /api/v1/order): request parameter "amount" is used by nothing: ' +
        'no column of table "order" has that name, and no assignment, where condition, join or raw SQL reads "$amount"',
    );

    const restura = load(drift);
    t.same(restura.errors, [], "a Restura file loads unchanged");
    t.same(restura.warnings, r.errors, "the same findings, as warnings");
    t.ok(restura.schema);
  },
);

t.test("a misspelt parameter gets a did-you-mean among the columns no parameter sets", async (t) => {
  const r = load((s) => {
    routes(s).push(writeRoute({ request: [param("userId"), param("amuont")] }));
  }, strict);
  t.same(r.errors, [
    err(
      "endpoints[0].routes[3].request",
      'column "amount" of table "order" is NOT NULL without a default, and this POST can never set it: ' +
        'every request would fail. Add a request parameter "amount" or an assignment',
    ),
    err(
      "endpoints[0].routes[3].request[1].name",
      'request parameter "amuont" is used by nothing: no column of table "order" has that name, and no ' +
        'assignment, where condition, join or raw SQL reads "$amuont" (did you mean "amount"?)',
    ),
  ]);
});

t.test(
  "parameters read by an assignment, where, join, raw SQL or subquery, or in the path, are used",
  async (t) => {
    const r = load((s) => {
      routes(s).push(
        writeRoute({
          request: [param("owner"), param("amount"), param("minimum")],
          assignments: [{ name: "userId", value: "$owner" }],
        }),
        writeRoute({
          method: "PATCH",
          path: "/order/:id",
          request: [
            param("id"),
            param("amount"),
            param("who"),
            param("since"),
            param("label"),
            param("inner"),
          ],
          where: [
            { tableName: "order", columnName: "id", operator: "=", value: "$id" },
            { custom: '"order"."userId" <> $who' },
          ],
          joins: [
            {
              alias: "owner",
              table: "user",
              type: "INNER",
              custom: '"owner"."id" = "order"."userId" AND "owner"."createdOn" > $since',
            },
          ],
          response: [
            { name: "id", selector: "order.id" },
            { name: "label", selector: "$label || 'x'" },
            {
              name: "others",
              subquery: {
                table: "user",
                where: [{ tableName: "user", columnName: "email", operator: "=", value: "$inner" }],
                properties: [{ name: "id", selector: "user.id" }],
              },
            },
          ],
        }),
        writeRoute({
          method: "DELETE",
          path: "/order/:id",
          request: [param("id")],
          where: [{ tableName: "order", columnName: "userId", operator: "IN", value: [1, 2] }],
        }),
      );
      // The POST's `minimum` is read by a check on the written row's table only through SQL:
      routes(s)[3].where = [{ custom: "$minimum IS NULL OR true" }];
    }, strict);
    t.same(r.errors, []);
    t.same(r.warnings, []);
  },
);

t.test("only write routes are checked; custom routes never", async (t) => {
  const r = load((s) => {
    routes(s)[0].request.push(param("unused"));
    routes(s)[2].request.push(param("whatever"));
  }, strict);
  t.same(r.errors, []);
});

t.test("a DELETE's body parameter reaches no column: only a mention uses it", async (t) => {
  const r = load((s) => {
    routes(s).push(
      writeRoute({
        method: "DELETE",
        path: "/order/:id",
        request: [param("id"), param("amount")],
        where: [{ tableName: "order", columnName: "id", operator: "=", value: "$id" }],
      }),
    );
  }, strict);
  t.same(r.errors, [
    err(
      "endpoints[0].routes[3].request[1].name",
      'request parameter "amount" is used by nothing: a DELETE writes no column, and no where condition, ' +
        'join or raw SQL reads "$amount"',
    ),
  ]);
});

t.test("NOT NULL columns a POST sets another way: defaults, identities, assignments", async (t) => {
  const r = load((s) => {
    order(s).columns.push(
      { name: "seq", type: "BIGINT", isNullable: false, hasAutoIncrement: true },
      { name: "status", type: "VARCHAR", length: 9, isNullable: false, default: "'new'" },
      { name: "note", type: "TEXT", isNullable: true },
      { name: "tenant", type: "BIGINT", isNullable: false },
    );
    routes(s).push(
      writeRoute({
        request: [param("userId"), param("amount")],
        assignments: [{ name: "tenant", value: "#companyId" }],
      }),
    );
  }, strict);
  t.same(r.errors, []);
});

t.test("a path parameter named like a NOT NULL column does not set it", async (t) => {
  const r = load((s) => {
    routes(s).push(
      writeRoute({
        path: "/user/:userId/order",
        request: [param("userId"), param("amount")],
      }),
    );
  }, strict);
  t.same(r.errors, [
    err(
      "endpoints[0].routes[3].request",
      'column "userId" of table "order" is NOT NULL without a default, and this POST can never set it: ' +
        'every request would fail. Add a request parameter "userId" or an assignment',
    ),
  ]);
  t.equal(r.routes?.["endpoints[0].routes[3]"], "POST /api/v1/user/:userId/order");
});

t.test(
  "undeclared route roles and scopes are errors in an api.schema.json; elsewhere warnings",
  async (t) => {
    const r = load((s) => {
      s.endpoints[0].routes[0].roles = ["admn"];
      s.endpoints[0].routes[1].scopes = ["read:usr"];
      s.database[1].roles = ["nobody"];
    }, strict);
    t.same(r.errors, [
      err("endpoints[0].routes[0].roles[0]", 'role "admn" is not declared in roles (did you mean "admin"?)'),
      err(
        "endpoints[0].routes[1].scopes[0]",
        'scope "read:usr" is not declared in scopes (did you mean "read:user"?)',
      ),
    ]);
    t.same(r.warnings, [err("database[1].roles[0]", 'role "nobody" is not declared in roles')]);
    t.equal(
      describeDiagnostic(r.errors[0] as (typeof r.errors)[number], r.routes),
      'endpoints[0].routes[0].roles[0] (GET /api/v1/user/:id): role "admn" is not declared in roles (did you mean "admin"?)',
    );
    t.equal(describeDiagnostic(err("database[1].roles[0]", "x"), r.routes), "database[1].roles[0]: x");
    t.equal(describeDiagnostic(err("", "not valid JSON"), r.routes), "not valid JSON");
  },
);
