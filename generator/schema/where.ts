// Where conditions (routes, subqueries, policies) and assignments: references must resolve and
// values must be one of the documented forms. Values are normalised in place (a bare word becomes
// a quoted text literal, with a warning; `"5"` becomes 5; IS values become null/true/false).

import { type Context, checkColumn, checkGlobal } from "./context.ts";
import { describe, enumMessage } from "./messages.ts";
import { at } from "./paths.ts";
import { isArrayParam, type Params } from "./request.ts";
import type { Scope, Source } from "./scope.ts";
import { didYouMean } from "./suggest.ts";
import { type Assignment, WHERE_OPERATORS, type WhereCondition } from "./types.ts";
import { classifyValue, quoteIdent, quoteText, sqlMentions } from "./values.ts";

export interface QueryEnv {
  ctx: Context;
  scope: Scope;
  /** The route's request parameters; undefined where there is no request (policies). */
  params: Params | undefined;
  /** Set when checking a policy: only this table may be referenced. */
  policyTable?: string;
}

type Scalar = string | number | boolean | null;

/** Resolves a table name or alias in the query's scope, reporting when it does not. */
export function resolveSource(env: QueryEnv, name: string, path: string): Source | undefined {
  const found = env.scope.resolve(name);
  if (found && "source" in found) return found.source;
  if (found) env.ctx.diag.error(path, `"${name}" is joined more than once here; use the join's alias`);
  else if (!env.scope.complete || env.ctx.tablesIncomplete) return undefined;
  else if (env.policyTable !== undefined && name !== "") {
    env.ctx.diag.error(path, `a policy can only refer to its own table "${env.policyTable}", got "${name}"`);
  } else if (name !== "") {
    env.ctx.diag.error(
      path,
      `"${name}" is not a table or alias of this query${didYouMean(name, env.scope.names())}`,
    );
  }
  return undefined;
}

function checkParam(env: QueryEnv, name: string, path: string): void {
  if (!env.params) {
    env.ctx.diag.error(path, `request parameters like "$${name}" cannot be used in a policy`);
  } else if (!env.params.has(name) && env.params.complete) {
    const hint = didYouMean(name, env.params.keys(), "$");
    env.ctx.diag.error(path, `request parameter "$${name}" is not declared in this route's request${hint}`);
  }
}

/** `$param` and `#global` mentions in raw SQL must be declared; the rest of the SQL is trusted. */
export function checkRawSql(env: QueryEnv, sql: string, path: string): void {
  const { params, globals } = sqlMentions(sql);
  for (const name of params) checkParam(env, name, path);
  for (const name of globals) checkGlobal(env.ctx, name, path);
}

/** One scalar value; returns its normalised form. */
function checkScalar(env: QueryEnv, value: Scalar, path: string, allowColumn: boolean): Scalar {
  const form = classifyValue(value);
  const { diag } = env.ctx;
  switch (form.kind) {
    case "global":
      checkGlobal(env.ctx, form.name, path);
      return `#${form.name}`;
    case "param":
      checkParam(env, form.name, path);
      return `$${form.name}`;
    case "column": {
      if (!allowColumn) {
        diag.error(
          path,
          `expected #global, $param or a literal, got the column reference ${String(value).trim()}`,
        );
        return value;
      }
      const source = resolveSource(env, form.table, path);
      if (!source) return String(value).trim();
      checkColumn(env.ctx, source.info, form.column, path);
      return `${quoteIdent(source.name)}.${quoteIdent(form.column)}`;
    }
    case "text":
      return String(value).trim();
    case "number":
    case "boolean":
      return form.value;
    case "null":
      return null;
    case "bare":
      diag.warn(
        path,
        `bare word "${form.word}" is read as the text ${quoteText(form.word)}; quote it to say so`,
      );
      return quoteText(form.word);
    case "invalid":
      diag.error(
        path,
        `invalid value ${describe(value)}: expected #global, $param, "table"."column", 'text', a number, ` +
          "true, false or null (write SQL expressions as a custom condition)",
      );
      return value;
  }
}

