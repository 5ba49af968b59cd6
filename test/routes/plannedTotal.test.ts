// `count=planned` on a route whose rows are its whole table (generator/routes/kinds/plannedTotal.ts):
// the total is the planner's estimate of the table's size, read from pg_class, without EXPLAIN or
// a prepared query text. It must equal what EXPLAIN says in every state of the table's
// statistics, and a table behind a row policy keeps EXPLAIN of what the caller may see: the
// table's size is not theirs to learn. A table rule is all or nothing: refused callers get no total.
// Schema: plannedTotal.schema.json (three tables of 2,000 rows in 20 groups, one open to all, one
// behind a row policy on the caller's group, one behind a table rule for admins).

import path from "node:path";
import t from "tap";
import { decodedCursor } from "../../gateway/routes/cursor.ts";
import { type Ctx, routeDatabase } from "./helpers.ts";

const SCHEMA = path.join(import.meta.dirname, "plannedTotal.schema.json");
const SEED = ["entry", "group_entry", "admin_entry"]
  .map(
    (table) =>
      `INSERT INTO "public"."${table}" ("groupId", "note") SELECT g % 20 + 1, 'row ' || g FROM generate_series(1, 2000) g;`,
  )
  .join("\n");
const user: Ctx = { role: "user", scopes: [], groupId: 1 };

interface Page {
  data: { id: number }[];
  total: number;
  totalMode?: string;
  next?: string | null;
}

t.test("a whole table's planned total is the planner's estimate, read without EXPLAIN", async (t) => {
  const db = await routeDatabase(t, { schemaFile: SCHEMA, seed: SEED });
  /** The planner's row estimate of the whole table (superuser; the table has no row rules). */
  const explained = async (table: string) => {
    const { rows } = await db.su.query(`EXPLAIN (FORMAT JSON) SELECT 1 FROM "public"."${table}"`);
    return Number(rows[0]["QUERY PLAN"][0].Plan["Plan Rows"]);
  };
  const texts = async () =>
    (
      await db.gw.query<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE name LIKE 'api\\_q\\_%'`,
      )
    ).rows.map((r) => r.statement);
  /** As the gateway sends it: a cursor of the route's own order decoded (gateway/routes/cursor.ts). */
  const planned = async (params: Record<string, unknown>) => {
    const decoded = decodedCursor(params.after, 1);
    const sent = {
      perPage: 5,
      $count: "planned",
      ...params,
      ...(decoded === undefined ? {} : { $after: decoded }),
    };
    return (await db.body("GET /api/v1/entry", sent, user)) as Page;
  };

  // Statistics change only when this test says so (autovacuum could analyse between two reads).
  await db.su.query("ALTER TABLE entry SET (autovacuum_enabled = false)");
  await db.su.query("ANALYZE entry");
  const byCursor = await planned({ after: "" });
  t.equal(byCursor.totalMode, "planned");
  t.equal(byCursor.total, await explained("entry"), "the first page by cursor: EXPLAIN's figure");
  t.equal(byCursor.data.length, 5);
  const next = await planned({ after: byCursor.next });
  t.same(
    next.data.map((r) => r.id),
    [6, 7, 8, 9, 10],
    "the page after the cursor",
  );
  t.equal(next.total, byCursor.total);
  t.same(await texts(), [], "by cursor in the route's order: no query text prepared, nothing EXPLAINed");

  const byOffset = await planned({ page: 2 });
  t.equal(byOffset.total, byCursor.total, "by offset: the same figure");
  t.same(
    byOffset.data.map((r) => r.id),
    next.data.map((r) => r.id),
  );
  const held = await texts();
  t.equal(held.length, 1, "by offset: the page's text alone, no count query to EXPLAIN");
  t.match(held[0] ?? "", /'total', \$5/);

  // Rows added since the last ANALYZE: the planner scales the analysed rows per page to the
  // table's current size, and so does the route.
  await db.su.query(
    `INSERT INTO entry ("groupId", note) SELECT g % 20 + 1, 'more ' || g FROM generate_series(1, 3000) g`,
  );
  const grown = await explained("entry");
  t.ok(grown > 4000, `the planner sees the table grow before any ANALYZE (${grown})`);
  t.equal((await planned({ after: "" })).total, grown, "by cursor: the grown estimate");
  t.equal((await planned({})).total, grown, "by offset: the grown estimate");

  // No statistics (TRUNCATE forgets them): pg_class has no figure and EXPLAIN answers.
  await db.su.query("TRUNCATE entry");
  await db.su.query(`INSERT INTO entry ("groupId", note) VALUES (1, 'alone')`);
  const bare = await explained("entry");
  const fallback = await planned({ after: "" });
  t.equal(fallback.total, bare, `never analysed: EXPLAIN's estimate (${bare})`);
  t.equal(fallback.totalMode, "planned");
  t.equal(fallback.data.length, 1);
  t.ok(
    (await texts()).some((s) => /AS SELECT 1\b/.test(s)),
    "the count query was EXPLAINed through its prepared statement",
  );
});

t.test("a filter, a where or a row policy keep EXPLAIN; a table rule refuses first", async (t) => {
  const db = await routeDatabase(t, { schemaFile: SCHEMA, seed: SEED });
  await db.su.query("ANALYZE");
  const total = async (route: string, params: Record<string, unknown>, ctx: Ctx = user) =>
    (await db.body(`GET /api/v1${route}`, { perPage: 5, $count: "planned", ...params }, ctx)) as Page;
  const whole = (await total("/entry", { after: "" })).total;
  t.ok(whole >= 1900 && whole <= 2100, `the whole table (${whole})`);

  const filtered = await total("/entry", { after: "", filter: { column: "groupId", op: "eq", value: "1" } });
  t.ok(filtered.total < whole / 5, `a filter: the filtered estimate (${filtered.total})`);
  t.equal(filtered.data.length, 5);

  const where = await total("/entry/by-group", { after: "" });
  t.ok(where.total < whole / 5, `the route's where: its estimate (${where.total})`);

  // A row policy: what the caller may see, never the table's size.
  for (const params of [{ after: "" }, {}]) {
    const page = await total("/group-entry", params);
    t.equal(page.totalMode, "planned");
    t.ok(page.total < whole / 5, `a row policy ${JSON.stringify(params)}: its estimate (${page.total})`);
    t.equal(page.data.length, 5, "the policy leaves the caller's group");
  }
  // A table rule: a caller who fails it is refused before any total; one who passes sees every row.
  t.equal(
    await db.error("GET /api/v1/admin-entry", { $count: "planned", after: "" }, user),
    "A0403: You do not have permission to access this table",
  );
  const admin = await total("/admin-entry", { after: "" }, { ...user, role: "admin" });
  t.ok(admin.total >= 1900 && admin.total <= 2100, `an admin: the table's estimate (${admin.total})`);
});
