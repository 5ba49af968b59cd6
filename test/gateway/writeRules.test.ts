// The write rules of docs/schema.md ("Write rules") over HTTP on a real database: what an absent,
// null or present body parameter does to its column on POST, PUT and PATCH, whether the parameter
// reaches the column directly or through an assignment `{name: "c", value: "$p"}`; a hidden column
// reached through an assignment; and 409s that name the fields the client sent, not the columns
// assigned from the token.

import t from "tap";
import { column, id, scratchApp, standardRoute, table, uniqueIndex } from "../harness/app.ts";
import { type Claims, type TestGateway, testGatewayForApp } from "../harness/gateway.ts";

const param = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  required: false,
  validator: [{ type: "TYPE_CHECK", value: type }],
  ...extra,
});

// Every body parameter but `title` and `summary` reaches its column through an assignment.
const bodyParams = [
  param("summary", "string", { isNullable: true }),
  param("tag", "string", { isNullable: true }),
  param("level", "number"),
  param("hint", "string", { isNullable: true }),
  param("owner", "number", { isNullable: true }),
];
const fromParams = [
  // `title` also writes its own column: one parameter, two columns.
  { name: "heading", value: "$title" },
  { name: "label", value: "$tag" },
  { name: "priority", value: "$level" },
  { name: "secret", value: "$hint" },
  { name: "ownerId", value: "$owner" },
];

const route = (method: string, path: string, extra: Record<string, unknown>) =>
  standardRoute(
    method,
    path,
    "note",
    ["id", "title", "heading", "summary", "label", "priority", "secret", "ownerId"],
    {
      roles: ["admin", "member"],
      ...extra,
    },
  );
const byId = {
  request: [param("id", "number", { required: true }), param("title", "string"), ...bodyParams],
  where: [{ tableName: "note", columnName: "id", operator: "=", value: "$id" }],
};

