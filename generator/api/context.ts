// The caller context in the database (docs/architecture.md "Caller context"): the whole JSON in
// the transaction-local setting `api.ctx`, and each key of it (`role`, `scopes`, every global) in
// a setting of its own, `api.ctx.<key>`. Row policies and the helpers of sql/context.sql read the
// keys: `current_setting` of one key costs well under a microsecond, where parsing `api.ctx` cost
// 2.5 us for every table a statement reads (docs/performance.md). `api.set_ctx(ctx)` sets them
// all together; route functions and realtime inline the same calls (contextAssignment), and route
// functions set only the keys their row policies read when nothing else does.
//
// A key's value is its JSON member as `->>` gives it, except `scopes`: its JSON text, so that a
// string there is not taken for an array. '' when the member is absent or null, and '' reads as
// unset (NULL).

import type { Schema, Table } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import { ident, join, literal, type Sql, sql, trusted } from "../sql/sql.ts";

/** The setting that holds the whole context. */
const CONTEXT_SETTING = "api.ctx";

/** The setting that holds one key of it. */
const keySetting = (key: string): string => `${CONTEXT_SETTING}.${key}`;

/** Claims that are never globals (gateway/auth/claims.ts reads `scope` into `scopes`). */
const NOT_GLOBALS = new Set(["role", "scopes", "scope"]);

/** Every key a context can hold: `role`, `scopes`, then the schema's globals in order. */
export function contextKeys(schema: Pick<Schema, "globalParams">): string[] {
  return ["role", "scopes", ...new Set(schema.globalParams.filter((g) => !NOT_GLOBALS.has(g)))];
}

/**
 * What a table's row security reads of the context: the keys its policies and its table rule
 * (the restrictive policy) read, or everything when a policy holds raw SQL (which may call any
 * helper, or read another table whose own policies read other keys).
 */
export type ContextRead = { all: true } | { all: false; keys: ReadonlySet<string> };

export function contextReadBy(table: Table): ContextRead {
  const keys = new Set<string>();
  if (table.roles.length > 0) keys.add("role");
  else if (table.scopes.length > 0) keys.add("scopes");
  for (const policy of table.policies) {
    if (policy.roles.length > 0) keys.add("role");
    if (policy.scopes.length > 0) keys.add("scopes");
    for (const c of policy.where) {
      if (c.custom !== undefined) return { all: true };
      for (const value of [c.value].flat()) {
        const form = typeof value === "string" ? classifyValue(value) : undefined;
        if (form?.kind === "global") keys.add(form.name);
      }
    }
  }
  return { all: false, keys };
}

/**
 * The `set_config` calls that store `ctx` (a jsonb expression), transaction-locally unless
 * `local` says otherwise: each key of `keys`, and the whole context too when `whole`.
 */
export function setContextCalls(
  ctx: Sql,
  keys: readonly string[],
  whole: boolean,
  local: Sql = sql`true`,
): Sql {
  const calls = keys.map((key) => {
    const value =
      key === "scopes"
        ? sql`(${ctx} OPERATOR(pg_catalog.->) 'scopes')::text`
        : sql`${ctx} OPERATOR(pg_catalog.->>) ${literal(key)}`;
    return sql`pg_catalog.set_config(${literal(keySetting(key))}, COALESCE(${value}, ''), ${local})`;
  });
  if (whole) {
    calls.unshift(
      sql`pg_catalog.set_config(${literal(CONTEXT_SETTING)}, COALESCE(${ctx}::text, ''), ${local})`,
    );
  }
  return join(calls, ",\n    ");
}

/**
 * The same settings as setContextCalls, each from a text parameter, numbered from `$1`: the whole
 * context first when `whole`, then each key of `keys` (values as contextSettings writes them).
 * For a writer that has the caller's values in hand (the gateway's page context statement).
 */
export function setContextTexts(keys: readonly string[], whole: boolean): Sql {
  const names = [...(whole ? [CONTEXT_SETTING] : []), ...keys.map(keySetting)];
  return join(
    names.map((name, i) => sql`pg_catalog.set_config(${literal(name)}, ${trusted(`$${i + 1}`)}, true)`),
    ",\n    ",
  );
}

/**
 * The settings setContextCalls writes (with `whole`), as name and value, for a context known in
 * TypeScript: a session started with them reads as that caller (bench/pgbench.ts).
 */
export function contextSettings(
  ctx: Record<string, unknown>,
  keys: readonly string[],
): Record<string, string> {
  const text = (value: unknown) =>
    value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  const settings: Record<string, string> = { [CONTEXT_SETTING]: JSON.stringify(ctx) };
  for (const key of keys) settings[keySetting(key)] = text(ctx[key]);
  return settings;
}

/** The plpgsql variable that takes the `set_config` results of contextAssignment. */
export const CONTEXT_VARIABLE = "_api_ctx_set";

/**
 * The plpgsql statement that sets the context from `ctx`, for a function that declares
 * CONTEXT_VARIABLE `text[]`. An assignment, not `PERFORM`: plpgsql evaluates an assignment's
 * expression directly, where `PERFORM` runs a query through the executor, about 1 us more a call
 * (docs/performance.md "Profile").
 */
export function contextAssignment(ctx: Sql, keys: readonly string[], whole: boolean): Sql {
  return sql`${ident(CONTEXT_VARIABLE)} := ARRAY[${setContextCalls(ctx, keys, whole)}];`;
}

/**
 * `api.set_ctx(ctx jsonb, local boolean DEFAULT true)`: the writer for SQL outside the generated
 * functions (custom handlers' `req.db`, tests, psql), which inline the same calls (a call costs
 * about 6 us more). A NULL ctx unsets everything.
 */
export function setContextFunction(schema: Pick<Schema, "globalParams">): string {
  return sql`CREATE FUNCTION api.set_ctx(ctx jsonb, local boolean DEFAULT true) RETURNS void
LANGUAGE sql VOLATILE
BEGIN ATOMIC
  SELECT ${setContextCalls(sql`ctx`, contextKeys(schema), true, sql`local`)};
END`.toString();
}
