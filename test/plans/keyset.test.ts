// Plan check for keyset pages (docs/query-language.md "Keyset pages"): on the Restura fixture at
// the bench's scale (10,000 users), a page deep in the table read by cursor touches about what
// the first page touches, while the same page by offset reads every row before it. Counts of
// buffers and rows (auto_explain, ANALYZE, BUFFERS), not timings: a busy machine cannot move them.

import t from "tap";
import { RESTURA_FIXTURE } from "../harness/templates.ts";
import { gatewayPlan, type PlanDb, planDatabase, read } from "./plan.ts";

const USER = { role: "user", scopes: ["read:user"], userId: 1234, companyId: 235 };
const ROUTE = "GET /api/v1/user/paged";
/** A page's worth of buffers (index pages, heap pages of 20 rows, the plan's own) between two pages. */
const SLACK = 20;

t.test("keyset pages: a deep page costs what the first one does", async (t) => {
  const db = await planDatabase(t, "tpl_restura", RESTURA_FIXTURE, [
    read("test/routes/restura.seed.sql"),
    read("test/plans/restura.scale.sql"),
  ]);
  const plan = (params: Record<string, unknown>) =>
    gatewayPlan(db, { name: ROUTE, route: ROUTE, params, ctx: USER, sql: "" });

  for (const sort of [{}, { sortBy: "email", sortOrder: "DESC" }]) {
    for (const count of ["exact", "planned"]) {
      t.test(`${JSON.stringify(sort)}, count ${count}`, async (t) => {
        const base = { ...sort, perPage: 20, $count: count };
        const first = await plan({ ...base, after: "" });
        const after = await cursorBefore(db, sort, 7980);
        const deep = await plan({ ...base, after });
        const offset = await plan({ ...base, page: 400 });
        const ids = (body: string) => (JSON.parse(body) as { data: { id: number }[] }).data.map((r) => r.id);
        t.same(ids(deep.body), ids(offset.body), "the cursor's page is the offset's page 400");
        t.equal(ids(deep.body).length, 20);
        const summary = `keyset page 1 ${first.stats.buffers} buffers / ${first.stats.rows} rows, deep ${deep.stats.buffers} / ${deep.stats.rows}, offset page 400 ${offset.stats.buffers} / ${offset.stats.rows}`;
        t.comment(summary);
        t.ok(deep.stats.buffers <= first.stats.buffers + SLACK, `deep keyset buffers ≈ page 1 (${summary})`, {
          deep: deep.stats.text.join("\n"),
        });
        t.ok(deep.stats.rows <= first.stats.rows + SLACK, "and the rows it reads");
        t.ok(offset.stats.rows > deep.stats.rows + 7000, "the offset page reads the rows before it");
      });
    }
  }
});

/** The cursor a client holds after `position` rows in this sort (the last row's keys). */
async function cursorBefore(db: PlanDb, sort: { sortBy?: string; sortOrder?: string }, position: number) {
  const order = sort.sortBy ? `"${sort.sortBy}" DESC, id DESC` : "id";
  const { rows } = await db.su.query(`SELECT id, email FROM "user" ORDER BY ${order} OFFSET $1 LIMIT 1`, [
    position - 1,
  ]);
  const last = rows[0] as { id: string; email: string };
  const keys = sort.sortBy ? [last.email, Number(last.id)] : [Number(last.id)];
  const cursor = { s: sort.sortBy ?? "", o: sort.sortOrder ?? "ASC", k: keys };
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}
