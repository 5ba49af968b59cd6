// Routing by method + path: a literal segment beats a `:param` whatever the order in the schema,
// methods are distinct routes, and a group's baseUrl prefixes its paths.

import t from "tap";
import { column, id, scratchApp, table } from "../harness/app.ts";
import { testGatewayForApp } from "../harness/gateway.ts";

const response = [
  { name: "id", selector: "thing.id" },
  { name: "name", selector: "thing.name" },
];
const route = (path: string, where: unknown[], request: unknown[] = []) => ({
  name: path,
  description: "",
  method: "GET",
  path,
  type: "ONE",
  table: "thing",
  roles: [],
  scopes: [],
  request,
  joins: [],
  where,
  assignments: [],
  response,
});
const idParam = { name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] };

t.test("a literal segment beats a :param declared before it", async (t) => {
  const app = scratchApp(t, {
    database: [table("thing", [id(), column("name", "VARCHAR", { length: 20 })])],
    endpoints: [
      {
        name: "V1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          route(
            "/thing/:id",
            [{ tableName: "thing", columnName: "id", operator: "=", value: "$id" }],
            [idParam],
          ),
          route("/thing/special", [
            { tableName: "thing", columnName: "name", operator: "=", value: "'special'" },
          ]),
        ],
      },
    ],
    customTypes: [],
    globalParams: [],
    roles: [],
    scopes: [],
  });
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "thing" ("id", "name") VALUES (1, 'plain'), (2, 'special')`,
  );
  const get = async (url: string) => {
    const res = await gw.request({ method: "GET", url });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  t.same(await get("/api/v1/thing/special"), { status: 200, body: { data: { id: 2, name: "special" } } });
  t.same(await get("/api/v1/thing/1"), { status: 200, body: { data: { id: 1, name: "plain" } } });
  t.equal(
    (await get("/api/v1/thing/specia")).status,
    422,
    "not the literal: the :id route, which wants a number",
  );
  t.equal((await get("/thing/1")).status, 404, "paths live under the group's baseUrl");
  const post = await gw.request({ method: "POST", url: "/api/v1/thing/1" });
  t.equal(post.statusCode, 405, "GET only: 405 METHOD_NOT_ALLOWED");
  t.equal(post.headers.allow, "GET, HEAD", "with Allow");
});
