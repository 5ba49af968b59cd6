// A PATCH or PUT that can match one row only, on a table without column masks, with INNER joins
// and an answer of plain columns, selects, writes and answers in one statement:
// `UPDATE ... FROM <joins> WHERE ... RETURNING <answer>` (generator/routes/kinds/write.ts
// foldsIntoUpdate). Every other write locks the row first and reads it back after. The one
// statement must answer as the three did: a row hidden by its own policy or by a joined row's is
// 404, a write that would take the row out of the caller's policies is refused, and nothing
// changes in either case. A POST likewise inserts and answers in one statement
// (`WITH _api_w AS (INSERT ... RETURNING *) SELECT <answer> FROM _api_w ...`, insertAnswersAtOnce)
// where the answer cannot need to see the new row in the table itself, and a DELETE of one row on
// a table without masks, with INNER joins, selects and deletes in one `DELETE ... USING`
// (write.ts selectsAsReadsDo): 404 and 409 as before, nothing deleted.

import t from "tap";
import { column, id, scratchApp, standardRoute, table } from "../harness/app.ts";
import { type TestGateway, testGatewayForApp } from "../harness/gateway.ts";

const param = (name: string, type: string, required = false) => ({
  name,
  required,
  validator: [{ type: "TYPE_CHECK", value: type }],
});

const itemRoute = (path: string, joinType: "INNER" | "LEFT") => ({
  ...standardRoute("PATCH", path, "item", ["id", "name", "status"], {
    request: [param("id", "number", true), param("name", "string"), param("status", "string")],
    joins: [
      { alias: "team", table: "team", type: joinType, localColumnName: "teamId", foreignColumnName: "id" },
    ],
    where: [{ tableName: "item", columnName: "id", operator: "=", value: "$id" }],
  }),
  response: [
    { name: "id", selector: "item.id" },
    { name: "name", selector: "item.name" },
    { name: "status", selector: "item.status" },
    { name: "teamName", selector: "team.name" },
  ],
});

/** DELETE /item/...: one item by id, joined to its team. */
const deleteRoute = (path: string, joinType: "INNER" | "LEFT") =>
  standardRoute("DELETE", path, "item", ["id"], {
    request: [param("id", "number", true)],
    joins: [
      { alias: "team", table: "team", type: joinType, localColumnName: "teamId", foreignColumnName: "id" },
    ],
    where: [{ tableName: "item", columnName: "id", operator: "=", value: "$id" }],
  });

/** POST /item...: a new item of a team, answered with `response`, joined to `joins`. */
const postRoute = (path: string, joins: unknown[], response: { name: string; selector: string }[]) => ({
  ...standardRoute("POST", path, "item", [], {
    request: [
      param("teamId", "number", true),
      param("name", "string", true),
      param("status", "string", true),
    ],
    joins,
  }),
  response,
});
const teamJoin = {
  alias: "team",
  table: "team",
  type: "INNER",
  localColumnName: "teamId",
  foreignColumnName: "id",
};
const twinJoin = {
  alias: "twin",
  table: "item",
  type: "INNER",
  localColumnName: "id",
  foreignColumnName: "id",
};
const teamNames = {
  name: "teamNames",
  selector: `(SELECT string_agg("i"."name", ',' ORDER BY "i"."id") FROM "item" AS "i" WHERE "i"."teamId" = "item"."teamId")`,
};

/** A route function's text, to tell which form the generator chose. */
async function functionText(gw: TestGateway, route: string): Promise<string> {
  const { rows } = await gw.su.query(`SELECT pg_get_functiondef(format('api.%I', $1::text)::regproc) AS d`, [
    route,
  ]);
  return rows[0].d as string;
}

