// The example app's write side must not leak across companies or hand out powers: a user id
// written into `task.assigneeId` or `project.ownerId` answers the same whether it belongs to
// another company or to nobody (the composite keys `(assigneeId, companyId)` and
// `(ownerId, companyId)` -> `user (id, companyId)`), and `user.grantedScopes` takes only the
// scopes the schema declares for users (never `auth:internal`), at the gateway and in the table.

import t from "tap";
import { isStandardRoute } from "../../generator/schema/types.ts";
import { type Claims, type TestGateway, testGateway } from "../harness/gateway.ts";
import { caller, loadExampleSchema } from "./helpers.ts";

async function call(gw: TestGateway, method: "POST" | "PATCH", url: string, as: Claims, payload: unknown) {
  const res = await gw.request({ method, url, as, payload: payload as Record<string, unknown> });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

async function dump(gw: TestGateway): Promise<string> {
  const parts: string[] = [];
  for (const name of ["user", "project", "task"]) {
    parts.push(JSON.stringify((await gw.su.query(`SELECT * FROM "public"."${name}" ORDER BY 1`)).rows));
  }
  return parts.join("\n");
}

t.test("a user id of another company answers exactly like one that does not exist", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const writer = caller("manager1", ["tasks:write"]);
  // User 4 is Globex's (company 2); user 999 does not exist. The caller is Acme's (company 1).
  const cases = [
    {
      field: "assigneeId",
      send: (id: number) =>
        call(gw, "POST", "/api/v1/task", writer, { projectId: 1, title: "x", assigneeId: id }),
    },
    {
      field: "assigneeId",
      send: (id: number) => call(gw, "PATCH", "/api/v1/task/1", writer, { assigneeId: id }),
    },
    {
      field: "ownerId",
      send: (id: number) => call(gw, "PATCH", "/api/v1/project/1", writer, { ownerId: id }),
    },
  ];
  for (const c of cases) {
    const before = await dump(gw);
    const other = await c.send(4);
    const none = await c.send(999);
    t.equal(other.status, 409, `${c.field}: another company's user`);
    t.same(other, none, `${c.field}: the same answer for a user that does not exist`);
    t.same(other.body.error, {
      code: "CONFLICT",
      message: `${c.field} does not refer to an existing user`,
      details: { [c.field]: "must refer to an existing user" },
    });
    t.equal(await dump(gw), before, "nothing changed");
    const own = await c.send(3);
    t.equal(own.status, 200, `${c.field}: a user of the caller's company is fine`);
  }
  const cleared = await call(gw, "PATCH", "/api/v1/task/1", writer, { assigneeId: null });
  t.equal(cleared.status, 200, "unassigning still works");
});

t.test("grantedScopes: only the scopes a user may be granted", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const admin = caller("admin1", []);
  const before = await dump(gw);
  for (const scopes of [["auth:internal"], ["tasks:write", "auth:internal"], ["anything"], ["TASKS:WRITE"]]) {
    const res = await call(gw, "PATCH", "/api/v1/user/3", admin, { grantedScopes: scopes });
    t.equal(res.status, 422, JSON.stringify(scopes));
    t.equal(res.body.error.code, "VALIDATION_ERROR");
    t.match(res.body.error.details, { grantedScopes: /must be one of/ });
  }
  t.equal(await dump(gw), before, "nothing changed");
  const ok = await call(gw, "PATCH", "/api/v1/user/3", admin, {
    grantedScopes: ["billing:read", "tasks:write"],
  });
  t.equal(ok.status, 200);
  t.same(ok.body.data.grantedScopes, ["billing:read", "tasks:write"]);
  const none = await call(gw, "PATCH", "/api/v1/user/3", admin, { grantedScopes: [] });
  t.same(none.body.data.grantedScopes, [], "no scope at all is allowed");

  // The table holds the same rule, for writes that do not go through the route (handlers).
  await t.rejects(gw.su.query(`UPDATE "user" SET "grantedScopes" = '["auth:internal"]' WHERE "id" = 3`), {
    code: "23514",
    constraint: "user_grantedScopes_known_check",
  });
  await t.rejects(gw.su.query(`UPDATE "user" SET "grantedScopes" = '"tasks:write"' WHERE "id" = 3`), {
    code: "23514",
  });
});

t.test("grantedScopes' allowed list is the schema's scopes minus auth:internal", async (t) => {
  const schema = loadExampleSchema();
  const route = schema.endpoints
    .flatMap((g) => g.routes)
    .find((r) => r.method === "PATCH" && r.path === "/user/:id");
  if (!route || !isStandardRoute(route)) throw new Error("PATCH /user/:id is missing");
  const oneOf = route.request
    .find((p) => p.name === "grantedScopes")
    ?.validator.find((v) => v.type === "ONE_OF")?.value;
  t.same(
    [...(oneOf as string[])].sort(),
    schema.scopes.filter((s) => s !== "auth:internal").sort(),
    "a scope added to the schema is grantable once it is added here (and to the user check)",
  );
  const check = schema.database
    .find((tb) => tb.name === "user")
    ?.checkConstraints.find((c) => c.name === "user_grantedScopes_known_check")?.check;
  for (const scope of oneOf as string[])
    t.ok(check?.includes(`"${scope}"`), `the table's check allows ${scope}`);
  t.notOk(check?.includes("auth:internal"));
});
