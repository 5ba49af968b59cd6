// Shared by the database audit (audit*.test.ts): a seeded copy of the example, sessions that log
// in as api_gateway with its password (not SET SESSION AUTHORIZATION from a superuser, which
// could be reset back), what the gateway can reach according to the catalog, fingerprints of the
// data and of the catalog, and hostile arguments. Not a test file.

import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { migrateApp } from "../../db/migrate.ts";
import { buildModel } from "../../generator/model/index.ts";
import { type RouteFunction, routeFunctions } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { copyApp, REPO } from "../harness/templates.ts";

const EXAMPLE = path.join(REPO, "example");

export function exampleSchema(): Schema {
  const loaded = loadSchema(JSON.parse(fs.readFileSync(path.join(EXAMPLE, "api.schema.json"), "utf8")));
  if (!loaded.schema) throw new Error("the example schema does not load");
  return loaded.schema;
}

export interface AuditDb {
  url: string;
  schema: Schema;
  su: pg.Client;
  /** A new session logged in as api_gateway, closed at teardown. */
  gateway(): Promise<pg.Client>;
}

/**
 * A copy of the migrated example, migrated again as `make migrate` / `make serve` do on the
 * app's own database (database-level grants are not copied with a template), then seeded.
 */
export async function auditDatabase(t: Test): Promise<AuditDb> {
  const url = await testDatabase(t, "tpl_example");
  const app = copyApp(EXAMPLE);
  t.teardown(() => fs.rmSync(app, { recursive: true, force: true }));
  await migrateApp({ appDir: app, url });
  const su = await connect(t, url);
  await su.query(fs.readFileSync(path.join(EXAMPLE, "seed.sql"), "utf8"));
  const gatewayUrl = new URL(url);
  gatewayUrl.username = "api_gateway";
  gatewayUrl.password = GATEWAY_TEST_PASSWORD;
  const gateway = async () => {
    const client = new pg.Client({
      connectionString: gatewayUrl.toString(),
      // json as text, as the gateway reads it.
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === 114 ? (v: string) => v : pg.types.getTypeParser(oid, format as "text")) as never,
      },
    });
    await client.connect();
    t.teardown(() => client.end());
    return client;
  };
  return { url, schema: exampleSchema(), su, gateway };
}

/** The SQLSTATE a statement fails with, undefined when it succeeds. */
export async function sqlState(client: pg.Client, text: string, values: unknown[] = []) {
  try {
    await client.query(text, values);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? "?";
  }
}

export interface Reachable {
  /** `schema.name(argtypes)` as regprocedure text. */
  signature: string;
  schema: string;
  name: string;
  argTypes: string[];
  definer: boolean;
}

/** Every function the session's role may execute outside the system schemas, from the catalog. */
export async function reachableFunctions(client: pg.Client): Promise<Reachable[]> {
  const { rows } = await client.query(
    `SELECT p.oid::regprocedure::text AS signature, n.nspname AS schema, p.proname AS name,
            ARRAY(SELECT format_type(a, NULL) FROM unnest(p.proargtypes) AS a) AS "argTypes",
            p.prosecdef AS definer
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       AND p.prokind = 'f' AND has_schema_privilege(n.oid, 'USAGE') AND has_function_privilege(p.oid, 'EXECUTE')
     ORDER BY 1`,
  );
  return rows as Reachable[];
}

/** Every view or table the session's role may read outside the system schemas, from the catalog. */
export async function reachableRelations(client: pg.Client): Promise<{ schema: string; name: string }[]> {
  const { rows } = await client.query(
    `SELECT n.nspname AS schema, c.relname AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       AND c.relkind IN ('r', 'v', 'm', 'p', 'f') AND has_schema_privilege(n.oid, 'USAGE')
       AND has_table_privilege(c.oid, 'SELECT')
     ORDER BY 1, 2`,
  );
  return rows;
}

/** An md5 of every row of every table of schema public (as the superuser: no row security). */
export async function tableChecksums(su: pg.Client): Promise<Map<string, string>> {
  const { rows: tables } = await su.query(
    `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  const out = new Map<string, string>();
  for (const { name } of tables as { name: string }[]) {
    const ref = `public."${name.replaceAll('"', '""')}"`;
    const { rows } = await su.query(
      `SELECT md5(COALESCE(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS sum FROM ${ref} AS t`,
    );
    out.set(name, rows[0].sum);
  }
  return out;
}