const schema = {
  database: [
    table("team", [id(), column("name", "VARCHAR", { length: 20 }), column("open", "BOOLEAN")], {
      policies: [{ name: "open", where: [{ columnName: "open", operator: "IS", value: "TRUE" }] }],
    }),
    table("note", [id(), column("body", "TEXT"), column("secret", "TEXT", { roles: ["admin"] })]),
    table(
      "item",
      [
        id(),
        column("teamId", "BIGINT"),
        column("name", "VARCHAR", { length: 20 }),
        column("status", "VARCHAR", { length: 10 }),
      ],
      {
        foreignKeys: [
          {
            name: "item_team_fk",
            column: "teamId",
            refTable: "team",
            refColumn: "id",
            onDelete: "RESTRICT",
            onUpdate: "NO ACTION",
          },
        ],
        policies: [{ name: "live", where: [{ columnName: "status", operator: "=", value: "'live'" }] }],
      },
    ),
  ],
  endpoints: [
    {
      name: "V1",
      description: "",
      baseUrl: "/api/v1",
      routes: [
        itemRoute("/item/:id", "INNER"),
        itemRoute("/item/left/:id", "LEFT"),
        // Raw SQL in the answer reading the table written: it must see the row as written.
        {
          ...itemRoute("/item/names/:id", "INNER"),
          response: [
            { name: "id", selector: "item.id" },
            {
              name: "teamNames",
              selector: `(SELECT string_agg("i"."name", ',' ORDER BY "i"."id") FROM "item" AS "i" WHERE "i"."teamId" = "item"."teamId")`,
            },
          ],
        },
        // A write of the column the join reads: the answer names the new joined row.
        {
          ...itemRoute("/item/move/:id", "INNER"),
          request: [param("id", "number", true), param("teamId", "number")],
        },
        // A join to the table written: the joined row may be the row written.
        {
          ...itemRoute("/item/self/:id", "INNER"),
          joins: [
            { alias: "twin", table: "item", type: "INNER", localColumnName: "id", foreignColumnName: "id" },
          ],
          response: [
            { name: "id", selector: "item.id" },
            { name: "twinName", selector: "twin.name" },
          ],
        },
        postRoute(
          "/item",
          [teamJoin],
          [
            { name: "id", selector: "item.id" },
            { name: "name", selector: "item.name" },
            { name: "teamName", selector: "team.name" },
          ],
        ),
        postRoute("/item/self", [twinJoin], [{ name: "twinName", selector: "twin.name" }]),
        postRoute("/item/names", [teamJoin], [teamNames]),
        deleteRoute("/item/:id", "INNER"),
        deleteRoute("/item/left/:id", "LEFT"),
        // A where that can match two rows: A0409, nothing deleted.
        standardRoute("DELETE", "/item/named/:name", "item", ["id"], {
          request: [param("name", "string", true)],
          where: [{ tableName: "item", columnName: "name", operator: "=", value: "$name" }],
        }),
        standardRoute("DELETE", "/note/:id", "note", ["id"], {
          request: [param("id", "number", true), param("guess", "string", true)],
          where: [
            { tableName: "note", columnName: "id", operator: "=", value: "$id" },
            { tableName: "note", columnName: "secret", operator: "=", value: "$guess", conjunction: "AND" },
          ],
        }),
        // A column only admins see, on the table written: masked where the where reads it.
        standardRoute("PATCH", "/note/:id", "note", ["id", "body", "secret"], {
          request: [param("id", "number", true), param("body", "string"), param("guess", "string")],
          where: [
            { tableName: "note", columnName: "id", operator: "=", value: "$id" },
            { tableName: "note", columnName: "secret", operator: "=", value: "$guess", conjunction: "AND" },
          ],
        }),
      ],
    },
  ],
  customTypes: [],
  globalParams: [],
  roles: ["admin", "member"],
  scopes: [],
};

