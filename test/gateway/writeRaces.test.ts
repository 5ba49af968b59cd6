// Concurrent writes where the route's own where decides: an update that a concurrent write has
// moved out of the route's where must not happen (404), rather than overwrite the row it can no
// longer select. Read Committed re-checks the locked row (FOR UPDATE) after the other commits.

import t from "tap";
import { column, id, scratchApp, table } from "../harness/app.ts";
import { testGatewayForApp } from "../harness/gateway.ts";

const bodyParam = (name: string, type: string) => ({
  name,
  required: false,
  validator: [{ type: "TYPE_CHECK", value: type }],
});
const route = (name: string, where: unknown[], request: unknown[]) => ({
  name,
  description: "",
  method: "PATCH",
  path: `/${name}/:id`,
  type: "ONE",
  table: "ticket",
  roles: [],
  scopes: [],
  request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }, ...request],
  joins: [],
  where: [{ tableName: "ticket", columnName: "id", operator: "=", value: "$id" }, ...where],
  assignments: [],
  response: [
    { name: "id", selector: "ticket.id" },
    { name: "title", selector: "ticket.title" },
    { name: "closed", selector: "ticket.closed" },
  ],
});

t.test(
  "a PATCH whose row a concurrent PATCH moved out of its where answers 404 and changes nothing",
  async (t) => {
    const app = scratchApp(t, {
      database: [
        table("ticket", [id(), column("title", "TEXT"), column("closed", "BOOLEAN", { default: "false" })]),
      ],
      endpoints: [
        {
          name: "V1",
          description: "",
          baseUrl: "/api/v1",
          routes: [
            route("close", [], [bodyParam("closed", "boolean")]),
            // Only open tickets may be renamed.
            route(
              "rename-open",
              [{ tableName: "ticket", columnName: "closed", operator: "=", value: false }],
              [bodyParam("title", "string")],
            ),
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
      `INSERT INTO "ticket" ("id", "title") VALUES (1, 'first')`,
    );
    const patch = (url: string, payload: unknown) =>
      gw.app.inject({ method: "PATCH", url, payload: payload as object });

    // Hold the row locked, start both PATCHes, let the close one go first.
    await gw.su.query("BEGIN");
    await gw.su.query(`SELECT 1 FROM "ticket" WHERE "id" = 1 FOR UPDATE`);
    const close = patch("/api/v1/close/1", { closed: true });
    await new Promise((r) => setTimeout(r, 150));
    const rename = patch("/api/v1/rename-open/1", { title: "renamed while closing" });
    await new Promise((r) => setTimeout(r, 150));
    await gw.su.query("COMMIT");

    const [closed, renamed] = await Promise.all([close, rename]);
    t.equal(closed.statusCode, 200);
    t.equal(renamed.statusCode, 404, "the ticket is no longer open: the rename does not apply");
    const [row] = (await gw.su.query(`SELECT "title", "closed" FROM "ticket" WHERE "id" = 1`)).rows;
    t.same(row, { title: "first", closed: true });

    // Without the race, the route works: reopen, rename.
    t.equal((await patch("/api/v1/close/1", { closed: false })).statusCode, 200);
    const ok = await patch("/api/v1/rename-open/1", { title: "renamed" });
    t.equal(ok.statusCode, 200);
    t.same(JSON.parse(ok.body), { data: { id: 1, title: "renamed", closed: false } });
  },
);
