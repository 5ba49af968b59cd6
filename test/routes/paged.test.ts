// PAGED routes: page and total from one statement, sortBy / sortOrder, and the filter AST on
// every operator, with hidden and unknown columns, values that do not cast, and injection attempts.
// Route GET /api/v1/member/paged of features.schema.json: members 1-4 (member 5 fails the route's
// own where, score >= 0).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { exact, FEATURES_SCHEMA, FEATURES_SEED, routeDatabase } from "./helpers.ts";

const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
const member = { role: "member", scopes: [], teamId: 1 };
const ROUTE = "GET /api/v1/member/paged";

interface Page {
  data: ({ id: number } & Record<string, unknown>)[];
  total: number;
}

t.test("paged", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const page = async (params: Record<string, unknown>, ctx: Record<string, unknown> = admin) =>
    (await db.body(ROUTE, params, ctx as typeof admin)) as Page;
  const ids = async (params: Record<string, unknown>, ctx: Record<string, unknown> = admin) =>
    (await page(params, ctx)).data.map((r) => r.id);
  const filtered = (filter: unknown, ctx: Record<string, unknown> = admin) => ids({ filter }, ctx);
  const error = (params: Record<string, unknown>, ctx: Record<string, unknown> = admin) =>
    db.error(ROUTE, params, ctx as typeof admin);

  t.test("page, perPage and total", async (t) => {
    const all = await page({});
    t.same(
      all.data.map((r) => r.id),
      [1, 2, 3, 4],
    );
    t.equal(all.total, 4);
    const second = await page({ page: 2, perPage: 2 });
    t.same(
      second.data.map((r) => r.id),
      [3, 4],
    );
    t.equal(second.total, 4, "total counts every match, not the page");
    exact(t, await page({ page: 3, perPage: 2 }), { data: [], total: 4 }, "past the end: no rows, the total");
    exact(t, await page({ perPage: 1, filter: { column: "score", op: "gte", value: "20" } }), {
      data: [(await page({})).data[1]],
      total: 3,
    });
    exact(t, await page({ filter: { column: "score", op: "gt", value: "1000" } }), { data: [], total: 0 });
    for (const bad of [{ page: 0 }, { perPage: 0 }, { page: -1, perPage: 5 }]) {
      t.equal(await error(bad), "A0400: page and perPage must be at least 1", JSON.stringify(bad));
    }
    t.equal(
      await error({ page: "two" }),
      "A0400: A request value does not match the type of the column it is compared with",
    );
  });

  t.test("a whole row: types, hidden columns left out in order", async (t) => {
    const first = { filter: { column: "id", op: "eq", value: "1" } };
    exact(t, await page(first), {
      data: [
        {
          id: 1,
          name: "Ann",
          code: "AAA",
          joinedOn: "2023-05-01",
          lastSeen: "2024-01-02T03:04:05.123456+00:00",
          score: 10,
          ratio: 0.5,
          active: true,
          profile: { city: "Oslo", level: 3 },
          salary: 5000,
          note: null,
          uid: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
          teamName: "Red",
          nameLength: 3,
          tags: [{ tag: "lead" }, { tag: "ops" }],
        },
      ],
      total: 1,
    });
    const asMember = await page(first, member);
    t.same(Object.keys(asMember.data[0] ?? {}), [
      "id",
      "name",
      "code",
      "joinedOn",
      "lastSeen",
      "score",
      "ratio",
      "active",
      "profile",
      "note",
      "uid",
      "teamName",
      "nameLength",
      "tags",
    ]);
  });

  t.test("the dynamic path returns what the static one does", async (t) => {
    const plain = await db.call(ROUTE, {}, member);
    for (const params of [
      { filter: { and: [] } },
      { sortOrder: "ASC", sortBy: "id" },
      { sortOrder: "asc", filter: null },
    ]) {
      const other = await db.call(ROUTE, params, member);
      t.equal(other.ok && other.text, plain.ok && plain.text, JSON.stringify(params));
    }
  });

  t.test("sortBy and sortOrder", async (t) => {
    t.same(await ids({ sortBy: "name" }), [1, 2, 3, 4], "a property, ASC");
    t.same(await ids({ sortBy: "name", sortOrder: "DESC" }), [4, 3, 2, 1]);
    t.same(
      await ids({ sortBy: "member.score", sortOrder: "DESC" }),
      [3, 4, 2, 1],
      "ties: primary key, same direction",
    );
    t.same(await ids({ sortBy: "score" }), [1, 2, 4, 3]);
    t.same(await ids({ sortBy: "t.name" }), [4, 1, 2, 3], "a joined column by alias");
    t.same(await ids({ sortBy: "team.name" }), [4, 1, 2, 3], "... or by table name (joined once)");
    t.same(
      await ids({ sortBy: "teamName", sortOrder: "desc" }),
      [3, 2, 1, 4],
      "sortOrder is case-insensitive",
    );
    t.same(await ids({ sortBy: "nameLength", sortOrder: "DESC" }), [2, 4, 3, 1], "a raw selector");
    t.same(
      await ids({ sortBy: "salary" }),
      [4, 2, 1, 3],
      "a restricted column the caller may see; NULL last",
    );
    t.same(
      await ids({ sortBy: "salary", sortOrder: "DESC" }),
      [3, 1, 2, 4],
      "DESC: NULL first, the exact reverse (docs/query-language.md, NULL ordering)",
    );
    t.same(await ids({ sortBy: "note" }), [4, 2, 3, 1], "NULL last");
    t.same(await ids({ sortBy: "note", sortOrder: "DESC" }), [1, 3, 2, 4], "NULL first");
    t.same(await ids({ sortOrder: "DESC" }), [4, 3, 2, 1], "no sortBy: the default order reversed");
    t.same(await ids({ sortBy: "name", sortOrder: "NONE" }), [1, 2, 3, 4], "NONE: primary key only");
    const orders = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await page({ sortOrder: "RAND" });
      t.equal(r.total, 4);
      t.same([...r.data.map((x) => x.id)].sort(), [1, 2, 3, 4]);
      orders.add(r.data.map((x) => x.id).join());
    }
    t.ok(orders.size > 1, `RAND: ${orders.size} different orders in 20 calls`);
    const notSortable = (name: string) => `A0400: column "${name}" is not available for sorting`;
    t.equal(await error({ sortBy: "salary" }, member), notSortable("salary"), "hidden");
    t.equal(
      await error({ sortBy: "member.salary" }, member),
      notSortable("member.salary"),
      "hidden, by table",
    );
    t.equal(await error({ sortBy: "tags" }), notSortable("tags"), "a subquery");
    t.equal(await error({ sortBy: "password" }), notSortable("password"), "unknown");
    t.equal(
      await error({ sortBy: "member.teamId" }),
      notSortable("member.teamId"),
      "a column not in the response",
    );
    t.equal(await error({ sortBy: 'id"; DROP TABLE member; --' }), notSortable('id"; DROP TABLE member; --'));
    t.equal(
      await error({ sortBy: "id", sortOrder: "SIDEWAYS" }),
      "A0400: sortOrder must be one of ASC, DESC, NONE, RAND",
    );
    t.equal(
      await error({ sortBy: "nope", sortOrder: "RAND" }),
      notSortable("nope"),
      "checked whatever the order",
    );
  });

  t.test("filter: every operator", async (t) => {
    const f = (column: string, op: string, value?: string | string[]) =>
      filtered(value === undefined ? { column, op } : { column, op, value });
    t.same(await f("name", "eq", "Ann"), [1], "eq");
    t.same(await f("name", "eq", "ann"), [], "eq is exact");
    // A column compared with one value is written by the route function itself (paged.ts
    // filterStatement), every other condition by api.filter_sql: each operator on text here, the
    // other types below.
    t.same(await f("name", "ne", "Ann"), [2, 3, 4], "ne on text");
    t.same(await f("name", "gt", "Bz"), [3, 4], "gt on text");
    t.same(await f("name", "gte", "Cy_d"), [3, 4], "gte on text");
    t.same(await f("name", "lt", "Bz"), [1, 2], "lt on text");
    t.same(await f("name", "lte", "Bob 50% off"), [1, 2], "lte on text");
    t.same(await f("score", "ne", "20"), [1, 3], "ne");
    t.same(await f("score", "gt", "10"), [2, 3, 4], "gt");
    t.same(await f("score", "gte", "20"), [2, 3, 4], "gte");
    t.same(await f("score", "lt", "20"), [1], "lt");
    t.same(await f("score", "lte", "20"), [1, 2, 4], "lte");
    t.same(await f("name", "has", "B 5"), [2], "has: case-insensitive contains");
    t.same(await f("name", "has", "%"), [2], "has %: literal");
    t.same(await f("name", "has", "_"), [3], "has _: literal");
    t.same(await f("name", "has", "\\"), [4], "has \\: literal");
    t.same(await f("name", "sw", "c"), [3], "sw");
    t.same(await f("name", "sw", "_"), [], "sw _: literal");
    t.same(await f("name", "ew", "_D"), [3], "ew");
    t.same(await f("code", "has", "%"), [2], "has on a char column");
    t.same(await f("score", "has", "2"), [2, 4], "has on an integer column: its text");
    t.same(await f("id", "in", ["1", "3", "99"]), [1, 3], "in");
    t.same(await f("code", "in", ["AAA", "D\\D"]), [1, 4], "in on a char column");
    t.same(await f("note", "null"), [1], "null");
    t.same(await f("note", "notnull"), [2, 3, 4], "notnull");
    t.same(await f("joinedOn", "gte", "2024-01-01"), [2, 3], "a date");
    t.same(await f("lastSeen", "lt", "2024-07-01T00:00:00Z"), [1], "a timestamp");
    t.same(await f("ratio", "gt", "1"), [2], "a double");
    t.same(await f("active", "eq", "false"), [3], "a boolean");
    t.same(await f("uid", "eq", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"), [1], "a uuid");
    t.same(await f("profile", "eq", '{"city": "Rome"}'), [2], "a JSON column, compared as JSON");
    t.same(await f("member.profile.city", "eq", "Oslo"), [1, 4], "a JSON key, as text");
    t.same(await f("member.profile.level", "gt", "2"), [1], "a JSON key compares as text");
    t.same(await f("member.profile.no such key", "null"), [1, 2, 3, 4], "a missing key is NULL");
    t.same(await f("t.name", "eq", "Blue"), [4], "a joined column by alias");
    t.same(await f("team.name", "eq", "Blue"), [4], "... by table name");
    t.same(await f("teamName", "eq", "Blue"), [4], "... by property name");
    t.same(await f("member.name", "sw", "a"), [1], "table.column of the base table");
  });

  t.test("filter: and, or, not", async (t) => {
    const gte20 = { column: "score", op: "gte", value: "20" };
    const bob = { column: "name", op: "has", value: "bob" };
    t.same(await filtered({ and: [gte20, { not: bob }] }), [3, 4]);
    t.same(
      await filtered({
        or: [
          { column: "id", op: "eq", value: "1" },
          { column: "id", op: "eq", value: "4" },
        ],
      }),
      [1, 4],
    );
    t.same(
      await filtered({ or: [bob, { and: [gte20, { column: "active", op: "eq", value: "false" }] }] }),
      [2, 3],
    );
    t.same(await filtered({ not: { not: bob } }), [2]);
    t.same(await filtered({ and: [] }), [1, 2, 3, 4], "empty and: true");
    t.same(await filtered({ or: [] }), [], "empty or: false");
    t.same(
      await filtered({ column: "name", op: "eq", value: "Ann", or: [] }),
      [],
      "a node with and, or or not is that node, whatever else it holds",
    );
  });

  t.test("filter: what is not allowed", async (t) => {
    const notFilterable = (name: string) => `A0400: column "${name}" is not available for filtering`;
    const e = (filter: unknown, ctx: Record<string, unknown> = admin) => error({ filter }, ctx);
    t.equal(await e({ column: "salary", op: "gt", value: "0" }, member), notFilterable("salary"), "hidden");
    t.equal(
      await e({ column: "member.salary", op: "null" }, member),
      notFilterable("member.salary"),
      "hidden",
    );
    t.same(await filtered({ column: "salary", op: "gt", value: "1000" }), [1, 2], "visible to admin");
    t.equal(
      await e({ column: "nameLength", op: "eq", value: "3" }),
      notFilterable("nameLength"),
      "raw selector",
    );
    t.equal(await e({ column: "tags", op: "null" }), notFilterable("tags"), "subquery");
    t.equal(await e({ column: "password", op: "null" }), notFilterable("password"), "unknown");
    t.equal(
      await e({ column: "member.teamId", op: "eq", value: "1" }),
      notFilterable("member.teamId"),
      "not shown",
    );
    t.equal(
      await e({ column: "profile.city", op: "eq", value: "x" }),
      notFilterable("profile.city"),
      "key needs table.column",
    );
    t.equal(
      await e({ column: "member.name.x", op: "eq", value: "x" }),
      notFilterable("member.name.x"),
      "not JSON",
    );
    t.equal(
      await e({ column: "score", op: "eq", value: "abc" }),
      'A0400: filter value for column "score" is not a valid integer',
    );
    t.equal(
      await e({ column: "score", op: "eq", value: "99999999999" }),
      'A0400: filter value for column "score" is not a valid integer',
      "out of range",
    );
    t.equal(
      await e({ column: "joinedOn", op: "lt", value: "2024-02-30" }),
      'A0400: filter value for column "joinedOn" is not a valid date',
    );
    t.equal(
      await e({ column: "id", op: "in", value: ["1", "x"] }),
      'A0400: filter value for column "id" is not a valid bigint',
    );
    t.equal(
      await e({ column: "active", op: "eq", value: "maybe" }),
      'A0400: filter value for column "active" is not a valid boolean',
    );
    t.equal(await e({ column: "id" }), "A0400: filter is malformed");
    t.equal(await e({ column: "id", op: "between", value: "1" }), "A0400: unknown filter operator");
    t.equal(await e({ column: "id", op: "eq" }), "A0400: filter operator eq needs one value");
    t.equal(await e({ column: "id", op: "eq", value: ["1"] }), "A0400: filter operator eq needs one value");
    t.equal(await e({ column: "name", op: "eq" }), "A0400: filter operator eq needs one value", "text");
    t.equal(
      await e({ column: "name", op: "eq", value: ["Ann"] }),
      "A0400: filter operator eq needs one value",
      "text",
    );
    t.equal(await e({ column: "name", op: "eq", value: 1 }), "A0400: filter operator eq needs one value");
    t.equal(
      await e({ column: "id", op: "in", value: "1" }),
      "A0400: filter operator in needs a list of values",
    );
    t.equal(
      await e({ column: "id", op: "in", value: [] }),
      "A0400: filter operator in needs a list of values",
    );
    t.equal(await e({ and: {} }), "A0400: filter is malformed");
    t.equal(await e("id = 1"), "A0400: filter is malformed");
    let deep: unknown = { column: "id", op: "null" };
    for (let i = 0; i < 40; i++) deep = { not: deep };
    t.equal(await e(deep), "A0400: filter is nested too deeply");
  });

  t.test("filter: injection attempts change nothing", async (t) => {
    for (const value of ["' OR '1'='1", "Ann' --", "x'); DROP TABLE member; --", "$1", "$3[1]"]) {
      t.same(await filtered({ column: "name", op: "eq", value }), [], value);
      t.same(await filtered({ column: "name", op: "has", value }), [], value);
    }
    t.same(await filtered({ column: "member.profile.city') IS NOT NULL OR ('", op: "eq", value: "x" }), []);
    t.same(
      await filtered({ column: "id", op: "in", value: ["1", "1) OR (true"] }).catch(() => "rejected"),
      "rejected",
    );
    const { rows } = await db.su.query("SELECT count(*)::int AS n FROM public.member");
    t.equal(rows[0].n, 5, "members intact");
  });

  t.test("grouped PAGED", async (t) => {
    const route = "GET /api/v1/member/per-team";
    exact(t, await db.body(route, {}, member), {
      data: [
        { teamId: 1, members: 3 },
        { teamId: 2, members: 2 },
      ],
      total: 2,
    });
    exact(t, await db.body(route, { sortBy: "members" }, member), {
      data: [
        { teamId: 2, members: 2 },
        { teamId: 1, members: 3 },
      ],
      total: 2,
    });
    exact(t, await db.body(route, { perPage: 1, page: 2, sortOrder: "DESC" }, member), {
      data: [{ teamId: 1, members: 3 }],
      total: 2,
    });
    exact(t, await db.body(route, { filter: { column: "teamId", op: "eq", value: "2" } }, member), {
      data: [{ teamId: 2, members: 2 }],
      total: 1,
    });
    t.equal(
      await db.error(route, { filter: { column: "members", op: "gt", value: "2" } }, member),
      'A0400: column "members" is not available for filtering',
    );
  });
});

