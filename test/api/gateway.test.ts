// The gateway's role on its own: no privilege outside the views, nothing owned, no way around
// row-level security, and without the per-request settings it sees nothing restricted.

import t from "tap";
import { anonymous, countOf, gatewaySession, ids, rows, seededExample, setCtx, sqlState } from "./helpers.ts";

const POLICY_TABLES = ["user", "project", "task", "comment", "tag", "task_tag", "invoice"];

t.test("api_gateway", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);

  t.test("is who it says, and no superuser", async (t) => {
    const [who] = await rows(
      gw,
      "SELECT session_user AS s, current_user AS c, current_setting('is_superuser') AS su",
    );
    t.same(who, { s: "api_gateway", c: "api_gateway", su: "off" });
    const [role] = await rows(
      su,
      "SELECT rolcanlogin, rolinherit, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'api_gateway'",
    );
    t.same(role, { rolcanlogin: true, rolinherit: false, rolsuper: false, rolbypassrls: false });
    const [owner] = await rows(
      su,
      "SELECT rolcanlogin, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'api_owner'",
    );
    t.same(owner, { rolcanlogin: false, rolsuper: false, rolbypassrls: false });
  });

  t.test("without settings it sees no row of a policy table", async (t) => {
    await setCtx(gw, null);
    for (const table of POLICY_TABLES) {
      const n = await countOf(gw, `api."${table}"`);
      const all = await countOf(su, `public."${table}"`);
      t.equal(n, 0, `api.${table} is empty`);
      t.ok(all > 0, `public.${table} has rows (the superuser sees ${all})`);
    }
  });

  t.test("without settings: only listed companies, without restricted columns", async (t) => {
    await setCtx(gw, null);
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1], "public_listing only");
    const [c] = await rows(gw, `SELECT "billingEmail" FROM api.company WHERE id = 1`);
    t.equal(c?.billingEmail, null, "billingEmail (scope billing:read) is NULL");
    const [raw] = await rows(su, `SELECT "billingEmail" FROM public.company WHERE id = 1`);
    t.ok(raw?.billingEmail, "... although it has a value");
    // The same with the anonymous context the gateway sends.
    await setCtx(gw, anonymous);
    t.same(await ids(gw, "SELECT id FROM api.company ORDER BY id"), [1]);
    t.same(await ids(gw, "SELECT id FROM api.user"), []);
  });

  t.test("has no privilege on public at all", async (t) => {
    for (const table of [...POLICY_TABLES, "company"]) {
      t.equal(
        await sqlState(gw, `SELECT * FROM public."${table}" LIMIT 1`),
        "42501",
        `SELECT public.${table}`,
      );
    }
    t.equal(
      await sqlState(gw, `INSERT INTO public.tag ("companyId", name, color) VALUES (1, 'x', '#000000')`),
      "42501",
    );
    t.equal(await sqlState(gw, `UPDATE public.company SET name = 'x'`), "42501");
    t.equal(await sqlState(gw, `DELETE FROM public.task`), "42501");
    t.equal(await sqlState(gw, `SELECT nextval(pg_get_serial_sequence('public.task', 'id'))`), "42501");
    t.equal(await sqlState(gw, "CREATE TABLE public.mine (x int)"), "42501", "cannot create in public");
    t.equal(await sqlState(gw, "CREATE VIEW api.mine AS SELECT 1"), "42501", "cannot create in api");
    const [priv] = await rows(
      su,
      `SELECT bool_or(has_table_privilege('api_gateway', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')) AS any
       FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'S')`,
    );
    t.equal(priv?.any, false, "no table privilege in public, catalogue says");
  });

  t.test("cannot write through the views or switch roles", async (t) => {
    await setCtx(gw, { role: "admin", scopes: ["billing:read"], companyId: "1", userId: "1" });
    t.equal(await sqlState(gw, `UPDATE api.tag SET name = 'x'`), "42501", "views are read-only for it");
    t.equal(await sqlState(gw, "SET ROLE api_owner"), "42501");
    t.equal(await sqlState(gw, "SET ROLE postgres"), "42501");
  });

  t.test("cannot turn row security off", async (t) => {
    await setCtx(gw, { role: "admin", scopes: ["billing:read"], companyId: "1", userId: "1" });
    await gw.query("SET row_security = off");
    // With row_security off, a query that row security would filter fails instead of bypassing it.
    t.equal(await sqlState(gw, "SELECT * FROM api.task"), "42501");
    await gw.query("RESET row_security");
    t.ok((await ids(gw, "SELECT id FROM api.task")).length > 0, "with it on, the view works");
  });

  t.test("owns nothing", async (t) => {
    const [owned] = await rows<{ n: number }>(
      su,
      `SELECT (SELECT count(*) FROM pg_class WHERE relowner = 'api_gateway'::regrole)
            + (SELECT count(*) FROM pg_namespace WHERE nspowner = 'api_gateway'::regrole)
            + (SELECT count(*) FROM pg_proc WHERE proowner = 'api_gateway'::regrole)
            + (SELECT count(*) FROM pg_type WHERE typowner = 'api_gateway'::regrole) AS n`,
    );
    t.equal(Number(owned?.n), 0);
    const [member] = await rows(su, "SELECT pg_has_role('api_gateway', 'api_owner', 'MEMBER') AS m");
    t.equal(member?.m, false, "not a member of api_owner");
  });

  t.test("everything in schema api belongs to api_owner, the schema itself does not", async (t) => {
    const owners = await rows<{ owner: string }>(
      su,
      `SELECT DISTINCT owner FROM (
         SELECT relowner::regrole::text AS owner FROM pg_class WHERE relnamespace = 'api'::regnamespace
         UNION ALL SELECT proowner::regrole::text FROM pg_proc WHERE pronamespace = 'api'::regnamespace) o`,
    );
    t.same(owners, [{ owner: "api_owner" }]);
    const [schema] = await rows(
      su,
      `SELECT nspowner::regrole::text = current_user AS migrator,
              has_schema_privilege('api_owner', 'api', 'USAGE') AS usage,
              has_schema_privilege('api_owner', 'api', 'CREATE') AS create
       FROM pg_namespace WHERE nspname = 'api'`,
    );
    t.same(
      schema,
      { migrator: true, usage: true, create: false },
      "the migrating user's; api_owner: USAGE only",
    );
  });
});
