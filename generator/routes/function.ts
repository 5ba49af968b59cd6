// A route's CREATE FUNCTION statement and its privileges. Every function:
//
//   CREATE FUNCTION api."GET /api/v1/user/:id"(params jsonb, ctx jsonb) RETURNS json
//   LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, api, pg_temp SET timezone = 'UTC'
//
// - SECURITY DEFINER, owned by api_owner: it reads and writes the tables as api_owner, a role that
//   row-level security still binds; api_gateway may only EXECUTE it. It executes only SQL the
//   generator wrote: never a prepared statement or a setting of the calling session.
// - search_path: generated SQL qualifies everything; schema-author raw SQL that names a table
//   without a schema (`SELECT COUNT(*) FROM "user"`) reads the API view of that table, never the
//   table itself. pg_temp is last, so a temporary table could not stand in for a view (and
//   api_gateway may not create one).
// - timezone UTC: timestamps come out as ISO 8601 with `+00:00`, and CURRENT_DATE is the UTC date,
//   whatever the server's or the session's setting.
// - plan_cache_mode force_generic_plan: plpgsql keeps one plan per static statement and
//   connection. Left to choose, Postgres would keep planning a custom plan on every call, since
//   a custom plan folds the request's values (a PAGED route's LIMIT) and always looks cheaper.
//   The planned statements read the tables through their indexes whatever the values, and
//   planning a route's query costs more than running it (test/plans checks the plans).
// - `#variable_conflict use_column`: queries never refer to plpgsql variables (they use `$1`, `$2`),
//   so a column named like a variable in raw SQL always means the column.
// - The caller context is the `ctx` parameter, read directly by the function's own checks; it is
//   also stored in the transaction-local context settings (generator/api/context.ts) when row
//   policies, raw SQL (which reads the API views) or a write's triggers need it: only the keys
//   the policies read when nothing else does (FunctionBody.context).
// - No EXCEPTION block: one would cost a subtransaction on every call. What the statements raise
//   from the request's values (a value that does not cast to its column's type, one too long, a
//   row outside the caller's policies) reaches the gateway with Postgres's SQLSTATE, and the
//   gateway answers 400, 422 or 403 (gateway/errors.ts, routeValueError).

import { CONTEXT_VARIABLE, contextAssignment } from "../api/context.ts";
import { ident, type Sql, sql } from "../sql/sql.ts";
import type { ContextUse } from "./permissions.ts";

export interface FunctionBody {
  /** Local variable declarations (`_api_x type;`). */
  declare: Sql[];
  /** The permission checks, run first (at `indent`). */
  checks: (indent: string) => Sql[];
  /** The kind's statements: validation, the query, RETURN (at `indent`). */
  statements: (indent: string) => Sql[];
  /**
   * What the function runs reads of the caller context through the settings (row policies, raw
   * SQL over the API views, triggers): the function sets that from `ctx` first. The route's own
   * checks and masks read `ctx` directly (permissions.ts) and need no setting.
   */
  context: ContextUse;
  /** Every key of the schema's context (`whole`). */
  contextKeys: readonly string[];
}

/** A call of a helper that reads the context settings (sql/context.sql): a safety net. */
export const READS_SETTING = /\bapi\.(ctx|ctx_text|ctx_scopes|has_role|has_scopes|allowed)\(/;

/**
 * What of the caller context a query's settings must hold before it runs: only the keys its row
 * policies read (`context`), or every key of `allKeys` and the whole `api.ctx` when it holds raw
 * SQL or a write's triggers (`context.whole`), or when one of `texts` calls a helper that reads
 * the settings. Each setting costs about 0.5-1 us a call; left unset, a policy reading it matches
 * nothing. Route functions and the gateway's own page statements (gateway/routes/pagedStatement.ts)
 * decide by this one rule.
 */
export function settingsToSet(
  context: ContextUse,
  texts: readonly string[],
  allKeys: readonly string[],
): ContextUse {
  const whole = context.whole || texts.some((text) => READS_SETTING.test(text));
  return { whole, keys: whole ? allKeys : context.keys };
}

/**
 * The keys a statement over the API views sets, in the schema's order (`allKeys`): every key where
 * `use` is whole; else the keys its row policies read, with `role` and `scopes` where `masks` (the
 * views' column masks read them). The gateway's own pages and reads (gateway/routes/
 * contextStatement.ts) set these.
 */
export function keysOverViews(use: ContextUse, masks: boolean, allKeys: readonly string[]): ContextUse {
  if (use.whole) return { whole: true, keys: allKeys };
  const read = (key: string) => use.keys.includes(key) || (masks && (key === "role" || key === "scopes"));
  return { whole: false, keys: allKeys.filter(read) };
}

export function functionStatements(name: string, body: FunctionBody): string[] {
  const fn = ident("api", name);
  const signature = sql`${fn}(jsonb, jsonb)`;
  const statements = body.statements("  ");
  const checks = body.checks("  ");
  const lines: Sql[] = [];
  const { whole, keys } = settingsToSet(
    body.context,
    [...checks, ...statements].map((s) => s.toString()),
    body.contextKeys,
  );
  if (keys.length > 0) lines.push(contextAssignment(sql`ctx`, keys, whole));
  lines.push(...checks);
  lines.push(...statements);
  const declarations =
    keys.length > 0 ? [sql`${ident(CONTEXT_VARIABLE)} text[];`, ...body.declare] : body.declare;
  const declare =
    declarations.length === 0 ? "" : `DECLARE\n${declarations.map((d) => `  ${d.toString()}\n`).join("")}`;
  const text = `#variable_conflict use_column\n${declare}BEGIN\n${lines.map((l) => `  ${l.toString()}\n`).join("")}END\n`;
  const tag = dollarTag(text);
  const create = `CREATE FUNCTION ${fn.toString()}(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
${FUNCTION_SETTINGS}
AS ${tag}
${text}${tag};`;
  return [
    create,
    ...ownedByApiOwner(signature),
    sql`GRANT EXECUTE ON FUNCTION ${signature} TO api_gateway;`.toString(),
  ];
}

/** The settings every generated function runs with (see the header). */
export const FUNCTION_SETTINGS = `SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan`;

/** The function `signature` owned by api_owner, and callable by no one else until granted. */
export function ownedByApiOwner(signature: Sql): string[] {
  return [
    sql`ALTER FUNCTION ${signature} OWNER TO api_owner;`.toString(),
    sql`REVOKE ALL ON FUNCTION ${signature} FROM PUBLIC;`.toString(),
  ];
}

/**
 * The body's dollar-quote tag: `$fn$`, or `$fn1$`, `$fn2$`, ... when the body holds it (schema-author
 * SQL or a literal could contain anything). Deterministic.
 */
export function dollarTag(body: string): string {
  for (let i = 0; ; i++) {
    const tag = `$fn${i === 0 ? "" : i}$`;
    if (!body.includes(tag)) return tag;
  }
}
