import t from "tap";
import {
  EXAMPLE_SCHEMA,
  EXAMPLE_SEED,
  exact,
  readExpected,
  replayExpected,
  routeDatabase,
} from "./helpers.ts";

const cases = readExpected("example");

const member = { role: "member", scopes: ["tasks:write"], companyId: 1, userId: 3 };
const admin = { role: "admin", scopes: ["billing:read", "tasks:write"], companyId: 1, userId: 1 };
const manager = { role: "manager", scopes: ["tasks:write"], companyId: 1, userId: 2 };
const anonymous = { role: null, scopes: [] };

t.test("example app", async (t) => {
  const db = await routeDatabase(t, {
    schemaFile: EXAMPLE_SCHEMA,
    template: "tpl_example",
    seed: EXAMPLE_SEED,
  });

  replayExpected(t, db, cases);

  t.test("DECIMAL keeps its digits, timestamps are UTC ISO 8601, DATE is YYYY-MM-DD", async (t) => {
    const r = await db.call("GET /api/v1/invoice", {}, admin);
    if (!r.ok) throw new Error(r.message);
    t.match(r.text, /"amount" : 990\.00,/);
    t.match(r.text, /"amount" : 1234\.50,/);
    t.match(r.text, /"paidOn" : "2026-02-10T09:30:00\+00:00"/);
    t.match(r.text, /"issuedOn" : "2026-01-31"/);
    // The server's time zone does not matter.
    await db.gw.query("SET timezone = 'Asia/Tokyo'");
    const again = await db.call("GET /api/v1/invoice", {}, admin);
    await db.gw.query("RESET timezone");
    t.equal(again.ok && again.text, r.text, "same text whatever the session's time zone");
  });

  // Writes store the whole context and every key (docs/architecture.md "Caller context"): a
  // trigger the app adds may read the caller through any helper, whatever the policies read.
  t.test("a trigger the app adds reads the caller on a write", async (t) => {
    await db.su.query(`
      CREATE FUNCTION public.test_stamp_caller() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW."description" := concat_ws('|', api.ctx_text('userId'), api.ctx_text('role'),
          api.ctx_text('companyId'), api.ctx_scopes()::text, api.ctx()->>'userId');
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_stamp_caller BEFORE UPDATE ON public.task
        FOR EACH ROW EXECUTE FUNCTION public.test_stamp_caller();`);
    t.teardown(() =>
      db.su.query("DROP TRIGGER test_stamp_caller ON public.task; DROP FUNCTION public.test_stamp_caller()"),
    );
    const task = (await db.su.query(`SELECT min("id") AS id FROM "task" WHERE "companyId" = 1`)).rows[0].id;
    const r = await db.call("PATCH /api/v1/task/:id", { id: Number(task), title: "Stamped" }, member);
    t.ok(r.ok, JSON.stringify(r));
    const stamped = (await db.su.query(`SELECT "description" FROM "task" WHERE "id" = $1`, [task])).rows[0];
    t.equal(stamped.description, "3|member|1|{tasks:write}|3", "every key and the whole context");
  });

  t.test("route rule (defense in depth: the gateway checks it first)", async (t) => {
    const denied = "A0403: Insufficient permissions";
    t.equal(await db.error("GET /api/v1/user/me", {}, anonymous), denied, "anonymous, route with roles");
    t.equal(
      await db.error("GET /api/v1/invoice", {}, manager),
      denied,
      "role ok, scope billing:read missing",
    );
    t.equal(
      await db.error("GET /api/v1/invoice", {}, { ...member, scopes: ["billing:read"] }),
      denied,
      "scope ok, role member not allowed",
    );
    t.equal(await db.error("GET /api/v1/task/unassigned", {}, member), denied);
    t.equal(
      await db.error("GET /api/v1/task/stats", {}, { role: "Admin", scopes: [] }),
      denied,
      "roles match exactly",
    );
    t.ok(await db.body("GET /api/v1/company/public/:id", { id: 1 }, anonymous), "public route, anonymous");
  });

  t.test("hidden columns are left out, key order kept", async (t) => {
    const asMember = (await db.body("GET /api/v1/user", {}, member)) as { data: Record<string, unknown>[] };
    t.same(Object.keys(asMember.data[0] ?? {}), [
      "id",
      "email",
      "firstName",
      "lastName",
      "role",
      "isActive",
      "avatarUrl",
    ]);
    const asAdmin = (await db.body("GET /api/v1/user", {}, admin)) as { data: Record<string, unknown>[] };
    t.same(Object.keys(asAdmin.data[0] ?? {}), [
      "id",
      "email",
      "firstName",
      "lastName",
      "role",
      "isActive",
      "avatarUrl",
      "lastLoginOn",
      "grantedScopes",
    ]);
  });

  t.test("tenant isolation holds through the route functions", async (t) => {
    t.equal(await db.error("GET /api/v1/task/:id", { id: 9 }, member), "A0404: No task matches the request");
    const tags = (await db.body(
      "GET /api/v1/tag",
      {},
      { role: "member", scopes: [], companyId: 2, userId: 6 },
    )) as {
      data: { id: number }[];
    };
    t.same(
      tags.data.map((x) => x.id),
      [5, 4],
    );
  });

  t.test("a request value that does not cast is A0400", async (t) => {
    t.equal(
      await db.error("GET /api/v1/project/:id", { id: "abc" }, member),
      "A0400: A request value does not match the type of the column it is compared with",
    );
    t.equal(
      await db.error("GET /api/v1/project/:id", { id: 1.5 }, member),
      "A0400: A request value does not match the type of the column it is compared with",
    );
    t.equal(
      await db.error("GET /api/v1/task/by-priority", { priorities: "high" }, member),
      "A0400: A request value does not match the type of the column it is compared with",
      "a scalar where a list is expected",
    );
  });

  t.test("injection attempts as values change nothing", async (t) => {
    for (const q of ["x' OR '1'='1", "%' OR 1=1 --", "'); DROP TABLE task; --", "\\"]) {
      exact(t, await db.body("GET /api/v1/task/search", { q }, member), { data: [] }, q);
    }
    exact(
      t,
      await db.body("GET /api/v1/task/by-priority", { priorities: ["high') OR true --", "urgent"] }, member),
      { data: [] },
    );
    const { rows } = await db.su.query("SELECT count(*)::int AS n FROM public.task");
    t.equal(rows[0].n, 13, "tasks intact");
  });
});