// The page carries only the columns its object reads (kinds/pagedText.ts rawRows): raw SQL that
// names them in each way Postgres allows still finds them, masks applied.
t.test("raw selectors read the page's columns however they name them", async (t) => {
  const schema = JSON.parse(fs.readFileSync(FEATURES_SCHEMA, "utf8"));
  const paged = schema.endpoints[0].routes.find((r: { path: string }) => r.path === "/member/paged");
  schema.endpoints[0].routes.push({
    ...paged,
    name: "paged raw names",
    path: "/member/paged-raw",
    response: [
      { name: "id", selector: "member.id" },
      { name: "codeScore", selector: `("code" || ':' || score)`, type: "string" },
      { name: "teamBudget", selector: `("budget" * 2)`, type: "number" },
      { name: "teamRow", selector: `(to_jsonb("t") ->> 'name')`, type: "string" },
      { name: "spaced", selector: `("member" . "note")`, type: "string" },
    ],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-paged-raw-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "raw.schema.json");
  fs.writeFileSync(file, JSON.stringify(schema));
  const db = await routeDatabase(t, { schemaFile: file, seed: FEATURES_SEED });
  const route = "GET /api/v1/member/paged-raw";
  exact(t, await db.body(route, { perPage: 2 }, admin), {
    data: [
      { id: 1, codeScore: "AAA:10", teamBudget: 2001, teamRow: "Red", spaced: null },
      { id: 2, codeScore: "B%B:20", teamBudget: 2001, teamRow: "Red", spaced: "likes 100%" },
    ],
    total: 4,
  });
  const asMember = (await db.body(route, { perPage: 1 }, member)) as Page;
  t.equal(asMember.data[0]?.teamBudget, null, "a masked column stays masked when raw SQL names it bare");
});