t.test("a PATCH in one UPDATE answers as lock, UPDATE and read-back did", async (t) => {
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "team" ("id", "name", "open") VALUES (1, 'one', true), (2, 'closed', false), (3, 'three', true);
     INSERT INTO "item" ("id", "teamId", "name", "status")
       VALUES (1, 1, 'a', 'live'), (2, 2, 'b', 'live'), (3, 1, 'c', 'gone');
     INSERT INTO "note" ("id", "body", "secret") VALUES (1, 'hello', 's3cret');`,
  );
  const member = { role: "member", scopes: [] };
  const patch = async (url: string, payload: Record<string, unknown>) => {
    const res = await gw.request({ method: "PATCH", url, as: member, payload });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const items = async () =>
    (await gw.su.query(`SELECT id, name, status FROM item ORDER BY id`)).rows as unknown[];
  const definition = (route: string) => functionText(gw, route);

  t.test("the INNER-joined route is the one statement, the LEFT-joined one locks first", async (t) => {
    const inner = await definition("PATCH /api/v1/item/:id");
    t.notMatch(inner, /FOR UPDATE/);
    t.match(inner, /RETURNING json_build_object/);
    t.match(await definition("PATCH /api/v1/item/left/:id"), /FOR UPDATE OF "item"/);
  });

  t.test("only a route the one statement answers the same is folded", async (t) => {
    for (const route of [
      "PATCH /api/v1/item/names/:id",
      "PATCH /api/v1/item/move/:id",
      "PATCH /api/v1/item/self/:id",
      "PATCH /api/v1/note/:id",
    ]) {
      t.match(await definition(route), /FOR UPDATE/, route);
    }
  });

  t.test("raw SQL in the answer reads the table as written", async (t) => {
    const res = await patch("/api/v1/item/names/1", { name: "first" });
    t.equal(res.status, 200);
    t.same(res.body, { data: { id: 1, teamNames: "first" } });
  });

  t.test("a row moved to another joined row answers with the new one", async (t) => {
    const res = await patch("/api/v1/item/move/1", { teamId: 3 });
    t.same(res.body, { data: { id: 1, name: "first", status: "live", teamName: "three" } });
    t.equal((await patch("/api/v1/item/move/1", { teamId: 1 })).body.data.teamName, "one");
  });

  t.test("a row joined to itself answers with its new values", async (t) => {
    const res = await patch("/api/v1/item/self/1", { name: "twin" });
    t.same(res.body, { data: { id: 1, twinName: "twin" } });
    await patch("/api/v1/item/1", { name: "first" });
  });

  t.test("a column the caller may not see is NULL to the where: no row, nothing written", async (t) => {
    const res = await patch("/api/v1/note/1", { body: "hi", guess: "s3cret" });
    t.equal(res.status, 404);
    t.same((await gw.su.query(`SELECT body FROM note`)).rows, [{ body: "hello" }]);
    const admin = await gw.request({
      method: "PATCH",
      url: "/api/v1/note/1",
      as: { role: "admin", scopes: [] },
      payload: { body: "hi", guess: "s3cret" },
    });
    t.same(JSON.parse(admin.body), { data: { id: 1, body: "hi", secret: "s3cret" } });
  });

  t.test("a visible row: written, and the answer is the row as written with its join", async (t) => {
    const res = await patch("/api/v1/item/1", { name: "renamed" });
    t.equal(res.status, 200);
    t.same(res.body, { data: { id: 1, name: "renamed", status: "live", teamName: "one" } });
    t.same((await items())[0], { id: "1", name: "renamed", status: "live" });
  });

  t.test("a row whose joined row a policy hides: 404, nothing written", async (t) => {
    const before = await items();
    const res = await patch("/api/v1/item/2", { name: "x" });
    t.equal(res.status, 404);
    t.equal(res.body.error.message, "No item matches the request");
    t.same(await items(), before);
    // The LEFT join keeps the row without its team, as before.
    const left = await patch("/api/v1/item/left/2", { name: "b2" });
    t.equal(left.status, 200);
    t.same(left.body, { data: { id: 2, name: "b2", status: "live", teamName: null } });
  });

  t.test("a row its own policy hides, or no row: 404, nothing written", async (t) => {
    const before = await items();
    t.equal((await patch("/api/v1/item/3", { name: "x" })).status, 404);
    t.equal((await patch("/api/v1/item/99", { name: "x" })).status, 404);
    t.same(await items(), before);
  });

  t.test(
    "a write that would take the row out of the caller's policies: refused, nothing written",
    async (t) => {
      const before = await items();
      const res = await patch("/api/v1/item/1", { status: "gone" });
      t.equal(res.status, 403);
      t.same(await items(), before);
    },
  );
});

t.test("a POST in one statement answers as INSERT and read-back did", async (t) => {
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "team" ("id", "name", "open") VALUES (1, 'one', true), (2, 'closed', false);
     INSERT INTO "item" ("id", "teamId", "name", "status") VALUES (1, 1, 'a', 'live');
     SELECT setval(pg_get_serial_sequence('"public"."item"', 'id'), 1);`,
  );
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await gw.request({ method: "POST", url, as: { role: "member", scopes: [] }, payload });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const names = async () => (await gw.su.query(`SELECT name FROM item ORDER BY id`)).rows.map((r) => r.name);
  const definition = (route: string) => functionText(gw, route);

  t.test("only the route whose answer needs no second look at the table is one statement", async (t) => {
    t.match(await definition("POST /api/v1/item"), /WITH _api_w AS/);
    for (const route of ["POST /api/v1/item/self", "POST /api/v1/item/names"]) {
      t.notMatch(await definition(route), /WITH _api_w AS/, route);
    }
  });

  t.test("the new row with its join", async (t) => {
    const res = await post("/api/v1/item", { teamId: 1, name: "b", status: "live" });
    t.equal(res.status, 200);
    t.same(res.body, { data: { id: 2, name: "b", teamName: "one" } });
  });

  t.test("a joined row a policy hides: the row is written, the answer is null", async (t) => {
    const res = await post("/api/v1/item", { teamId: 2, name: "c", status: "live" });
    t.same(res.body, { data: null });
    t.same(await names(), ["a", "b", "c"]);
  });

  t.test("a row outside the caller's policies: refused, nothing written", async (t) => {
    const res = await post("/api/v1/item", { teamId: 1, name: "d", status: "gone" });
    t.equal(res.status, 403);
    t.same(await names(), ["a", "b", "c"]);
  });

  t.test("a join to the table written, or raw SQL reading it, sees the new row", async (t) => {
    t.same((await post("/api/v1/item/self", { teamId: 1, name: "e", status: "live" })).body, {
      data: { twinName: "e" },
    });
    t.same((await post("/api/v1/item/names", { teamId: 1, name: "f", status: "live" })).body, {
      data: { teamNames: "a,b,e,f" },
    });
  });
});

