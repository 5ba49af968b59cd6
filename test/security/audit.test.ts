// Database-level audit: logged in as api_gateway (the gateway's own credentials, or SQL injected
// into a custom handler's `req.db`), try to escalate through everything the catalog says the
// role can reach: forged prepared statements, temporary objects shadowing views and helpers,
// search_path tricks, role switches, forged `api.*` settings, hostile arguments. Functions and
// views are enumerated from the catalog, so new ones are audited without editing this file.
// Nothing may change a table except what a route itself does, and nothing in the catalog may
// change at all.

import type pg from "pg";
import t from "tap";
import { cachedQueryName } from "../routes/helpers.ts";
import {
  auditDatabase,
  CONTEXTS,
  callRoute,
  catalogFingerprint,
  changedTables,
  exercisingParams,
  hostileArgs,
  hostileParams,
  reachableFunctions,
  reachableRelations,
  routeFunctions,
  sqlState,
  tableChecksums,
} from "./helpers.ts";

const FORGED = "forged-by-the-caller";

t.test("audit as api_gateway", async (t) => {
  const db = await auditDatabase(t);
  const functions = routeFunctions(db.schema);
  const catalogBefore = await catalogFingerprint(db.su);
  const gw = await db.gateway();

  /** Each route function's answers to its exercising calls, from a clean session. */
  const baseline = new Map<string, string[]>();
  const answers = async (client: pg.Client, name: string, paramSets: unknown[], ctx: unknown) => {
    const out: string[] = [];
    for (const params of paramSets) out.push((await callRoute(client, name, params, ctx)).text);
    return out;
  };
  const readRoutes = functions.filter((f) => f.route.method === "GET");
  for (const f of readRoutes) {
    baseline.set(f.name, await answers(gw, f.name, exercisingParams(db.schema, f), CONTEXTS.admin));
  }

  t.test("is api_gateway, and cannot become anyone else", async (t) => {
    const client = await db.gateway();
    const { rows: supers } = await db.su.query(
      "SELECT rolname FROM pg_roles WHERE rolsuper ORDER BY 1 LIMIT 1",
    );
    const superuser = supers[0].rolname as string;
    for (const attempt of [
      "SET ROLE api_owner",
      `SET ROLE "${superuser}"`,
      `SET SESSION AUTHORIZATION "${superuser}"`,
      "SET SESSION AUTHORIZATION api_owner",
      "SELECT set_config('role', 'api_owner', false)",
      "SELECT set_config('session_authorization', 'api_owner', false)",
    ]) {
      t.equal(await sqlState(client, attempt), "42501", attempt);
    }
    await client.query("RESET ROLE");
    await client.query("RESET SESSION AUTHORIZATION");
    const { rows } = await client.query("SELECT session_user AS s, current_user AS c");
    t.same(rows[0], { s: "api_gateway", c: "api_gateway" });
  });

  t.test("reaches only views and SECURITY DEFINER functions of schema api", async (t) => {
    const relations = await reachableRelations(gw);
    t.ok(relations.length > 0, "some views");
    for (const r of relations) t.equal(r.schema, "api", `${r.schema}.${r.name} is in schema api`);
    const { rows } = await gw.query(
      `SELECT count(*)::int AS n FROM pg_class c WHERE c.relnamespace = 'api'::regnamespace AND c.relkind = 'v'`,
    );
    t.equal(relations.length, rows[0].n, "every view of api, nothing else");
    for (const f of await reachableFunctions(gw)) {
      t.equal(f.schema, "api", `${f.signature} is in schema api`);
    }
  });

  t.test("writes nothing through views or tables, whatever api.ctx says", async (t) => {
    const client = await db.gateway();
    await client.query("SELECT api.set_ctx($1::jsonb, false)", [JSON.stringify(CONTEXTS.admin)]);
    const { rows } = await db.su.query(
      `SELECT c.relname AS name, (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = 1) AS col
       FROM pg_class c WHERE c.relnamespace = 'api'::regnamespace AND c.relkind = 'v' ORDER BY 1`,
    );
    for (const { name, col } of rows as { name: string; col: string }[]) {
      for (const schemaName of ["api", "public"]) {
        const ref = `${schemaName}."${name}"`;
        for (const statement of [
          `INSERT INTO ${ref} DEFAULT VALUES`,
          `UPDATE ${ref} SET "${col}" = "${col}"`,
          `DELETE FROM ${ref}`,
        ]) {
          t.equal(await sqlState(client, statement), "42501", statement);
        }
        for (const statement of [
          `TRUNCATE ${ref}`,
          `ALTER TABLE ${ref} DISABLE ROW LEVEL SECURITY`,
          `CREATE POLICY forged ON ${ref} USING (true)`,
          `CREATE TRIGGER forged BEFORE INSERT ON ${ref} EXECUTE FUNCTION api.allowed()`,
        ]) {
          t.not(await sqlState(client, statement), undefined, `${statement} fails`);
        }
      }
      t.equal(await sqlState(client, `SELECT * FROM public."${name}"`), "42501", `reads no table ${name}`);
    }
  });

  t.test("creates nothing: no schema objects, no temporary objects", async (t) => {
    const client = await db.gateway();
    const { rows } = await client.query(
      "SELECT has_database_privilege(current_database(), 'TEMPORARY') AS temp, has_database_privilege(current_database(), 'CREATE') AS create",
    );
    t.same(rows[0], { temp: false, create: false }, "no TEMPORARY, no CREATE on the database");
    for (const statement of [
      "CREATE TEMP TABLE probe (a int)",
      'CREATE TEMP TABLE "user" (id bigint)',
      "CREATE TEMP VIEW probe AS SELECT 1",
      "CREATE FUNCTION pg_temp.allowed(text[], text[]) RETURNS boolean LANGUAGE sql AS 'SELECT true'",
      "CREATE TABLE api.probe (a int)",
      "CREATE FUNCTION api.probe() RETURNS int LANGUAGE sql AS 'SELECT 1'",
      "CREATE OR REPLACE FUNCTION api.allowed(roles text[], scopes text[]) RETURNS boolean LANGUAGE sql AS 'SELECT true'",
      "CREATE TABLE public.probe (a int)",
      "CREATE SCHEMA probe",
      "ALTER FUNCTION api.allowed(text[], text[]) SECURITY DEFINER",
    ]) {
      t.equal(await sqlState(client, statement), "42501", statement);
    }
  });

  t.test("api_owner cannot create objects in schema api at run time", async (t) => {
    await db.su.query("BEGIN");
    try {
      await db.su.query("SET LOCAL ROLE api_owner");
      const { rows } = await db.su.query("SELECT has_schema_privilege('api', 'CREATE') AS c");
      t.equal(rows[0].c, false, "no CREATE on schema api");
      for (const statement of [
        "CREATE FUNCTION api.backdoor() RETURNS int LANGUAGE sql SECURITY DEFINER AS 'SELECT 1'",
        "CREATE VIEW api.backdoor AS SELECT 1 AS x",
        "CREATE OR REPLACE FUNCTION api.allowed(roles text[], scopes text[]) RETURNS boolean LANGUAGE sql AS 'SELECT true'",
      ]) {
        await db.su.query("SAVEPOINT s");
        t.equal(await sqlState(db.su, statement), "42501", statement);
        await db.su.query("ROLLBACK TO SAVEPOINT s");
      }
    } finally {
      await db.su.query("ROLLBACK");
    }
  });

  t.test("no function's source uses session state as code", async (t) => {
    // Placeholder settings (`api.*`) do not show in pg_settings, so the sources are read instead:
    // every function in schema api (route functions, and the helpers they call as api_owner).
    const { rows } = await gw.query(
      `SELECT p.oid::regprocedure::text AS signature, p.prosrc AS src FROM pg_proc p
       WHERE p.pronamespace = 'api'::regnamespace ORDER BY 1`,
    );
    t.ok(rows.length > functions.length, "route functions and helpers");
    for (const { signature, src } of rows as { signature: string; src: string }[]) {
      // api.execute_cached alone prepares, and only statements named by their own text's digest
      // (checked in the next test).
      if (!signature.startsWith("api.execute_cached(")) {
        t.notMatch(src, /\b(PREPARE|DEALLOCATE)\b/i, `${signature}: prepares nothing`);
      }
      for (const call of src.matchAll(/set_config\(([^;]*)/g)) {
        t.match(call[1], /,\s*true\s*\)/, `${signature}: set_config is transaction-local`);
      }
      for (const call of src.matchAll(/current_setting\(\s*([^,)]*)/g)) {
        t.match(call[1], /^'api\.ctx(\.)?'/, `${signature}: reads no setting but the context's`);
      }
    }
  });

  t.test("route functions keep no session state and run no statement the caller prepared", async (t) => {
    const { rows: sources } = await gw.query(
      `SELECT string_agg(prosrc, ' ') AS src FROM pg_proc WHERE pronamespace = 'api'::regnamespace`,
    );
    const settingNames = [
      ...new Set([...String(sources[0].src).matchAll(/'(api\.[^']*)'/g)].map((m) => m[1] as string)),
    ];
    for (const f of functions) {
      const before = await tableChecksums(db.su);
      const params = exercisingParams(db.schema, f);
      // The attacker's first session: calls the function, then looks at what it left behind.
      const a = await db.gateway();
      const first = await answers(a, f.name, params, CONTEXTS.admin);
      const prepared = (
        await a.query("SELECT name, parameter_types::text[] AS types, statement FROM pg_prepared_statements")
      ).rows as { name: string; types: string[]; statement: string }[];
      const settings: { name: string; setting: string }[] = [];
      for (const name of settingNames) {
        const { rows } = await a.query("SELECT current_setting($1, true) AS v", [name]);
        if (rows[0].v) settings.push({ name, setting: rows[0].v });
      }
      // Only the PAGED query texts api.execute_cached keeps, each named by its text's digest.
      for (const p of prepared) {
        t.equal(
          p.name,
          cachedQueryName(p.statement),
          `${f.name}: a prepared statement is a cached query text`,
        );
      }
      t.same(settings, [], `${f.name}: no api.* setting left in the session`);
      // The same session, and a second one that never called the function: every name the
      // function prepared now holds the attacker's statement, every setting it left is copied.
      const b = await db.gateway();
      for (const client of [a, b]) {
        for (const s of settings) await client.query("SELECT set_config($1, $2, false)", [s.name, s.setting]);
        for (const p of prepared) {
          const name = `"${p.name.replaceAll('"', '""')}"`;
          await client.query(`DEALLOCATE ${name}`).catch(() => {});
          const types = p.types.length > 0 ? `(${p.types.join(", ")})` : "";
          const forged = `PREPARE ${name}${types} AS WITH d AS (DELETE FROM public."comment" RETURNING 1)
            SELECT json_build_object('${FORGED}', current_user, 'deleted', (SELECT count(*) FROM d))`;
          if ((await sqlState(client, forged)) !== undefined) {
            await client.query(
              `PREPARE ${name}${types} AS SELECT json_build_object('${FORGED}', current_user)`,
            );
          }
        }
        const got = await answers(client, f.name, params, CONTEXTS.admin);
        t.notOk(
          got.some((body) => body.includes(FORGED)),
          `${f.name}: no forged statement ran (${client === a ? "same" : "fresh"} session)`,
        );
        if (f.route.method === "GET") t.same(got, baseline.get(f.name), `${f.name}: the same answers`);
        else t.same(got, first, `${f.name}: the same answers`);
      }
      const allowed = f.route.method === "GET" ? [] : [f.route.table];
      const changed = changedTables(before, await tableChecksums(db.su));
      t.ok(
        changed.every((c) => allowed.includes(c)),
        `${f.name}: changed ${JSON.stringify(changed)}, allowed ${JSON.stringify(allowed)}`,
      );
    }
  });

  t.test("the session's search_path, settings and context do not reach route functions", async (t) => {
    const client = await db.gateway();
    await client.query("SELECT api.set_ctx($1::jsonb, false)", [JSON.stringify(CONTEXTS.hostile)]);
    for (const path of ["pg_temp, public, api", "public", "''", '"$user", pg_catalog', "api, pg_temp"]) {
      await client.query(`SET search_path = ${path}`);
      for (const f of readRoutes) {
        const got = await answers(client, f.name, exercisingParams(db.schema, f), CONTEXTS.admin);
        t.same(got, baseline.get(f.name), `${f.name} with search_path ${path} and a forged api.ctx`);
      }
    }
    await client.query("RESET search_path");
    await client.query("SELECT api.set_ctx($1::jsonb, false)", [JSON.stringify(CONTEXTS.admin)]);
    for (const f of readRoutes) {
      const anonymous = await answers(gw, f.name, [{}], CONTEXTS.anonymous);
      t.same(
        await answers(client, f.name, [{}], CONTEXTS.anonymous),
        anonymous,
        `${f.name}: the ctx argument decides, not the session's api.ctx`,
      );
    }
  });

  t.test("nothing in the catalog changed (before TEMPORARY is granted below)", async (t) => {
    t.equal(await catalogFingerprint(db.su), catalogBefore);
  });

  t.test("temporary objects would not be picked up even with TEMPORARY granted", async (t) => {
    const { rows: dbs } = await db.su.query("SELECT current_database() AS d");
    const database = `"${dbs[0].d}"`;
    await db.su.query(`GRANT TEMPORARY ON DATABASE ${database} TO api_gateway`);
    t.teardown(() => db.su.query(`REVOKE TEMPORARY ON DATABASE ${database} FROM api_gateway`));
    const client = await db.gateway();
    await client.query("SELECT api.set_ctx($1::jsonb, false)", [JSON.stringify(CONTEXTS.admin)]);
    for (const r of await reachableRelations(client)) {
      // Three copies of every visible row: a count or a join through the shadow would differ.
      await client.query(
        `CREATE TEMP TABLE "${r.name}" AS SELECT v.* FROM api."${r.name}" AS v, generate_series(1, 3)`,
      );
    }
    for (const f of await reachableFunctions(client)) {
      const args = f.argTypes.map((type, i) => `a${i} ${type}`).join(", ");
      const { rows } = await db.su.query(
        "SELECT format_type(prorettype, NULL) AS r FROM pg_proc WHERE oid = $1::regprocedure",
        [f.signature],
      );
      const returns = rows[0].r as string;
      const value =
        returns === "boolean"
          ? "true"
          : returns === "json" || returns === "jsonb"
            ? `'{"${FORGED}": 1}'`
            : "NULL";
      await sqlState(
        client,
        `CREATE FUNCTION pg_temp."${f.name}"(${args}) RETURNS ${returns} LANGUAGE sql AS $$ SELECT ${value}::${returns} $$`,
      );
    }
    for (const path of ["pg_temp, api, pg_catalog", "api, pg_temp", "pg_temp"]) {
      await client.query(`SET search_path = ${path}`);
      for (const f of readRoutes) {
        const got = await answers(client, f.name, exercisingParams(db.schema, f), CONTEXTS.admin);
        t.same(got, baseline.get(f.name), `${f.name} with temporary shadows first on ${path}`);
      }
    }
  });

  t.test("hostile arguments change nothing but what the route itself writes", async (t) => {
    const client = await db.gateway();
    const names = new Set(functions.map((f) => f.name));
    for (const f of functions) {
      const before = await tableChecksums(db.su);
      for (const ctx of Object.values(CONTEXTS)) {
        for (const params of hostileParams(db.schema, f)) {
          const r = await callRoute(client, f.name, params, ctx);
          t.notOk(r.ok && r.text.includes(FORGED), `${f.name}: no forged answer`);
        }
      }
      const changed = changedTables(before, await tableChecksums(db.su));
      const allowed = f.route.method === "GET" ? [] : [f.route.table];
      t.ok(
        changed.every((c) => allowed.includes(c)),
        `${f.name}: changed ${JSON.stringify(changed)}, allowed ${JSON.stringify(allowed)}`,
      );
    }
    for (const f of await reachableFunctions(client)) {
      if (names.has(f.name)) continue;
      const before = await tableChecksums(db.su);
      const argLists = f.argTypes.reduce<string[][]>(
        (lists, type) => lists.flatMap((l) => hostileArgs(type).map((a) => [...l, a])),
        [[]],
      );
      for (const args of argLists.slice(0, 200)) {
        await sqlState(client, `SELECT ${f.schema}."${f.name}"(${args.join(", ")})`);
      }
      t.same(changedTables(before, await tableChecksums(db.su)), [], `${f.signature}: no table changed`);
    }
  });
});
