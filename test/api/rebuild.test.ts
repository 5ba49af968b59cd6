// The layer is rebuilt whole on every migrate: idempotently, atomically, around migrations that
// drop or change the columns it uses, and by a migrating user that is not a superuser.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { rebuildApiLayer } from "../../db/apiLayer.ts";
import { createDatabase, dropDatabase, withClient } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { withDatabase } from "../../db/postgres.ts";
import { column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { connect, serverUrl, testDatabase } from "../harness/db.ts";
import { copyApp, REPO } from "../harness/templates.ts";
import { gatewaySession, ids, rows, seededExample, setCtx, sqlState } from "./helpers.ts";

/** Everything the layer decides, as the catalogue shows it. */
async function layerState(db: pg.Client) {
  const q = async (text: string) => (await db.query(text)).rows;
  return {
    views: await q(
      `SELECT c.relname, pg_get_viewdef(c.oid) AS def, c.reloptions, c.relowner::regrole::text AS owner, c.relacl::text[] AS acl
       FROM pg_class c WHERE c.relnamespace = 'api'::regnamespace ORDER BY 1`,
    ),
    functions: await q(
      `SELECT p.oid::regprocedure::text AS fn, p.proowner::regrole::text AS owner, p.proacl::text[] AS acl
       FROM pg_proc p WHERE p.pronamespace = 'api'::regnamespace ORDER BY 1`,
    ),
    policies: await q(
      `SELECT tablename, policyname, permissive, roles::text[], cmd, qual, with_check FROM pg_policies
       WHERE schemaname = 'public' ORDER BY 1, 2`,
    ),
    tables: await q(
      `SELECT relname, relrowsecurity, relacl::text[] AS acl FROM pg_class
       WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S') ORDER BY 1`,
    ),
  };
}

t.test("rebuilding is idempotent and keeps the data", async (t) => {
  const { url, su } = await seededExample(t);
  const before = await layerState(su);
  // 10 from the schema's policies and table rules, and api:service on each of the 8 tables.
  t.ok(before.views.length === 8 && before.policies.length === 18, "the example's layer is there");
  const schema = readAppSchema(path.join(REPO, "example")).schema;
  if (!schema) throw new Error("example schema");
  await rebuildApiLayer(su, schema);
  await rebuildApiLayer(su, schema);
  t.same(await layerState(su), before, "rebuilt twice: the same views, functions, policies and grants");
  const app = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(app, { recursive: true, force: true }));
  const result = await migrateApp({ appDir: app, url });
  t.same([result.written, result.applied], [undefined, []]);
  t.same(await layerState(su), before, "and a migrate with nothing to apply rebuilds the same layer");
  t.equal(Number((await su.query("SELECT count(*) AS n FROM public.task")).rows[0]?.n), 13, "rows untouched");
});

t.test("a rebuild that fails changes nothing", async (t) => {
  const { url, su } = await seededExample(t);
  const before = await layerState(su);
  const schema = readAppSchema(path.join(REPO, "example")).schema;
  if (!schema) throw new Error("example schema");
  await t.rejects(rebuildApiLayer(su, schema, { extra: ["SELECT 1/0"] }), { code: "22012" });
  t.same(await layerState(su), before, "the previous layer is intact");
  const gw = await gatewaySession(t, url);
  await setCtx(gw, { role: "member", scopes: [], companyId: 1 });
  t.same(await ids(gw, 'SELECT DISTINCT "companyId" AS id FROM api.task'), [1], "and still works");
});

t.test("a hand-written policy on a schema table does not survive a rebuild", async (t) => {
  const { su } = await seededExample(t);
  await su.query("CREATE POLICY everything ON public.task FOR ALL TO api_owner USING (true)");
  const schema = readAppSchema(path.join(REPO, "example")).schema;
  if (!schema) throw new Error("example schema");
  await rebuildApiLayer(su, schema);
  const names = (await rows(su, "SELECT policyname FROM pg_policies WHERE tablename = 'task'")).map(
    (r) => r.policyname,
  );
  t.same(names.sort(), ["api:service", "api_same_company"]);
});

const doc = (extra: ReturnType<typeof column>[] = [], where: unknown[] = []) =>
  table("Doc", [id(), column("companyId", "INTEGER"), column("title", "VARCHAR", { length: 50 }), ...extra], {
    policies: [
      {
        name: "tenant",
        where: [{ tableName: "Doc", columnName: "companyId", operator: "=", value: "#companyId" }, ...where],
      },
    ],
  });
const withGlobals = (tables: unknown[]) => ({ ...schemaWith(tables), globalParams: ["companyId"] });