function checkWhereValue(env: QueryEnv, c: WhereCondition, path: string): WhereCondition["value"] {
  const { diag } = env.ctx;
  const value = c.value;
  if (value === undefined) return undefined;
  const op = c.operator;
  if (op === "IN" || op === "NOT IN") {
    if (Array.isArray(value)) {
      if (value.length === 0) diag.error(path, `${op} needs at least one value`);
      return value.map((item, i) => {
        const form = classifyValue(item);
        if (form.kind === "text" || form.kind === "number" || form.kind === "bare") {
          return checkScalar(env, item, at(path, i), false) as string | number;
        }
        diag.error(at(path, i), `expected text or a number, got ${describe(item)}`);
        return item;
      });
    }
    const form = classifyValue(value);
    if (form.kind === "param" && isArrayParam(env.params?.get(form.name)))
      return checkScalar(env, value, path, false);
    if (form.kind === "param" && env.params?.has(form.name)) {
      diag.error(
        path,
        `${op} needs a list: give "$${form.name}" a TYPE_CHECK of an array type like "number[]"`,
      );
    } else {
      diag.error(
        path,
        `${op} needs a list of values or a $param with an array TYPE_CHECK, got ${describe(value)}`,
      );
    }
    return value;
  }
  if (Array.isArray(value)) {
    diag.error(path, `only IN and NOT IN take a list of values, got a list for ${op ?? "the condition"}`);
    return value;
  }
  if (op === "IS" || op === "IS NOT") {
    const form = classifyValue(value);
    if (form.kind === "null") return null;
    if (form.kind === "boolean") return form.value;
    diag.error(path, `${op} needs NULL, TRUE or FALSE, got ${describe(value)}`);
    return value;
  }
  const normalized = checkScalar(env, value, path, true);
  if (normalized === null && classifyValue(value).kind === "null") {
    diag.error(path, "use IS or IS NOT to compare with NULL");
  }
  return normalized;
}

/**
 * Checks a where list. `defaultTable` (policies) fills a missing tableName; elsewhere tableName,
 * columnName, operator and value are all required unless the condition is `custom`.
 */
export function checkConditions(
  env: QueryEnv,
  list: WhereCondition[],
  path: string,
  defaultTable?: string,
): void {
  const { diag } = env.ctx;
  list.forEach((c, i) => {
    const p = at(path, i);
    if (c.custom !== undefined) {
      if (
        c.tableName !== undefined ||
        c.columnName !== undefined ||
        c.operator !== undefined ||
        c.value !== undefined
      ) {
        diag.error(
          at(p, "custom"),
          "a condition has either custom or tableName/columnName/operator/value, not both",
        );
      }
      checkRawSql(env, c.custom, at(p, "custom"));
      return;
    }
    if (c.tableName === undefined && defaultTable !== undefined) c.tableName = defaultTable;
    for (const key of ["tableName", "columnName", "operator", "value"] as const) {
      if (c[key] === undefined) diag.error(at(p, key), `missing required property "${key}"`);
    }
    if (c.tableName !== undefined) {
      const source = resolveSource(env, c.tableName, at(p, "tableName"));
      if (source) c.tableName = source.name;
      if (source && c.columnName !== undefined)
        checkColumn(env.ctx, source.info, c.columnName, at(p, "columnName"));
    }
    if (c.operator !== undefined && !(WHERE_OPERATORS as readonly string[]).includes(c.operator)) {
      diag.error(at(p, "operator"), enumMessage(c.operator, WHERE_OPERATORS));
      return;
    }
    const value = checkWhereValue(env, c, at(p, "value"));
    if (value !== undefined) c.value = value;
  });
}

/** Assignments set base-table columns on writes: `#global`, `$param` or a literal, no column references. */
export function checkAssignments(
  env: QueryEnv,
  list: Assignment[],
  base: Source | undefined,
  path: string,
): void {
  const seen = new Set<string>();
  list.forEach((a, i) => {
    const p = at(path, i);
    if (seen.has(a.name)) env.ctx.diag.error(at(p, "name"), `duplicate assignment to "${a.name}"`);
    seen.add(a.name);
    if (base) checkColumn(env.ctx, base.info, a.name, at(p, "name"));
    a.value = checkScalar(env, a.value, at(p, "value"), false);
  });
}