t.test("a DELETE in one statement deletes as lock and DELETE did", async (t) => {
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "team" ("id", "name", "open") VALUES (1, 'one', true), (2, 'closed', false);
     INSERT INTO "item" ("id", "teamId", "name", "status")
       VALUES (1, 1, 'a', 'live'), (2, 2, 'b', 'live'), (3, 1, 'c', 'gone'), (4, 1, 'twin', 'live'),
              (5, 1, 'twin', 'live'), (6, 2, 'd', 'live');
     INSERT INTO "note" ("id", "body", "secret") VALUES (1, 'hello', 's3cret');`,
  );
  const member = { role: "member", scopes: [] };
  const remove = async (url: string, as: { role: string; scopes: string[] } = member) => {
    const res = await gw.request({ method: "DELETE", url, as });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const itemIds = async () =>
    ((await gw.su.query(`SELECT id FROM item ORDER BY id`)).rows as { id: string }[]).map((r) =>
      Number(r.id),
    );

  t.test("the INNER-joined route is one statement; LEFT joins, masks and two rows lock first", async (t) => {
    const inner = await functionText(gw, "DELETE /api/v1/item/:id");
    t.notMatch(inner, /FOR UPDATE/);
    t.match(inner, /DELETE FROM "public"\."item" AS "item"\s+USING/);
    for (const route of [
      "DELETE /api/v1/item/left/:id",
      "DELETE /api/v1/item/named/:name",
      "DELETE /api/v1/note/:id",
    ]) {
      t.match(await functionText(gw, route), /FOR UPDATE OF/, route);
    }
  });

  t.test("a row whose joined row a policy hides: 404, kept; the LEFT-joined route deletes it", async (t) => {
    const res = await remove("/api/v1/item/2");
    t.equal(res.status, 404);
    t.equal(res.body.error.message, "No item matches the request");
    t.same(await itemIds(), [1, 2, 3, 4, 5, 6]);
    t.same(await remove("/api/v1/item/left/2"), { status: 200, body: { data: true } });
    t.same(await itemIds(), [1, 3, 4, 5, 6]);
  });

  t.test("a row its own policy hides, or no row: 404, nothing deleted", async (t) => {
    t.equal((await remove("/api/v1/item/3")).status, 404);
    t.equal((await remove("/api/v1/item/99")).status, 404);
    t.same(await itemIds(), [1, 3, 4, 5, 6]);
  });

  t.test("two rows match: 409, nothing deleted", async (t) => {
    const res = await remove("/api/v1/item/named/twin");
    t.equal(res.status, 409);
    t.same(await itemIds(), [1, 3, 4, 5, 6]);
  });

  t.test("a column the caller may not see is NULL to the where: 404, kept", async (t) => {
    t.equal((await remove("/api/v1/note/1?guess=s3cret")).status, 404);
    t.same((await gw.su.query(`SELECT id FROM note`)).rows, [{ id: "1" }]);
    const admin = await remove("/api/v1/note/1?guess=s3cret", { role: "admin", scopes: [] });
    t.same(admin, { status: 200, body: { data: true } });
    t.same((await gw.su.query(`SELECT id FROM note`)).rows, []);
  });

  t.test("a visible row: deleted", async (t) => {
    t.same(await remove("/api/v1/item/1"), { status: 200, body: { data: true } });
    t.same(await itemIds(), [3, 4, 5, 6]);
  });
});