t.test("migrations may drop and change columns that the views and policies use", async (t) => {
  const url = await testDatabase(t);
  const app = scratchApp(t);
  const secret = column("secret", "TEXT", { isNullable: true, roles: ["admin"] });
  const archived = column("archived", "BOOLEAN", { default: "false" });
  app.write(
    withGlobals([
      doc([secret, archived], [{ tableName: "Doc", columnName: "archived", operator: "IS", value: false }]),
    ]),
  );
  await migrateApp({ appDir: app.dir, url });
  const su = await connect(t, url);
  await su.query(
    `INSERT INTO public."Doc" ("companyId", title, secret) VALUES (1, 'a', 's1'), (2, 'b', 's2')`,
  );
  const gw = await gatewaySession(t, url);
  await setCtx(gw, { role: "admin", scopes: [], companyId: 1 });
  t.same(await rows(gw, `SELECT title, secret FROM api."Doc"`), [{ title: "a", secret: "s1" }]);

  // Drop both columns (one in the view's mask, one in the policy) and widen companyId, which
  // both use: each would fail with the layer in place.
  const wider = doc();
  wider.columns[1] = column("companyId", "BIGINT");
  app.write(withGlobals([wider]));
  const result = await migrateApp({ appDir: app.dir, url, allowDataLoss: true });
  t.match(result.written, /^0002_/);
  t.same(await rows(gw, `SELECT * FROM api."Doc"`), [{ id: "1", companyId: "1", title: "a" }]);
  const [policy] = await rows<{ qual: string }>(su, `SELECT qual FROM pg_policies WHERE tablename = 'Doc'`);
  t.match(
    policy?.qual,
    /"companyId" = \( SELECT \(api\.ctx_text\('companyId'::text\)\)::bigint/,
    "the policy follows the new type",
  );
  t.notMatch(policy?.qual, /archived/, "and lost the dropped column's condition");
  t.equal(
    await sqlState(gw, `SELECT secret FROM api."Doc"`),
    "42703",
    "the dropped column is gone from the view",
  );
});

t.test("a migration that fails leaves the previous layer in place", async (t) => {
  const url = await testDatabase(t);
  const app = scratchApp(t, withGlobals([doc()]));
  await migrateApp({ appDir: app.dir, url });
  const su = await connect(t, url);
  await su.query(`INSERT INTO public."Doc" ("companyId", title) VALUES (1, 'a'), (2, 'b')`);
  // A pending migration (a teammate's, say) that fails halfway: the layer was dropped for it.
  fs.writeFileSync(
    path.join(app.dir, "migrations", "0002_broken.sql"),
    `ALTER TABLE "Doc" DROP COLUMN title;\nSELECT 1/0;\n`,
  );
  await t.rejects(migrateApp({ appDir: app.dir, url }), /migration failed/);
  const gw = await gatewaySession(t, url);
  await setCtx(gw, { role: null, scopes: [], companyId: 2 });
  t.same(await rows(gw, `SELECT title FROM api."Doc"`), [{ title: "b" }], "views and policies are back");
  t.equal(
    Number((await su.query(`SELECT count(*) AS n FROM pg_policies WHERE tablename = 'Doc'`)).rows[0]?.n),
    2,
    "its policy and api:service",
  );
});

t.test("the Restura template gets the layer too (tables without policies: all rows)", async (t) => {
  const url = await testDatabase(t, "tpl_restura");
  const su = await connect(t, url);
  const policies = await rows(su, `SELECT tablename, policyname FROM pg_policies ORDER BY 1`);
  const tables = ["company", "item", "order", "user"];
  t.same(
    tables.map((table) =>
      policies
        .filter((p) => p.tablename === table)
        .map((p) => p.policyname)
        .sort(),
    ),
    tables.map(() => ["api:all_rows", "api:service"]),
  );
  t.same([...new Set(policies.map((p) => p.tablename))], tables);
  const views = await rows(
    su,
    `SELECT relname FROM pg_class WHERE relnamespace = 'api'::regnamespace AND relkind = 'v' ORDER BY 1`,
  );
  t.same(
    views.map((v) => v.relname),
    ["company", "item", "order", "user"],
  );
});

t.test("a migrating user that is not a superuser", async (t) => {
  // An administrator created the roles (the test templates did) and let the migrating user hand
  // objects to api_owner; the migrating user owns its database and its tables.
  const name = `mig_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(9).toString("hex");
  await withClient(serverUrl(), async (c) => {
    await c.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEROLE`);
    await c.query(`GRANT api_owner TO ${name}`);
  });
  const dbName = `t_${name}`;
  await createDatabase(serverUrl(), dbName);
  await withClient(serverUrl(), (c) => c.query(`ALTER DATABASE ${dbName} OWNER TO ${name}`));
  t.teardown(async () => {
    await dropDatabase(serverUrl(), dbName);
    await withClient(serverUrl(), (c) => c.query(`DROP ROLE ${name}`));
  });
  const url = new URL(withDatabase(serverUrl(), dbName));
  url.username = name;
  url.password = password;
  const app = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(app, { recursive: true, force: true }));
  await migrateApp({ appDir: app, url: url.toString() });
  await migrateApp({ appDir: app, url: url.toString() });

  const su = await connect(t, withDatabase(serverUrl(), dbName));
  const [owners] = await rows(
    su,
    `SELECT (SELECT relowner::regrole::text FROM pg_class WHERE oid = 'public.task'::regclass) AS tables,
            (SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'api') AS api`,
  );
  // Schema api is the migrating user's: api_owner, which route functions run as, may not create in it.
  t.same(owners, { tables: name, api: name });
  await su.query(fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8"));
  const gw = await gatewaySession(t, withDatabase(serverUrl(), dbName));
  await setCtx(gw, { role: "member", scopes: [], companyId: 2 });
  t.same(await ids(gw, `SELECT DISTINCT "companyId" AS id FROM api.project`), [2]);
});
