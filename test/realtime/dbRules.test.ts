// Delivery rules of api.realtime_events on the example (docs/realtime.md "Delivery rules"), as the
// gateway calls it: two tenants (the example's companies), several roles. Row policies (plain and
// raw SQL), column rules, the notify list, deletes decided on the old row, updates that move a
// row out of or into view, updates that change only what a context cannot see, the `tables` and
// `upto` arguments and cursor validation. Each rule's assertion fails when the rule is removed.

import t from "tap";
import { admin1, anonymous, type Ctx, gatewaySession, member1, seededExample } from "../api/helpers.ts";
import { type Event, events, failsWith, head } from "./dbHelpers.ts";

const member2: Ctx = { role: "member", scopes: [], companyId: "2", userId: "6" };
const admin2: Ctx = { ...admin1, companyId: "2", userId: "4" };

/** "op table id: {data} / {old}" for compact comparisons. */
function show(e: Event): string {
  const data = e.data === null ? "null" : JSON.stringify(sorted(e.data));
  const old = e.old === null ? "" : ` / ${JSON.stringify(sorted(e.old))}`;
  return `${e.op} ${e.table_name} ${JSON.stringify(e.key)}: ${data}${old}`;
}
function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

t.test("api.realtime_events", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);
  const start = await head(su);

  await su.query(
    `INSERT INTO public.task (id, "companyId", "projectId", "createdById", title, "createdOn")
     VALUES (101, 1, 1, 3, 'one', '2026-01-01T00:00:00Z'), (102, 2, 4, 5, 'two', '2026-01-01T00:00:00Z')`,
  );
  await su.query(`UPDATE public.project SET budget = 99 WHERE id = 2`); // only a column members cannot see
  await su.query(`UPDATE public.project SET status = 'on_hold' WHERE id = 2`);
  await su.query(`INSERT INTO public.project (id, "companyId", name) VALUES (50, 1, 'Mover')`);
  await su.query(`UPDATE public.project SET "companyId" = 2 WHERE id = 50`); // leaves company 1 for company 2
  await su.query(`DELETE FROM public.task WHERE id = 101`);
  await su.query(
    `INSERT INTO public.comment (id, "taskId", "authorId", body) VALUES (100, 1, 3, 'on task 1')`,
  );
  const end = await head(su);

  const seen = async (ctx: Ctx | null, options = {}) => (await events(gw, ctx, start, options)).map(show);

  t.test("row policies, two tenants: each sees its own company's rows", async (t) => {
    const mine = await seen(member1);
    t.same(mine, [
      'insert task {"id":101}: {"assigneeId":null,"companyId":1,"createdById":3,"createdOn":"2026-01-01T00:00:00+00:00","description":null,"done":false,"dueDate":null,"estimateHours":null,"id":101,"priority":"medium","projectId":1,"title":"one"}',
      'update project {"id":2}: {"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"on_hold"} / {"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"planning"}',
      'insert project {"id":50}: {"companyId":1,"dueDate":null,"id":50,"name":"Mover","status":"planning"}',
      'delete project {"id":50}: null',
      'delete task {"id":101}: {"assigneeId":null,"companyId":1,"createdById":3,"createdOn":"2026-01-01T00:00:00+00:00","description":null,"done":false,"dueDate":null,"estimateHours":null,"id":101,"priority":"medium","projectId":1,"title":"one"}',
      'insert comment {"id":100}: {"authorId":3,"body":"on task 1","id":100,"taskId":1}',
    ]);
    const theirs = await seen(member2);
    t.same(theirs, [
      'insert task {"id":102}: {"assigneeId":null,"companyId":2,"createdById":5,"createdOn":"2026-01-01T00:00:00+00:00","description":null,"done":false,"dueDate":null,"estimateHours":null,"id":102,"priority":"medium","projectId":4,"title":"two"}',
      'insert project {"id":50}: {"companyId":2,"dueDate":null,"id":50,"name":"Mover","status":"planning"}',
    ]);
  });

  t.test("column rules: budget only for admins and managers; only notify columns", async (t) => {
    const admin = (await events(gw, admin1, start, { tables: ["project"] })).map(show);
    t.same(admin, [
      'update project {"id":2}: {"budget":99,"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"planning"} / {"budget":1234.5,"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"planning"}',
      'update project {"id":2}: {"budget":99,"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"on_hold"} / {"budget":99,"companyId":1,"dueDate":null,"id":2,"name":"Website Redesign","status":"planning"}',
      'insert project {"id":50}: {"budget":null,"companyId":1,"dueDate":null,"id":50,"name":"Mover","status":"planning"}',
      'delete project {"id":50}: null',
    ]);
    // The member's list above has one project update, not two: the budget-only update changed
    // nothing it may see. Its data has no budget key and no description/createdOn/settings.
    const memberProject = (await events(gw, member1, start, { tables: ["project"] })).filter(
      (e) => e.op === "update",
    );
    t.equal(memberProject.length, 1, "an update of a hidden column alone is not sent");
    t.notOk("budget" in (memberProject[0]?.data ?? {}), "a hidden column's key is left out");
  });

  t.test("a delete is decided on the old row; a move out of view is a delete without data", async (t) => {
    const admin2Seen = await seen(admin2, { tables: ["project", "task"] });
    t.same(
      admin2Seen.map((s) => s.split(":")[0]),
      ['insert task {"id"', 'insert project {"id"'],
      "company 2 never saw task 101, so it gets no delete of it",
    );
  });

  t.test("a context without a company sees no row of a table with policies", async (t) => {
    t.same(await seen(anonymous), []);
    t.same(await seen(null), [], "no context at all");
  });

  t.test("tables and upto", async (t) => {
    t.same(
      (await seen(member1, { tables: ["comment"] })).map((s) => s.split(" ")[0]),
      ["insert"],
      "only the tables asked for",
    );
    t.same(await seen(member1, { tables: [] }), [], "no table");
    const all = await events(gw, member1, start);
    const second = all[1]?.event_id as string;
    t.same(
      (await events(gw, member1, start, { upto: second })).map((e) => e.event_id),
      all.slice(0, 2).map((e) => e.event_id),
      "up to and including upto",
    );
    t.same(
      (await events(gw, member1, second)).map((e) => e.event_id),
      all.slice(2).map((e) => e.event_id),
      "after excludes the event it names",
    );
    t.same(await events(gw, member1, end), [], "nothing after the head");
    const ids = all.map((e) => e.event_id);
    t.same(ids, [...ids].sort(compareCursors), "in cursor order");
  });

  t.test("cursors that are not ours", async (t) => {
    for (const bad of ["", "abc", "1:", ":1", "1:2:3", "-1:0", "99999999999999999999999:0"]) {
      t.equal(await failsWith(() => events(gw, member1, bad)), "A0400", JSON.stringify(bad));
    }
    t.equal(await failsWith(() => events(gw, member1, "99999999:0")), "A0400", "beyond every transaction id");
    t.equal(await failsWith(() => events(gw, member1, start, { upto: "x" })), "A0400", "upto too");
  });

  t.test("the gateway reads events only through the functions", async (t) => {
    t.equal(await failsWith(() => gw.query("SELECT * FROM api_realtime.outbox")), "42501");
    t.equal(await failsWith(() => gw.query("DELETE FROM api_realtime.pruned")), "42501");
  });
});

function compareCursors(a: string, b: string): number {
  const [ax, as] = a.split(":").map(BigInt) as [bigint, bigint];
  const [bx, bs] = b.split(":").map(BigInt) as [bigint, bigint];
  return ax === bx ? Number(as - bs) : ax < bx ? -1 : 1;
}