/** The tables whose checksum differs between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((k) => before.get(k) !== after.get(k))
    .sort();
}

/**
 * What a lasting change would touch: functions, relations, schemas and their owners and ACLs,
 * policies, triggers, the database's ACL, the roles' attributes and memberships of the API roles.
 * Temporary schemas are left out (sessions come and go).
 */
export async function catalogFingerprint(su: pg.Client): Promise<string> {
  const { rows } = await su.query(`SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS sum FROM (
    SELECT 'proc ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) || ' ' || p.proowner::regrole::text
      || ' ' || p.prosecdef || ' ' || COALESCE(array_to_string(p.proconfig, ','), '') || ' ' || COALESCE(p.proacl::text, '')
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_temp%'
      AND n.nspname NOT LIKE 'pg\\_toast\\_temp%'
    UNION ALL
    SELECT 'rel ' || c.oid::regclass::text || ' ' || c.relkind::text || ' ' || c.relowner::regrole::text || ' '
      || COALESCE(c.relacl::text, '') || ' ' || c.relrowsecurity || ' ' || COALESCE(md5(pg_get_viewdef(c.oid)), '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
    UNION ALL
    SELECT 'schema ' || nspname || ' ' || nspowner::regrole::text || ' ' || COALESCE(nspacl::text, '')
    FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_temp%' AND nspname NOT LIKE 'pg\\_toast\\_temp%'
    UNION ALL
    SELECT 'policy ' || polrelid::regclass::text || ' ' || polname || ' ' || polpermissive || ' '
      || COALESCE(pg_get_expr(polqual, polrelid), '') || ' ' || COALESCE(pg_get_expr(polwithcheck, polrelid), '')
    FROM pg_policy
    UNION ALL
    SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'database ' || COALESCE(datacl::text, '') FROM pg_database WHERE datname = current_database()
    UNION ALL
    SELECT 'role ' || rolname || ' ' || rolsuper || rolinherit || rolcreaterole || rolcreatedb || rolcanlogin || rolbypassrls
    FROM pg_roles WHERE rolname IN ('api_owner', 'api_gateway')
    UNION ALL
    SELECT 'member ' || roleid::regrole::text || ' ' || member::regrole::text FROM pg_auth_members
    WHERE member IN ('api_owner'::regrole, 'api_gateway'::regrole) OR roleid IN ('api_owner'::regrole, 'api_gateway'::regrole)
  ) AS s(x)`);
  return rows[0].sum;
}

/** A caller context per kind of caller of the example (company 1), plus a hostile one. */
export const CONTEXTS = {
  admin: { role: "admin", scopes: ["billing:read", "tasks:write"], companyId: 1, userId: 1 },
  member: { role: "member", scopes: ["tasks:write"], companyId: 1, userId: 3 },
  anonymous: { role: null, scopes: [] },
  hostile: {
    role: "admin' OR '1'='1",
    scopes: "billing:read",
    companyId: "1 OR 1=1",
    userId: { nested: [1, 2] },
  },
} as const;

const SQL_TEXT = `'); DELETE FROM public."task"; SELECT ('`;

/** Hostile JSON values for one parameter. */
export const HOSTILE_VALUES: unknown[] = [
  SQL_TEXT,
  `1; DROP SCHEMA api CASCADE; --`,
  `"quoted" \\ backslash $1 $fn$ %s %I`,
  "NUL \u0000 inside",
  "x".repeat(200_000),
  -1,
  1e308,
  2 ** 63,
  1.5,
  true,
  null,
  [SQL_TEXT, [[[["deep"]]]]],
  { nested: { deeper: [SQL_TEXT] } },
  nest(200),
];

