// Through the views, as api_gateway with the per-request settings: tenant isolation (row
// policies), column masks (column roles/scopes) and the table rule (table scope). Each rule is
// also checked with the other layer switched off, so every test fails if its own rule is removed.

import type pg from "pg";
import t from "tap";
import {
  admin1,
  anonymous,
  type Ctx,
  countOf,
  gatewaySession,
  ids,
  member1,
  rolledBack,
  rows,
  seededExample,
  setCtx,
  sqlState,
} from "./helpers.ts";

/** Rows per company as the superuser sees them, for the tables that have a companyId. */
const COMPANY_TABLES = ["user", "project", "task", "tag", "invoice"];

t.test("through the views", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);
  const as = async (ctx: Ctx | null) => setCtx(gw, ctx);

  const companyIds = async (client: pg.Client, table: string) =>
    (
      await rows<{ c: string }>(client, `SELECT DISTINCT "companyId"::text AS c FROM ${table} ORDER BY 1`)
    ).map((r) => r.c);

  t.test("same_company: a member sees only company 1 in every company table", async (t) => {
    await as(member1);
    for (const table of COMPANY_TABLES.filter((x) => x !== "invoice")) {
      t.same(await companyIds(gw, `api."${table}"`), ["1"], `api.${table}: company 1 only`);
      t.same(await companyIds(su, `public."${table}"`), ["1", "2"], `public.${table} has both companies`);
      const mine = await countOf(gw, `api."${table}"`);
      const all = await countOf(su, `public."${table}" WHERE "companyId" = 1`);
      t.equal(mine, all, `api.${table}: every row of company 1`);
    }
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1]);
  });

  t.test("same_company follows the context: company 2's member sees company 2 only", async (t) => {
    await as({ role: "member", scopes: [], companyId: 2, userId: 6 });
    t.same(await companyIds(gw, "api.project"), ["2"]);
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1, 2], "its own and the listed one");
  });

  t.test("public_listing: anonymous callers see listed companies only", async (t) => {
    await as(anonymous);
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1]);
    t.same(
      await ids(su, `SELECT id FROM public.company WHERE NOT "isListed"`),
      [2],
      "company 2 exists, unlisted",
    );
    await su.query(`UPDATE public.company SET "isListed" = true WHERE id = 2`);
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1, 2], "listing company 2 shows it");
    await su.query(`UPDATE public.company SET "isListed" = false WHERE id = 2`);
    for (const table of ["user", "project", "task", "comment", "tag", "task_tag", "invoice"]) {
      t.equal(await countOf(gw, `api."${table}"`), 0, `anonymous: api.${table} is empty`);
    }
  });

  t.test("custom EXISTS policies: comments and task tags follow their task's company", async (t) => {
    await as(member1);
    const comments = await ids(gw, "SELECT id FROM api.comment ORDER BY id");
    const expected = await ids(
      su,
      `SELECT c.id FROM public.comment c JOIN public.task t ON t.id = c."taskId" WHERE t."companyId" = 1 ORDER BY c.id`,
    );
    t.same(comments, expected);
    t.same(comments, [1, 2, 3, 4, 5]);
    const tags = await rows(gw, `SELECT "taskId"::int AS "taskId" FROM api.task_tag ORDER BY 1`);
    t.same(
      tags.map((r) => r.taskId),
      [1, 3, 3, 4],
    );
    await as({ role: "member", scopes: [], companyId: 2, userId: 6 });
    t.same(await ids(gw, "SELECT id FROM api.comment ORDER BY id"), [6, 7, 8]);
    t.same(
      (await rows(gw, `SELECT "taskId"::int AS x FROM api.task_tag ORDER BY 1`)).map((r) => r.x),
      [9, 10, 12],
    );
  });

  t.test("column roles: budget is NULL for members, present for admins and managers", async (t) => {
    await as(member1);
    const member = await rows(gw, `SELECT id::int, budget FROM api.project WHERE id IN (1, 2) ORDER BY id`);
    t.same(member, [
      { id: 1, budget: null },
      { id: 2, budget: null },
    ]);
    await as(admin1);
    const admin = await rows(gw, `SELECT id::int, budget FROM api.project WHERE id IN (1, 2) ORDER BY id`);
    t.same(admin, [
      { id: 1, budget: "125000.00" },
      { id: 2, budget: "1234.50" },
    ]);
    await as({ role: "manager", scopes: [], companyId: 1, userId: 2 });
    t.equal((await rows(gw, "SELECT budget FROM api.project WHERE id = 2"))[0]?.budget, "1234.50");
  });

  t.test("column roles: admin-only user columns", async (t) => {
    await as({ role: "manager", scopes: [], companyId: 1, userId: 2 });
    const [m] = await rows(gw, `SELECT "lastLoginOn", "grantedScopes" FROM api.user WHERE id = 1`);
    t.same(m, { lastLoginOn: null, grantedScopes: null });
    await as(admin1);
    const [a] = await rows(
      gw,
      `SELECT "lastLoginOn" IS NOT NULL AS l, "grantedScopes" FROM api.user WHERE id = 1`,
    );
    t.same(a, { l: true, grantedScopes: ["billing:read", "tasks:write"] });
  });

  t.test("column scopes: billingEmail needs billing:read; passwordHash is private", async (t) => {
    await as({ ...member1, scopes: [] });
    t.equal((await rows(gw, `SELECT "billingEmail" FROM api.company WHERE id = 1`))[0]?.billingEmail, null);
    await as({ ...member1, scopes: ["billing:read"] });
    t.equal(
      (await rows(gw, `SELECT "billingEmail" FROM api.company WHERE id = 1`))[0]?.billingEmail,
      "billing@acme.test",
    );
    // Private: not in the view at all, whatever the caller holds (test/security/privateColumns.test.ts).
    await as({ ...admin1, scopes: ["auth:internal"] });
    t.equal(await sqlState(gw, `SELECT "passwordHash" FROM api.user WHERE id = 3`), "42703");
  });

  t.test("invoices: a member never sees them, even with billing:read (no policy for members)", async (t) => {
    await as({ ...member1, scopes: ["billing:read"] });
    t.same(await ids(gw, "SELECT id FROM api.invoice"), []);
    await as({ ...member1, role: "admin", scopes: ["billing:read"] });
    t.same(
      await ids(gw, "SELECT id FROM api.invoice ORDER BY id"),
      [1, 2, 3],
      "the same caller as admin does",
    );
  });

  t.test("invoices: the table scope billing:read, in the view and in row security", async (t) => {
    await as({ ...admin1, scopes: ["tasks:write"] });
    t.same(await ids(gw, "SELECT id FROM api.invoice"), [], "admin without billing:read sees none");
    // Each layer alone still refuses: the view's WHERE with RLS off on the table ...
    const rlsOff = ["ALTER TABLE public.invoice DISABLE ROW LEVEL SECURITY"];
    t.same(
      await rolledBack(su, rlsOff, { ...admin1, scopes: [] }, (c) => ids(c, "SELECT id FROM api.invoice")),
      [],
      "view alone (RLS disabled)",
    );
    t.same(
      await rolledBack(su, rlsOff, admin1, (c) => ids(c, "SELECT id FROM api.invoice ORDER BY id")),
      [1, 2, 3, 4, 5],
      "RLS really is off there",
    );
    // ... and row security alone (the restrictive policy), with the view's WHERE gone.
    const unfiltered = ["CREATE OR REPLACE VIEW api.invoice AS SELECT * FROM public.invoice"];
    t.same(
      await rolledBack(su, unfiltered, { ...admin1, scopes: [] }, (c) =>
        ids(c, "SELECT id FROM api.invoice"),
      ),
      [],
      "RLS alone (view unfiltered)",
    );
    t.same(
      await rolledBack(su, unfiltered, admin1, (c) => ids(c, "SELECT id FROM api.invoice ORDER BY id")),
      [1, 2, 3],
      "and with the scope: company 1's",
    );
  });

  t.test("the column masks do not depend on row security", async (t) => {
    const rlsOff = ["ALTER TABLE public.project DISABLE ROW LEVEL SECURITY"];
    const seen = await rolledBack(su, rlsOff, member1, (c) =>
      rows(c, "SELECT count(*)::int AS n, count(budget)::int AS budgets FROM api.project"),
    );
    t.same(seen, [{ n: 5, budgets: 0 }], "every project (RLS off), no budget");
  });

  t.test("a leaky function in the caller's own query sees only what the caller may", async (t) => {
    // The views are plain views (flattened, so a handler's joins reach the indexes); what a
    // non-leakproof function in the caller's WHERE can be shown is held back by row security,
    // whose conditions Postgres always evaluates first, and by the masks, which are part of the
    // column itself. The function is nearly free, so the planner would run it first if allowed.
    await su.query(`CREATE FUNCTION public.leak(text) RETURNS boolean LANGUAGE plpgsql COST 0.0001 AS
      $$ BEGIN RAISE NOTICE 'leak:%', coalesce($1, '<null>'); RETURN true; END $$`);
    await su.query("GRANT EXECUTE ON FUNCTION public.leak(text) TO api_gateway");
    const leaked = async (client: pg.Client, sql: string): Promise<string[]> => {
      const seen: string[] = [];
      const listen = (n: { message?: string }) => {
        if (n.message?.startsWith("leak:")) seen.push(n.message.slice(5));
      };
      client.on("notice", listen);
      try {
        await client.query(sql);
      } finally {
        client.off("notice", listen);
      }
      return seen.sort();
    };
    const titlesOf = async (company: number) =>
      (await rows<{ title: string }>(su, `SELECT title FROM public.task WHERE "companyId" = ${company}`)).map(
        (r) => r.title,
      );

    await as(member1);
    const own = await titlesOf(1);
    t.same(
      await leaked(gw, "SELECT id FROM api.task WHERE public.leak(title)"),
      own.sort(),
      "company 1's titles only",
    );
    t.ok((await titlesOf(2)).length > 0, "company 2 has tasks to leak");
    const budgets = await leaked(gw, "SELECT id FROM api.project WHERE public.leak(budget::text)");
    t.ok(
      budgets.length > 0 && budgets.every((b) => b === "<null>"),
      "a member's budgets are NULL inside the query too",
    );
    await as({ ...admin1, scopes: [] });
    t.same(
      await leaked(gw, "SELECT id FROM api.invoice WHERE public.leak(id::text)"),
      [],
      "no invoice without billing:read",
    );
    // The probe does see a leak where only a plain WHERE stands in the way: the cheap function
    // runs before the view's condition and is shown the other company's rows.
    const plainFilter = [
      `CREATE VIEW api.probe AS SELECT * FROM public.task WHERE "companyId" + 0 = 1`,
      "GRANT SELECT ON api.probe TO api_gateway",
    ];
    const exposed = await rolledBack(su, plainFilter, member1, (c) =>
      leaked(c, "SELECT id FROM api.probe WHERE public.leak(title)"),
    );
    const theirs = await titlesOf(2);
    t.ok(
      exposed.some((title) => theirs.includes(title) && !own.includes(title)),
      "a plain view's WHERE would have leaked company 2's titles",
    );
  });

  t.test("a context that names another company sees that company only", async (t) => {
    // The context decides; the gateway builds it from the verified token, never from the client.
    await as({ ...admin1, companyId: "2" });
    t.same(await companyIds(gw, "api.project"), ["2"]);
    await as({ ...admin1, companyId: "999" });
    t.same(await ids(gw, "SELECT id FROM api.project"), []);
  });
});
