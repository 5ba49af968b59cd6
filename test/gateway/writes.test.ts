// Write routes over HTTP (docs/schema.md "Write rules", issue 4): the example app's POST / PATCH /
// DELETE routes and the Restura fixture's PATCH /user/me through the real gateway, the rules of
// writes (assignments, path parameters, exactly one row, hidden columns, row policies), one test
// per mapped SQLSTATE, atomicity and concurrent updates of the same row.

import t from "tap";
import { column, id, scratchApp, standardRoute, table } from "../harness/app.ts";
import { type Claims, type TestGateway, testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { caller, JSON_CONTENT_TYPE } from "./helpers.ts";

const writer = (user: Parameters<typeof caller>[0]) => caller(user, ["tasks:write"]);

async function call(
  gw: TestGateway,
  method: "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  as: Claims | undefined,
  payload?: unknown,
) {
  const res = await gw.request({
    method,
    url,
    ...(as ? { as } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
  return { status: res.statusCode, body: JSON.parse(res.body), type: res.headers["content-type"] };
}

async function row(gw: TestGateway, text: string, values: unknown[] = []) {
  return (await gw.su.query(text, values)).rows;
}

/** Everything in the example's tables, to show a failed write changed nothing. */
async function snapshot(gw: TestGateway): Promise<string> {
  const tables = ["company", "user", "project", "task", "comment", "tag", "task_tag", "invoice"];
  const parts: string[] = [];
  for (const name of tables) {
    const rows = await row(gw, `SELECT * FROM "public"."${name}" ORDER BY 1, 2`);
    parts.push(JSON.stringify(rows));
  }
  return parts.join("\n");
}

t.test("example app: write routes", async (t) => {
  const gw = await testGateway(t, "tpl_example");

  t.test(
    "POST /task: body columns plus assignments, the row in the response shape, one statement",
    async (t) => {
      const before = gw.statements();
      const res = await call(gw, "POST", "/api/v1/task", writer("member1"), {
        projectId: 2,
        title: "Pick colours",
        estimateHours: 2.5,
        dueDate: "2026-05-01",
      });
      t.equal(res.status, 200);
      t.equal(res.type, JSON_CONTENT_TYPE);
      t.equal(gw.statements() - before, 1, "one round trip");
      const data = res.body.data;
      t.match(data, {
        projectId: 2,
        projectName: "Website Redesign",
        title: "Pick colours",
        description: null,
        priority: "medium",
        estimateHours: 2.5,
        done: false,
        dueDate: "2026-05-01",
        assigneeId: null,
      });
      t.same(Object.keys(data), [
        "id",
        "projectId",
        "projectName",
        "title",
        "description",
        "priority",
        "estimateHours",
        "done",
        "dueDate",
        "assigneeId",
        "createdOn",
      ]);
      const [stored] = await row(gw, `SELECT "companyId", "createdById" FROM task WHERE id = $1`, [data.id]);
      t.same(stored, { companyId: "1", createdById: "3" }, "assigned from the token");
    },
  );

  t.test("POST /task: an assigned column is not a parameter the body may send", async (t) => {
    const res = await call(gw, "POST", "/api/v1/task", writer("member1"), {
      projectId: 2,
      title: "x",
      companyId: 2,
    });
    t.equal(res.status, 422);
    t.same(res.body.error.details, { companyId: "unknown parameter" });
  });

  t.test("POST /task into a project of another company: FK 23503 -> 409 naming the field sent", async (t) => {
    const before = await snapshot(gw);
    const res = await call(gw, "POST", "/api/v1/task", writer("member1"), { projectId: 4, title: "sneaky" });
    t.equal(res.status, 409);
    // The key is (projectId, companyId), but companyId is assigned from the token: the client
    // never sent it, so only projectId is named.
    t.same(res.body.error, {
      code: "CONFLICT",
      message: "projectId does not refer to an existing project",
      details: { projectId: "must refer to an existing project" },
    });
    t.equal(await snapshot(gw), before, "nothing changed");
    const missing = await call(gw, "POST", "/api/v1/task", writer("member1"), { projectId: 999, title: "x" });
    t.same(missing.body, res.body, "the same answer for a project that does not exist");
  });

  t.test("POST /task: check violation 23514 -> 422 with details", async (t) => {
    const res = await call(gw, "POST", "/api/v1/task", writer("member1"), { projectId: 1, title: "   " });
    t.equal(res.status, 422);
    t.same(res.body.error, {
      code: "VALIDATION_ERROR",
      message: "The values do not satisfy the check task_title_not_blank_check",
      details: { title: "does not satisfy the check task_title_not_blank_check" },
    });
  });

  t.test("POST /task: column types checked before SQL (422 with details, no statement)", async (t) => {
    const before = gw.statements();
    const res = await call(gw, "POST", "/api/v1/task", writer("member1"), {
      projectId: 1,
      title: "dates",
      dueDate: "2026-02-30",
    });
    t.equal(res.status, 422);
    t.same(res.body.error.details, { dueDate: "must be a date (YYYY-MM-DD)" });
    t.equal(gw.statements(), before);
  });

  t.test("POST /task needs the route's scope; POST without a token is 401", async (t) => {
    t.equal(
      (await call(gw, "POST", "/api/v1/task", caller("member1", []), { projectId: 1, title: "x" })).status,
      403,
    );
    t.equal((await call(gw, "POST", "/api/v1/task", undefined, { projectId: 1, title: "x" })).status, 401);
  });

  t.test("POST /project: unique violation 23505 -> 409 naming the field sent", async (t) => {
    const before = await snapshot(gw);
    const res = await call(gw, "POST", "/api/v1/project", caller("manager1", []), {
      name: "Website Redesign",
    });
    t.equal(res.status, 409);
    // Unique per company: (companyId, name), companyId assigned from the token.
    t.same(res.body.error, {
      code: "CONFLICT",
      message: "A project with this name already exists",
      details: { name: "is already taken" },
    });
    t.equal(await snapshot(gw), before);
    const ok = await call(gw, "POST", "/api/v1/project", caller("manager1", []), {
      name: "Website Redesign",
      description: null,
      budget: 10.5,
    });
    t.equal(ok.status, 409, "still taken");
    const created = await call(gw, "POST", "/api/v1/project", caller("manager2", []), {
      name: "Website Redesign 2",
      budget: 10.5,
      settings: { color: "red" },
    });
    t.equal(created.status, 200);
    t.match(created.body.data, {
      name: "Website Redesign 2",
      status: "planning",
      budget: 10.5,
      settings: { color: "red" },
      ownerId: 5,
      companyName: "Globex Logistics",
    });
  });

  t.test("POST /comment: the row policy holds for inserts (403), joins in the response", async (t) => {
    const before = await snapshot(gw);
    const denied = await call(gw, "POST", "/api/v1/comment", caller("member1", []), {
      taskId: 9,
      body: "hi",
    });
    t.equal(denied.status, 403);
    t.same(denied.body.error, { code: "FORBIDDEN", message: "You do not have permission to write this row" });
    const missing = await call(gw, "POST", "/api/v1/comment", caller("member1", []), {
      taskId: 9999,
      body: "hi",
    });
    t.same(missing.body, denied.body, "the same answer for a task that does not exist: no existence oracle");
    t.equal(await snapshot(gw), before);
    const ok = await call(gw, "POST", "/api/v1/comment", caller("member1", []), { taskId: 1, body: "hi" });
    t.equal(ok.status, 200);
    t.match(ok.body.data, { taskId: 1, body: "hi", authorId: 3, authorFirstName: "Mia" });
  });

  t.test("PATCH /task/:id: only the body's columns change; :id selects, never sets", async (t) => {
    const [old] = await row(gw, `SELECT * FROM task WHERE id = 2`);
    const res = await call(gw, "PATCH", "/api/v1/task/2", writer("member1"), {
      done: true,
      assigneeId: null,
    });
    t.equal(res.status, 200);
    t.match(res.body.data, { id: 2, title: old.title, done: true, assigneeId: null, priority: old.priority });
    const [now] = await row(gw, `SELECT * FROM task WHERE id = 2`);
    t.same({ ...now, done: old.done, assigneeId: old.assigneeId }, old, "nothing else changed");
    const conflict = await call(gw, "PATCH", "/api/v1/task/2", writer("member1"), { id: 3, done: false });
    t.equal(conflict.status, 422, "a body id must match the path");
  });

  t.test("PATCH /task/:id of another company or of no row: 404, nothing changed", async (t) => {
    const before = await snapshot(gw);
    for (const url of ["/api/v1/task/9", "/api/v1/task/999"]) {
      const res = await call(gw, "PATCH", url, writer("member1"), { title: "mine now" });
      t.equal(res.status, 404, url);
      t.same(res.body.error, { code: "NOT_FOUND", message: "No task matches the request" });
    }
    t.equal(await snapshot(gw), before);
  });

  t.test("PATCH /project/:id: a failing check rolls the whole write back (atomic)", async (t) => {
    const before = await snapshot(gw);
    const res = await call(gw, "PATCH", "/api/v1/project/1", caller("manager1", []), {
      name: "Renamed",
      startDate: "2027-01-01",
      dueDate: "2026-01-01",
    });
    t.equal(res.status, 422);
    t.same(res.body.error.details, {
      startDate: "does not satisfy the check project_dates_check",
      dueDate: "does not satisfy the check project_dates_check",
    });
    t.equal(await snapshot(gw), before, "the name did not change either");
  });

  t.test("PATCH /user/me: the caller's own row, by #userId", async (t) => {
    const res = await call(gw, "PATCH", "/api/v1/user/me", caller("member2", []), {
      firstName: "Gina-Marie",
      preferences: { theme: "dark" },
    });
    t.equal(res.status, 200);
    t.same(res.body.data, {
      id: 6,
      email: "gina.member@globex.test",
      firstName: "Gina-Marie",
      lastName: "Grün",
      preferences: { theme: "dark" },
    });
  });

  t.test("PATCH /user/:id: admins of the same company only", async (t) => {
    const ok = await call(gw, "PATCH", "/api/v1/user/3", caller("admin1", []), {
      role: "manager",
      grantedScopes: ["tasks:write", "billing:read"],
    });
    t.equal(ok.status, 200);
    t.same(ok.body.data, {
      id: 3,
      email: "mia.member@acme.test",
      role: "manager",
      isActive: true,
      grantedScopes: ["tasks:write", "billing:read"],
    });
    const other = await call(gw, "PATCH", "/api/v1/user/4", caller("admin1", []), { isActive: false });
    t.equal(other.status, 404, "another company's user does not exist for the caller");
    t.equal(
      (await call(gw, "PATCH", "/api/v1/user/3", caller("manager1", []), { isActive: false })).status,
      403,
    );
  });

  t.test("DELETE /comment/:id: own comments only; {data: true}", async (t) => {
    const notMine = await call(gw, "DELETE", "/api/v1/comment/2", caller("member1", []));
    t.equal(notMine.status, 404);
    const mine = await call(gw, "DELETE", "/api/v1/comment/4", caller("member1", []));
    t.same(mine, { status: 200, body: { data: true }, type: JSON_CONTENT_TYPE });
    t.equal((await row(gw, `SELECT 1 FROM comment WHERE id = 4`)).length, 0);
    t.equal((await call(gw, "DELETE", "/api/v1/comment/4", caller("member1", []))).status, 404, "gone");
  });

  t.test("DELETE /task/:id: a row of another company cannot be deleted", async (t) => {
    const before = await snapshot(gw);
    const res = await call(gw, "DELETE", "/api/v1/task/9", writer("manager1"));
    t.equal(res.status, 404);
    t.equal(await snapshot(gw), before);
    t.same((await call(gw, "DELETE", "/api/v1/task/8", writer("manager1"))).body, { data: true });
  });

  t.test("DELETE /project/:id: cascades; the query string carries the parameters", async (t) => {
    const res = await call(gw, "DELETE", "/api/v1/project/3", caller("admin1", []));
    t.same(res.body, { data: true });
    t.equal((await row(gw, `SELECT 1 FROM task WHERE "projectId" = 3`)).length, 0);
  });

  t.test("concurrent PATCHes of the same row: no lost update", async (t) => {
    const as = writer("manager1");
    const bodies = [
      { title: "Concurrent title" },
      { description: "Concurrent description" },
      { priority: "low" },
      { done: true },
      { estimateHours: 7 },
      { dueDate: "2026-12-24" },
      { assigneeId: 2 },
    ];
    const results = await Promise.all(bodies.map((b) => call(gw, "PATCH", "/api/v1/task/5", as, b)));
    t.same(
      results.map((r) => r.status),
      bodies.map(() => 200),
    );
    const [now] = await row(gw, `SELECT * FROM task WHERE id = 5`);
    t.match(now, {
      title: "Concurrent title",
      description: "Concurrent description",
      priority: "low",
      done: true,
      estimateHours: "7.00",
      assigneeId: "2",
    });
  });

  t.test("concurrent PATCH and DELETE of the same row: one of them sees the other", async (t) => {
    const [patch, del] = await Promise.all([
      call(gw, "PATCH", "/api/v1/task/7", writer("manager1"), { title: "last words" }),
      call(gw, "DELETE", "/api/v1/task/7", writer("manager1")),
    ]);
    t.equal(del.status, 200);
    t.ok(patch.status === 200 || patch.status === 404, `PATCH ${patch.status}`);
    t.equal((await row(gw, `SELECT 1 FROM task WHERE id = 7`)).length, 0);
  });
});

t.test("Restura fixture: PATCH /user/me", async (t) => {
  const gw = await testGateway(t, "tpl_restura");
  const peter = { role: "user", scopes: [], userId: 2, companyId: 1 };

  t.test("updates the caller's row and answers in the response shape", async (t) => {
    const res = await call(gw, "PATCH", "/api/v1/user/me", peter, { firstName: "Pete", phone: null });
    t.equal(res.status, 200);
    t.same(res.body, {
      data: { id: 2, firstName: "Pete", lastName: "Gibbons", email: "peter@initech.test", phone: null },
    });
  });

  t.test("a value longer than its column: 422 with details before SQL", async (t) => {
    const before = gw.statements();
    const res = await call(gw, "PATCH", "/api/v1/user/me", peter, { lastName: "x".repeat(31) });
    t.equal(res.status, 422);
    t.same(res.body.error.details, { lastName: "must be at most 30 characters" });
    t.equal(gw.statements(), before);
  });

  t.test("an email taken by another user: 409 naming the field", async (t) => {
    const res = await call(gw, "PATCH", "/api/v1/user/me", peter, { email: "bill@initech.test" });
    t.equal(res.status, 409);
    t.same(res.body.error, {
      code: "CONFLICT",
      message: "A user with this email already exists",
      details: { email: "is already taken" },
    });
  });

  t.test("anonymous: 401; a role the route does not list: 403", async (t) => {
    t.equal((await call(gw, "PATCH", "/api/v1/user/me", undefined, { firstName: "x" })).status, 401);
    t.equal(
      (await call(gw, "PATCH", "/api/v1/user/me", { ...peter, role: "guest" }, { firstName: "x" })).status,
      403,
    );
  });
});

// A scratch app for the rules the example cannot reach: a hidden column in a body, an assigned
// column that is also declared, NOT NULL, FK RESTRICT on delete, several matching rows.
const param = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  required: false,
  validator: [{ type: "TYPE_CHECK", value: type }],
  ...extra,
});
const writeRoute = (method: string, path: string, extra: Record<string, unknown>) =>
  standardRoute(method, path, "item", ["id", "name", "secret"], extra);
const byId = [{ tableName: "item", columnName: "id", operator: "=", value: "$id" }];
const byName = [{ tableName: "item", columnName: "name", operator: "=", value: "$name" }];

t.test("scratch app: hidden columns, assignments, NOT NULL, RESTRICT, several rows", async (t) => {
  const app = scratchApp(t, {
    database: [
      table("owner", [id()]),
      table(
        "item",
        [
          id(),
          column("name", "VARCHAR", { length: 20 }),
          column("note", "TEXT"),
          column("secret", "TEXT", { isNullable: true, roles: ["admin"] }),
          column("ownerId", "BIGINT", { isNullable: true }),
          column("kind", "VARCHAR", { length: 10, default: "'plain'" }),
        ],
        {
          foreignKeys: [
            {
              name: "item_owner_fk",
              column: "ownerId",
              refTable: "owner",
              refColumn: "id",
              onDelete: "RESTRICT",
              onUpdate: "NO ACTION",
            },
          ],
        },
      ),
    ],
    endpoints: [
      {
        name: "V1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          writeRoute("POST", "/item", {
            request: [
              param("name", "string", { required: true }),
              param("note", "string"),
              param("secret", "string"),
              param("ownerId", "number"),
              param("kind", "string"),
            ],
            assignments: [{ name: "kind", value: "'assigned'" }],
          }),
          writeRoute("PATCH", "/item/:id", {
            request: [
              param("id", "number", { required: true }),
              param("name", "string"),
              param("note", "string", { isNullable: true }),
            ],
            where: byId,
          }),
          writeRoute("PUT", "/item/by-name/:name", {
            request: [param("name", "string", { required: true }), param("note", "string")],
            where: byName,
          }),
          writeRoute("DELETE", "/item/by-name/:name", {
            request: [param("name", "string", { required: true })],
            where: byName,
            response: [],
          }),
          writeRoute("DELETE", "/items/by-name/:name", {
            type: "ARRAY",
            request: [param("name", "string", { required: true })],
            where: byName,
            response: [],
          }),
          {
            ...writeRoute("DELETE", "/owner/:id", {
              request: [param("id", "number", { required: true })],
              where: [{ tableName: "owner", columnName: "id", operator: "=", value: "$id" }],
              response: [],
            }),
            table: "owner",
          },
        ],
      },
    ],
    customTypes: [],
    globalParams: [],
    roles: ["admin", "member"],
    scopes: [],
  });
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "owner" ("id") VALUES (1), (2);
     INSERT INTO "item" ("id", "name", "note", "ownerId") VALUES (1, 'a', 'n1', 1), (2, 'b', 'n2', NULL), (3, 'b', 'n3', NULL);
     SELECT setval(pg_get_serial_sequence('"public"."item"', 'id'), 3);`,
  );
  const member = { role: "member", scopes: [] };
  const admin = { role: "admin", scopes: [] };
  const items = () => row(gw, `SELECT id, name, note, secret, "ownerId", kind FROM item ORDER BY id`);

  t.test("a body naming a column the caller may not see: 403, nothing written", async (t) => {
    const before = await items();
    const res = await call(gw, "POST", "/api/v1/item", member, { name: "c", note: "x", secret: "s" });
    t.equal(res.status, 403);
    t.same(res.body.error, {
      code: "FORBIDDEN",
      message: 'You do not have permission to write the column "secret"',
    });
    t.same(await items(), before);
    const ok = await call(gw, "POST", "/api/v1/item", admin, { name: "c", note: "x", secret: "s" });
    t.equal(ok.status, 200);
    t.same(ok.body.data, { id: 4, name: "c", secret: "s" });
    const hidden = await call(gw, "POST", "/api/v1/item", member, { name: "d", note: "x" });
    t.same(hidden.body.data, { id: 5, name: "d" }, "the hidden column is left out of the response");
  });

  t.test("an assigned column declared as a parameter: the body may not send it (422)", async (t) => {
    const res = await call(gw, "POST", "/api/v1/item", admin, { name: "e", note: "x", kind: "mine" });
    t.equal(res.status, 422);
    t.same(res.body.error.details, { kind: "is set by the server and cannot be sent" });
    const [stored] = await row(gw, `SELECT kind FROM item WHERE id = 4`);
    t.equal(stored.kind, "assigned");
  });

  t.test("NOT NULL 23502 -> 422 with details", async (t) => {
    const before = await items();
    const res = await call(gw, "POST", "/api/v1/item", admin, { name: "f" });
    t.equal(res.status, 422);
    t.same(res.body.error, {
      code: "VALIDATION_ERROR",
      message: "Request validation failed",
      details: { note: "must not be null" },
    });
    const patch = await call(gw, "PATCH", "/api/v1/item/1", admin, { note: null });
    t.equal(patch.status, 422);
    t.same(patch.body.error.details, { note: "must not be null" });
    t.same(await items(), before);
  });

  t.test("FK 23503 on insert and on delete (RESTRICT) -> 409", async (t) => {
    const insert = await call(gw, "POST", "/api/v1/item", admin, { name: "g", note: "x", ownerId: 99 });
    t.equal(insert.status, 409);
    t.same(insert.body.error.details, { ownerId: "must refer to an existing owner" });
    const before = await items();
    const del = await call(gw, "DELETE", "/api/v1/owner/1", admin);
    t.equal(del.status, 409);
    t.same(del.body.error, { code: "CONFLICT", message: "This owner is still referenced by item (ownerId)" });
    t.same(await items(), before);
    t.same((await call(gw, "DELETE", "/api/v1/owner/2", admin)).body, { data: true });
  });

  t.test(
    "several rows match a PUT or a ONE DELETE: 409 and nothing changed; ARRAY DELETE takes all",
    async (t) => {
      const before = await items();
      const put = await call(gw, "PUT", "/api/v1/item/by-name/b", admin, { note: "both?" });
      t.equal(put.status, 409);
      t.same(put.body.error, { code: "CONFLICT", message: "More than one item matches the request" });
      const del = await call(gw, "DELETE", "/api/v1/item/by-name/b", admin);
      t.equal(del.status, 409);
      t.same(await items(), before);
      const one = await call(gw, "PUT", "/api/v1/item/by-name/a", admin, { note: "only a" });
      t.same(one.body.data, { id: 1, name: "a", secret: null });
      t.same((await call(gw, "DELETE", "/api/v1/items/by-name/b", admin)).body, { data: true });
      t.same((await row(gw, `SELECT id FROM item WHERE name = 'b'`)).length, 0);
      t.same(
        (await call(gw, "DELETE", "/api/v1/items/by-name/b", admin)).body,
        { data: true },
        "ARRAY: none is fine",
      );
    },
  );

  t.test("a value too long for its column: 422 before SQL", async (t) => {
    const res = await call(gw, "PATCH", "/api/v1/item/1", admin, { name: "x".repeat(21) });
    t.equal(res.status, 422);
    t.same(res.body.error.details, { name: "must be at most 20 characters" });
  });
});
