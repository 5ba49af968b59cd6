// How changes are recorded in the outbox (docs/realtime.md "How events are recorded"): every
// writer (route functions, plain SQL as the table owner, the service role), one row per changed
// row for multi-row statements, updates only when a notify column (or a column a policy reads)
// changed, statement-level triggers, and at most one NOTIFY per transaction.

import type pg from "pg";
import t from "tap";
import { type Ctx, gatewaySession, member1, seededExample } from "../api/helpers.ts";
import { head, outboxAfter } from "./dbHelpers.ts";

const writer1: Ctx = { ...member1, scopes: ["tasks:write"] };
const manager1: Ctx = { role: "manager", scopes: ["tasks:write"], companyId: "1", userId: "2" };

async function route(gw: pg.Client, name: string, params: unknown, ctx: Ctx): Promise<unknown> {
  const { rows } = await gw.query(`SELECT api."${name}"($1, $2) AS body`, [params, ctx]);
  return rows[0]?.body;
}

t.test("the outbox", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);

  t.test("route functions: insert, update, delete", async (t) => {
    const start = await head(su);
    const created = (await route(gw, "POST /api/v1/task", { projectId: 1, title: "via route" }, writer1)) as {
      data: { id: number };
    };
    const id = created.data.id;
    await route(gw, "PATCH /api/v1/task/:id", { id, title: "renamed" }, writer1);
    await route(gw, "DELETE /api/v1/task/:id", { id }, manager1);
    const rows = await outboxAfter(su, start);
    t.same(
      rows.map((r) => [r.table_name, r.op]),
      [
        ["task", "insert"],
        ["task", "update"],
        ["task", "delete"],
      ],
    );
    const [insert, update, remove] = rows;
    t.match(insert?.new_row, { id, title: "via route", companyId: 1, createdById: 3 });
    t.equal(insert?.old_row, null);
    t.match(update?.old_row, { id, title: "via route" });
    t.match(update?.new_row, { id, title: "renamed" });
    t.match(remove?.old_row, { id, title: "renamed" });
    t.equal(remove?.new_row, null);
  });

  t.test("plain SQL as the table owner, multi-row statements", async (t) => {
    const start = await head(su);
    await su.query(
      `INSERT INTO public.task ("companyId", "projectId", "createdById", title)
       VALUES (1, 1, 3, 'bulk a'), (1, 1, 3, 'bulk b'), (2, 4, 5, 'bulk c')`,
    );
    await su.query(`UPDATE public.task SET done = true WHERE title LIKE 'bulk %'`);
    await su.query(`DELETE FROM public.task WHERE title LIKE 'bulk %'`);
    const rows = await outboxAfter(su, start);
    t.same(
      rows.map((r) => `${r.op} ${(r.new_row ?? r.old_row)?.title}`),
      [
        "insert bulk a",
        "insert bulk b",
        "insert bulk c",
        "update bulk a",
        "update bulk b",
        "update bulk c",
        "delete bulk a",
        "delete bulk b",
        "delete bulk c",
      ],
      "one row per changed row, in statement order",
    );
    for (const r of rows.filter((r) => r.op === "update")) {
      t.equal(r.old_row?.done, false);
      t.equal(r.new_row?.done, true);
    }
  });

  t.test("the service role (req.service) is recorded too", async (t) => {
    const start = await head(su);
    await su.query("BEGIN");
    await su.query("SET LOCAL SESSION AUTHORIZATION api_service");
    await su.query(
      `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, 'svc')`,
    );
    await su.query("COMMIT");
    t.same(
      (await outboxAfter(su, start)).map((r) => [r.op, r.new_row?.title]),
      [["insert", "svc"]],
    );
  });

  t.test("an update that changes no notify column records nothing", async (t) => {
    const start = await head(su);
    // project notifies id, companyId, name, status, budget, dueDate: description is not one.
    await su.query(`UPDATE public.project SET description = 'changed' WHERE id = 1`);
    // The same values written again.
    await su.query(`UPDATE public.project SET name = name, status = status WHERE id IN (1, 2)`);
    await su.query(`UPDATE public.task SET title = title`);
    t.same(await outboxAfter(su, start), [], "nothing recorded");
    await su.query(`UPDATE public.project SET description = 'again', status = 'on_hold' WHERE id = 1`);
    t.same(
      (await outboxAfter(su, start)).map((r) => [r.op, r.old_row?.status, r.new_row?.status]),
      [["update", "active", "on_hold"]],
      "a notify column changed: recorded",
    );
  });

  t.test("a changed primary key is a delete and an insert", async (t) => {
    const start = await head(su);
    await su.query(`INSERT INTO public.tag ("companyId", name, color) VALUES (1, 'x', '#000000')`);
    await su.query(
      `INSERT INTO public.task (id, "companyId", "projectId", "createdById", title) VALUES (900, 1, 1, 3, 'pk')`,
    );
    await su.query(`UPDATE public.task SET id = 901 WHERE id = 900`);
    t.same(
      (await outboxAfter(su, start)).map((r) => [r.op, (r.new_row ?? r.old_row)?.id]),
      [
        ["insert", 900],
        ["delete", 900],
        ["insert", 901],
      ],
      "tag has no notify: nothing recorded for it",
    );
  });

  t.test("the capture triggers are statement-level, with transition tables", async (t) => {
    const { rows } = await su.query(
      `SELECT tgrelid::regclass::text AS rel, tgname, (tgtype & 1) = 1 AS per_row,
              tgoldtable IS NOT NULL OR tgnewtable IS NOT NULL AS transition
       FROM pg_trigger WHERE tgname LIKE 'api:realtime%' ORDER BY 1, 2`,
    );
    t.same(
      rows.map((r) => r.rel),
      ["comment", "comment", "comment", "project", "project", "project", "task", "task", "task"],
      "three triggers on each table with notify, none elsewhere",
    );
    t.ok(
      rows.every((r) => !r.per_row && r.transition),
      "FOR EACH STATEMENT with transition tables",
    );
  });

  t.test("one NOTIFY per transaction, none when nothing is recorded", async (t) => {
    const { connect } = await import("../harness/db.ts");
    const listener = await connect(t, url);
    const received: string[] = [];
    listener.on("notification", (n) => received.push(`${n.channel}:${n.payload}`));
    await listener.query("LISTEN api_realtime");
    const settle = async () => {
      await listener.query("SELECT 1"); // notifications arrive before the answer to a later query
      await new Promise((r) => setTimeout(r, 100));
      await listener.query("SELECT 1");
    };

    await su.query("BEGIN");
    for (const title of ["n1", "n2", "n3"]) {
      await su.query(
        `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, $1)`,
        [title],
      );
    }
    await su.query(`UPDATE public.project SET status = 'on_hold' WHERE id = 2`);
    await su.query("COMMIT");
    await settle();
    t.same(received, ["api_realtime:"], "four recorded statements, one notification, empty payload");

    received.length = 0;
    await gw.query("BEGIN");
    await route(gw, "POST /api/v1/task", { projectId: 1, title: "sub 1" }, writer1);
    await gw.query("SAVEPOINT s");
    await route(gw, "POST /api/v1/task", { projectId: 1, title: "sub 2" }, writer1);
    await gw.query("RELEASE SAVEPOINT s");
    await gw.query("COMMIT");
    await settle();
    t.same(
      received,
      ["api_realtime:"],
      "two route functions (subtransactions, one in a savepoint) in one transaction: one",
    );

    received.length = 0;
    await su.query(`UPDATE public.project SET description = 'not notified' WHERE id = 2`);
    await su.query(`UPDATE public.tag SET name = 'no notify' WHERE id = 1`);
    await settle();
    t.same(received, [], "nothing recorded: no notification");

    await su.query(
      `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, 'n4')`,
    );
    await su.query(
      `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, 'n5')`,
    );
    await settle();
    t.same(received, ["api_realtime:", "api_realtime:"], "two transactions, two notifications");

    // The throttle: a notifying transaction holds the advisory lock of its 20 ms window (class
    // "RTNY") until it ends, so concurrent writers in that window skip their NOTIFY.
    await su.query("BEGIN");
    await su.query(
      `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, 'n6')`,
    );
    const { rows: locks } = await listener.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND granted`,
      [0x52544e59],
    );
    await su.query("COMMIT");
    t.equal(locks[0]?.n, 1, "the writer holds its window's notify lock until it commits");
    const { rows: after } = await listener.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1`,
      [0x52544e59],
    );
    t.equal(after[0]?.n, 0, "and releases it with its transaction");
  });
});