const schema = {
  database: [
    table("owner", [id(), column("groupId", "BIGINT")], {
      indexes: [uniqueIndex("owner", ["id", "groupId"])],
    }),
    table(
      "note",
      [
        id(),
        column("groupId", "BIGINT"),
        column("title", "VARCHAR", { length: 100 }),
        column("summary", "TEXT", { isNullable: true }),
        column("label", "VARCHAR", { length: 20, isNullable: true, default: "'none'" }),
        column("priority", "INTEGER", { default: "3" }),
        column("secret", "TEXT", { isNullable: true, roles: ["admin"] }),
        column("ownerId", "BIGINT", { isNullable: true }),
        column("heading", "VARCHAR", { length: 100, isNullable: true }),
      ],
      {
        checkConstraints: [{ name: "note_priority_range_check", check: '"priority" BETWEEN 1 AND 10' }],
        indexes: [uniqueIndex("note", ["groupId", "title"])],
        foreignKeys: [
          {
            name: "note_owner_fk",
            columns: ["ownerId", "groupId"],
            refTable: "owner",
            refColumns: ["id", "groupId"],
            onDelete: "NO ACTION",
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
        route("POST", "/note", {
          request: [param("title", "string", { required: true }), ...bodyParams],
          assignments: [{ name: "groupId", value: "#groupId" }, ...fromParams],
        }),
        route("PATCH", "/note/:id", { ...byId, assignments: fromParams }),
        route("PUT", "/note/:id", { ...byId, assignments: fromParams }),
        route("POST", "/note/tagged", {
          request: [param("title", "string", { required: true }), param("tag", "string", { required: true })],
          assignments: [
            { name: "groupId", value: "#groupId" },
            { name: "label", value: "$tag" },
          ],
        }),
      ],
    },
  ],
  customTypes: [],
  globalParams: ["groupId"],
  roles: ["admin", "member"],
  scopes: [],
};

const SEED = `
  INSERT INTO "owner" ("id", "groupId") VALUES (1, 1), (2, 2);
  INSERT INTO "note" ("id", "groupId", "title", "heading", "summary", "label", "priority", "secret", "ownerId")
    VALUES (1, 1, 'first', 'first', 's1', 'keep', 5, 'kept secret', 1);
  SELECT setval(pg_get_serial_sequence('"public"."note"', 'id'), 1);`;

const admin: Claims = { role: "admin", scopes: [], groupId: 1 };
const member: Claims = { role: "member", scopes: [], groupId: 1 };

async function call(
  gw: TestGateway,
  method: "POST" | "PUT" | "PATCH",
  url: string,
  as: Claims,
  body: unknown,
) {
  const res = await gw.request({ method, url, as, payload: body as Record<string, unknown> });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

async function stored(gw: TestGateway, noteId: number) {
  const { rows } = await gw.su.query(
    `SELECT "title", "heading", "summary", "label", "priority", "secret", "ownerId"::int AS "ownerId"
       FROM "note" WHERE "id" = $1`,
    [noteId],
  );
  return rows[0];
}

const FIRST = {
  title: "first",
  heading: "first",
  summary: "s1",
  label: "keep",
  priority: 5,
  secret: "kept secret",
  ownerId: 1,
};

t.test("write rules: absent, null and present, direct and through assignments", async (t) => {
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(t, app.dir, SEED);

  t.test(
    "POST: an absent optional parameter gives its column the default, also via an assignment",
    async (t) => {
      const res = await call(gw, "POST", "/api/v1/note", admin, { title: "defaults" });
      t.equal(res.status, 200, JSON.stringify(res.body));
      t.same(await stored(gw, res.body.data.id), {
        title: "defaults",
        heading: "defaults",
        summary: null,
        label: "none",
        priority: 3,
        secret: null,
        ownerId: null,
      });
    },
  );

  t.test("POST: explicit null is NULL, a value is the value, via an assignment too", async (t) => {
    const nulls = await call(gw, "POST", "/api/v1/note", admin, { title: "nulls", summary: null, tag: null });
    t.equal(nulls.status, 200);
    t.match(await stored(gw, nulls.body.data.id), { summary: null, label: null, priority: 3 });
    const values = await call(gw, "POST", "/api/v1/note", admin, {
      title: "values",
      summary: "s",
      tag: "t",
      level: 8,
      hint: "h",
      owner: 1,
    });
    t.equal(values.status, 200);
    t.same(await stored(gw, values.body.data.id), {
      title: "values",
      heading: "values",
      summary: "s",
      label: "t",
      priority: 8,
      secret: "h",
      ownerId: 1,
    });
  });

  t.test("POST: a required parameter behind an assignment must be sent", async (t) => {
    const missing = await call(gw, "POST", "/api/v1/note/tagged", admin, { title: "untagged" });
    t.equal(missing.status, 422);
    t.same(missing.body.error.details, { tag: "is required" });
    const ok = await call(gw, "POST", "/api/v1/note/tagged", admin, { title: "tagged", tag: "x" });
    t.match(ok.body.data, { title: "tagged", label: "x", priority: 3 });
  });

  for (const method of ["PATCH", "PUT"] as const) {
    t.test(`${method}: absent parameters keep their columns, also through assignments`, async (t) => {
      await gw.su.query(`UPDATE "note" SET "summary" = 's1' WHERE "id" = 1`);
      const res = await call(gw, method, "/api/v1/note/1", admin, { summary: "changed" });
      t.equal(res.status, 200, JSON.stringify(res.body));
      t.same(await stored(gw, 1), { ...FIRST, summary: "changed" }, "only summary changed");
      const empty = await call(gw, method, "/api/v1/note/1", admin, {});
      t.equal(empty.status, 200);
      t.same(await stored(gw, 1), { ...FIRST, summary: "changed" }, "an empty body changes nothing");
      await gw.su.query(`UPDATE "note" SET "summary" = 's1' WHERE "id" = 1`);
    });
  }

  t.test("PATCH: explicit null writes NULL, a value writes the value, via assignments too", async (t) => {
    const nulls = await call(gw, "PATCH", "/api/v1/note/1", admin, { tag: null, owner: null });
    t.equal(nulls.status, 200);
    t.same(await stored(gw, 1), { ...FIRST, label: null, ownerId: null });
    const values = await call(gw, "PATCH", "/api/v1/note/1", admin, { tag: "keep", level: 9, owner: 1 });
    t.equal(values.status, 200);
    t.same(await stored(gw, 1), { ...FIRST, priority: 9 });
    const cleared = await call(gw, "PATCH", "/api/v1/note/1", admin, { level: 5, hint: null });
    t.equal(cleared.status, 200);
    t.same(await stored(gw, 1), { ...FIRST, secret: null });
    await gw.su.query(`UPDATE "note" SET "secret" = 'kept secret' WHERE "id" = 1`);
  });

  t.test("one parameter writing two columns: both follow the rules", async (t) => {
    const renamed = await call(gw, "PATCH", "/api/v1/note/1", admin, { title: "renamed" });
    t.equal(renamed.status, 200);
    t.same(await stored(gw, 1), { ...FIRST, title: "renamed", heading: "renamed" });
    await call(gw, "PUT", "/api/v1/note/1", admin, { title: "first" });
    t.same(await stored(gw, 1), FIRST);
  });

  t.test("concurrent PATCHes of different assignment-fed columns all persist", async (t) => {
    const bodies = [{ tag: "both" }, { level: 7 }, { summary: "too" }, { owner: null }];
    const results = await Promise.all(bodies.map((b) => call(gw, "PATCH", "/api/v1/note/1", admin, b)));
    t.same(
      results.map((r) => r.status),
      bodies.map(() => 200),
    );
    t.same(await stored(gw, 1), { ...FIRST, label: "both", priority: 7, summary: "too", ownerId: null });
    await call(gw, "PATCH", "/api/v1/note/1", admin, { tag: "keep", level: 5, summary: "s1", owner: 1 });
    t.same(await stored(gw, 1), FIRST);
  });

  t.test("a value checked against the column an assignment writes it to, before SQL", async (t) => {
    const before = gw.statements();
    const res = await call(gw, "PATCH", "/api/v1/note/1", admin, { tag: "x".repeat(21), level: 2 ** 31 });
    t.equal(res.status, 422);
    t.same(res.body.error.details, {
      tag: "must be at most 20 characters",
      level: "must be between -2147483648 and 2147483647",
    });
    t.equal(gw.statements(), before, "no statement");
    t.same(await stored(gw, 1), FIRST);
  });

  t.test("a check on a column written from a parameter names the parameter", async (t) => {
    const res = await call(gw, "PATCH", "/api/v1/note/1", admin, { level: 11 });
    t.equal(res.status, 422);
    t.same(res.body.error, {
      code: "VALIDATION_ERROR",
      message: "The values do not satisfy the check note_priority_range_check",
      details: { level: "does not satisfy the check note_priority_range_check" },
    });
    t.same(await stored(gw, 1), FIRST);
  });

  t.test("a parameter reaching a hidden column through an assignment: 403, nothing written", async (t) => {
    for (const [method, url] of [
      ["PATCH", "/api/v1/note/1"],
      ["POST", "/api/v1/note"],
    ] as const) {
      const res = await call(gw, method, url, member, { title: "by member", hint: "mine" });
      t.equal(res.status, 403, `${method} ${url}`);
      t.same(res.body.error, {
        code: "FORBIDDEN",
        message: 'You do not have permission to write the column "secret"',
      });
    }
    t.same(await stored(gw, 1), FIRST);
    const { rows } = await gw.su.query(`SELECT 1 FROM "note" WHERE "title" = 'by member'`);
    t.equal(rows.length, 0);
    const without = await call(gw, "PATCH", "/api/v1/note/1", member, { summary: "s1" });
    t.equal(without.status, 200, "the member may write the other columns");
  });

  t.test("a composite foreign key's 409 names the field sent, not the assigned column", async (t) => {
    const expected = {
      code: "CONFLICT",
      message: "owner does not refer to an existing owner",
      details: { owner: "must refer to an existing owner" },
    };
    // Owner 2 exists in another group, owner 999 nowhere: the same answer.
    for (const owner of [2, 999]) {
      const post = await call(gw, "POST", "/api/v1/note", admin, { title: `owned ${owner}`, owner });
      t.equal(post.status, 409);
      t.same(post.body.error, expected, `POST owner ${owner}`);
      const patch = await call(gw, "PATCH", "/api/v1/note/1", admin, { owner });
      t.equal(patch.status, 409);
      t.same(patch.body.error, expected, `PATCH owner ${owner}`);
    }
    t.same(await stored(gw, 1), FIRST);
  });

  t.test("a composite unique key's 409 names the field sent, not the assigned column", async (t) => {
    const res = await call(gw, "POST", "/api/v1/note", admin, { title: "first" });
    t.equal(res.status, 409);
    t.same(res.body.error, {
      code: "CONFLICT",
      message: "A note with this title already exists",
      details: { title: "is already taken" },
    });
    const other = await call(gw, "POST", "/api/v1/note", { ...admin, groupId: 2 }, { title: "first" });
    t.equal(other.status, 200, "unique per group");
  });
});
