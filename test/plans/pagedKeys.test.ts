// The keys-first path of PAGED routes (generator/routes/kinds/pagedKeys.ts) against the
// one-statement path it replaces for filtered and sorted requests: on the example app at scale,
// for callers who see different columns (a member does not see a project's budget), every
// request gives the same answer from both. The one-statement function is the route's own, with
// the keys-first block cut out and created under another name.

import path from "node:path";
import t from "tap";
import { planDatabase, REPO, read } from "./plan.ts";

const ADMIN = { role: "admin", scopes: ["billing:read", "tasks:write"], companyId: 1, userId: 1 };
const MEMBER = { role: "member", scopes: ["tasks:write"], companyId: 1, userId: 1050 };
const OTHER_COMPANY = { role: "admin", scopes: [], companyId: 7, userId: 1 };

const REQUESTS: Record<string, unknown>[] = [
  {
    filter: { column: "status", op: "eq", value: "active" },
    sortBy: "name",
    sortOrder: "DESC",
    perPage: 5,
    page: 2,
  },
  { sortBy: "name" },
  { sortBy: "createdOn", sortOrder: "DESC", perPage: 7, page: 3 },
  { sortBy: "ownerLastName", perPage: 50 },
  { sortBy: "companyName", sortOrder: "DESC" },
  { sortOrder: "DESC", perPage: 3 },
  { sortOrder: "desc", page: 30, perPage: 5 },
  { sortOrder: "NONE", page: 2 },
  {
    filter: {
      or: [
        { column: "status", op: "eq", value: "archived" },
        { column: "name", op: "sw", value: "Project 1" },
      ],
    },
  },
  { filter: { column: "ownerFirstName", op: "in", value: ["Ann", "Ben"] }, sortBy: "id", sortOrder: "DESC" },
  { filter: { not: { column: "status", op: "eq", value: "active" } }, page: 100 },
  { filter: { column: "budget", op: "gt", value: "1000" }, sortBy: "budget" },
  { sortBy: "budget", sortOrder: "DESC" },
];

t.test("keys-first answers equal the one-statement answers", async (t) => {
  const db = await planDatabase(t, "tpl_example", path.join(REPO, "example/api.schema.json"), [
    read("example/seed.sql"),
    read("test/plans/example.scale.sql"),
  ]);
  const name = db.functionName("GET /api/v1/project");
  const { rows } = await db.su.query(
    `SELECT pg_get_functiondef(format('api.%I(jsonb,jsonb)', $1::text)::regprocedure) AS d`,
    [name],
  );
  const def = rows[0].d as string;
  const block =
    /\n *IF _api_sort_by IS NULL OR \(_api_entry->>'type'\) IS NOT NULL THEN\n[\s\S]*?\n *END IF;\n/;
  t.match(def, block, "the route function has a keys-first block");
  // The own order reversed takes a static keys-first statement of its own: cut out too, so that
  // the one-statement function answers DESC through its query text.
  const reversed =
    /\n *IF _api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'DESC'[^\n]*\n[\s\S]*?\n *END IF;\n/;
  t.match(def, reversed, "the route function has a static block for the reversed order");
  const oneStatement = def
    .replace(block, "\n")
    .replace(reversed, "\n")
    .replace(`FUNCTION api."${name}"`, `FUNCTION api."one statement"`);
  await db.su.query(oneStatement);
  await db.su.query(`ALTER FUNCTION api."one statement"(jsonb, jsonb) OWNER TO api_owner`);
  await db.su.query(`GRANT EXECUTE ON FUNCTION api."one statement"(jsonb, jsonb) TO api_gateway`);

  const call = async (fn: string, params: unknown, ctx: unknown) => {
    const r = await db.gw
      .query(`SELECT api."${fn}"($1::jsonb, $2::jsonb) AS a`, [params, ctx])
      .catch((e) => e);
    return r instanceof Error ? `${(r as { code?: string }).code}: ${r.message}` : (r.rows[0].a as string);
  };
  let pages = 0;
  for (const ctx of [ADMIN, MEMBER, OTHER_COMPANY]) {
    for (const params of REQUESTS) {
      const label = `${ctx.role} of company ${ctx.companyId}: ${JSON.stringify(params)}`;
      const expected = await call("one statement", params, ctx);
      const got = await call(name, params, ctx);
      t.equal(got, expected, label);
      if (/"data" ?: ?\[\{/.test(got)) pages++;
    }
  }
  // The default request takes the static keys-first statement; the one-statement function answers
  // the same rows in the same order for sortOrder NONE (the primary key, as this route's default).
  for (const ctx of [ADMIN, MEMBER]) {
    for (const page of [{}, { page: 2, perPage: 5 }, { page: 40, perPage: 1 }, { page: 999 }]) {
      t.equal(
        await call(name, page, ctx),
        await call("one statement", { ...page, sortOrder: "NONE" }, ctx),
        `default order, ${ctx.role}: ${JSON.stringify(page)}`,
      );
    }
  }
  t.ok(pages >= 25, `most requests return rows (${pages} of ${3 * REQUESTS.length})`);
  // The own order and its reverse run static statements: no query text is prepared for them.
  await db.gw.query("DEALLOCATE ALL");
  for (const sortOrder of ["ASC", "DESC"])
    for (const page of [{}, { page: 2, perPage: 5 }, { page: 40, perPage: 3 }])
      await call(name, { ...page, sortOrder }, MEMBER);
  const texts = await db.gw.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'api\\_q\\_%'`);
  t.same(texts.rows, [], "no query text prepared for the own order or its reverse");
  await call(name, { sortOrder: "NONE" }, MEMBER);
  const none = await db.gw.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'api\\_q\\_%'`);
  t.equal(none.rows.length, 1, "sortOrder NONE still prepares its text (the check can fail)");
  // A member may not sort by budget: both refuse it the same way, before any query.
  t.match(await call(name, { sortBy: "budget" }, MEMBER), /A0400/, "hidden column refused");
});