function nest(depth: number): unknown {
  let v: unknown = SQL_TEXT;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Valid values of each type with hostile text: the write succeeds, on its own row only. */
const PLAUSIBLE: Record<string, unknown> = {
  projectId: 1,
  taskId: 1,
  ownerId: 2,
  assigneeId: 3,
  estimateHours: 2,
  budget: 10,
  done: true,
  isActive: true,
  status: "active",
  priority: "high",
  role: "member",
  startDate: "2026-01-01",
  dueDate: "2026-02-01",
  settings: { note: SQL_TEXT },
  preferences: { note: SQL_TEXT },
  grantedScopes: [SQL_TEXT],
};

/** Request parameter sets for a route function: hostile values for each parameter and PAGED's own. */
export function hostileParams(schema: Schema, fn: RouteFunction): unknown[] {
  const names = fn.route.request.map((r) => r.name);
  const sets: unknown[] = [{}, [], SQL_TEXT, null, { [SQL_TEXT]: SQL_TEXT }];
  for (const value of HOSTILE_VALUES) {
    sets.push(Object.fromEntries(names.map((n) => [n, value])));
  }
  if (fn.route.method === "POST" || fn.route.method === "PATCH") {
    // Everything well-typed, text hostile: a write the route allows, of its own table only.
    sets.push(Object.fromEntries(names.map((n) => [n, n in PLAUSIBLE ? PLAUSIBLE[n] : SQL_TEXT])));
  }
  if (fn.route.type === "PAGED") {
    const keys = [...buildModel(schema).routeOf(fn.route).filterColumns.entries.keys()];
    for (const value of HOSTILE_VALUES.slice(0, 4)) {
      sets.push({ sortBy: value }, { sortOrder: value }, { page: value }, { perPage: value });
      sets.push({ filter: { column: value, op: "eq", value: "1" } });
      sets.push({ filter: { column: keys[0], op: value, value: "1" } });
      sets.push({ filter: { column: keys[0], op: "eq", value } });
      sets.push({ filter: { column: `${keys[0]}.${String(value).slice(0, 100)}`, op: "eq", value: "1" } });
    }
    sets.push({ filter: nestFilter(40) }, { filter: { and: [SQL_TEXT] } }, { page: 1e300, perPage: -5 });
    sets.push({ filter: { column: keys[0], op: "in", value: [SQL_TEXT, SQL_TEXT] } });
  }
  return sets;
}

function nestFilter(depth: number): unknown {
  let f: unknown = { column: "id", op: "null" };
  for (let i = 0; i < depth; i++) f = { not: f };
  return f;
}

/**
 * Request parameters that make a route function take every path it has (PAGED: a filter and a
 * sort), with values that are valid: what an attacker calls first to make definer code create
 * whatever session state it creates.
 */
export function exercisingParams(schema: Schema, fn: RouteFunction): unknown[] {
  const sets: unknown[] = [{}];
  if (fn.route.type === "PAGED") {
    const entries = [...buildModel(schema).routeOf(fn.route).filterColumns.entries];
    const filterable = entries.find(([, e]) => e.filter)?.[0];
    const sortable = entries.find(([, e]) => e.sort)?.[0];
    if (filterable) sets.push({ filter: { column: filterable, op: "notnull" } });
    if (sortable) sets.push({ sortBy: sortable, sortOrder: "DESC" }, { sortOrder: "DESC" });
    if (filterable && sortable) sets.push({ filter: { column: filterable, op: "null" }, sortBy: sortable });
  }
  return sets;
}

export { routeFunctions };

/** Calls a route function; the body text or `SQLSTATE`. */
export async function callRoute(
  client: pg.Client,
  name: string,
  params: unknown,
  ctx: unknown,
): Promise<{ ok: boolean; text: string }> {
  try {
    const { rows } = await client.query(
      `SELECT api."${name.replaceAll('"', '""')}"($1::jsonb, $2::jsonb) AS body`,
      [JSON.stringify(params), JSON.stringify(ctx)],
    );
    return { ok: true, text: String(rows[0].body) };
  } catch (error) {
    return { ok: false, text: (error as { code?: string }).code ?? "?" };
  }
}

/** Hostile arguments of a type, as SQL literals with their cast, for helper functions. */
export function hostileArgs(type: string): string[] {
  const text = [SQL_TEXT, "", "x".repeat(100_000), `%_\\`, "bigint; DROP TABLE x"].map(quote);
  switch (type) {
    case "jsonb":
    case "json":
      return [
        ...[SQL_TEXT, { column: SQL_TEXT, op: "eq", value: "1" }, nestFilter(40), [1, [2, [3]]], null].map(
          (v) => quote(JSON.stringify(v)),
        ),
        "NULL",
      ];
    case "text":
      return [...text, "NULL"];
    case "text[]":
      return [`ARRAY[${text.join(", ")}]`, "'{}'", "NULL"];
    case "json[]":
      return [`ARRAY['{"a":1}', '[1,2]', '"x"', 'null']`, "'{}'", "NULL"];
    case "integer":
    case "bigint":
      return ["-1", "2147483647", "0", "NULL"];
    default:
      return ["NULL"];
  }
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
