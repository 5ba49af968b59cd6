// One query = a standard route or a subquery: base table, joins, where, response properties,
// orderBy/groupBy. Subqueries are checked recursively and see their enclosing queries' names.

import { type Context, checkColumn, lookupTable, rejectedNames } from "./context.ts";
import { invalidName, isTooLong, tooLong } from "./messages.ts";
import { at } from "./paths.ts";
import type { Params } from "./request.ts";
import { Scope, type Source } from "./scope.ts";
import { didYouMean } from "./suggest.ts";
import type { GroupBy, Join, OrderBy, ResponseProperty, WhereCondition } from "./types.ts";
import { IDENTIFIER } from "./values.ts";
import { checkConditions, checkRawSql, type QueryEnv, resolveSource } from "./where.ts";

export interface Query {
  table: string;
  joins: Join[];
  where: WhereCondition[];
  orderBy?: OrderBy;
  groupBy?: GroupBy;
}

export interface CheckedQuery {
  env: QueryEnv;
  base: Source;
}

/** Checks everything but the response properties, which the caller checks with `checkProperties`. */
export function checkQuery(
  ctx: Context,
  q: Query,
  path: string,
  params: Params | undefined,
  parent?: Scope,
): CheckedQuery {
  const info = lookupTable(ctx, q.table, at(path, "table"));
  const scope = new Scope(parent);
  const base: Source = { name: q.table, info, tableName: q.table, isJoin: false };
  scope.add(base);
  scope.joinsRejected = rejectedNames(ctx.rejected, at(path, "joins"), "alias");
  const env: QueryEnv = { ctx, scope, params };
  checkJoins(env, q, at(path, "joins"));
  checkConditions(env, q.where, at(path, "where"));
  for (const [key, clause] of [
    ["orderBy", q.orderBy],
    ["groupBy", q.groupBy],
  ] as const) {
    if (!clause) continue;
    const source = resolveSource(env, clause.tableName, at(at(path, key), "tableName"));
    if (!source) continue;
    clause.tableName = source.name;
    checkColumn(ctx, source.info, clause.columnName, at(at(path, key), "columnName"));
  }
  return { env, base };
}

function checkJoins(env: QueryEnv, q: Query, path: string): void {
  const { ctx, scope } = env;
  const { diag } = ctx;
  const base = scope.sources[0] as Source;
  q.joins.forEach((j, i) => {
    const p = at(path, i);
    const earlier = scope.sources;
    if (!IDENTIFIER.test(j.alias)) diag.error(at(p, "alias"), invalidName("alias", j.alias));
    else if (isTooLong(j.alias)) diag.error(at(p, "alias"), tooLong(j.alias));
    if (earlier.some((s) => s.isJoin && s.name === j.alias)) {
      diag.error(at(p, "alias"), `duplicate join alias "${j.alias}"`);
    } else if (
      j.alias === q.table ||
      q.joins.some((other) => other.table === j.alias && j.alias !== j.table)
    ) {
      diag.error(at(p, "alias"), `alias "${j.alias}" is the name of a table used in this query`);
    }
    const info = lookupTable(ctx, j.table, at(p, "table"));
    const hasColumns = j.localColumnName !== undefined || j.foreignColumnName !== undefined;
    if (j.custom !== undefined) {
      if (hasColumns) {
        diag.error(
          at(p, "custom"),
          "a join has either custom or localColumnName/foreignColumnName, not both",
        );
      }
      checkRawSql(env, j.custom, at(p, "custom"));
    } else if (!hasColumns) {
      diag.error(p, "a join needs localColumnName and foreignColumnName, or custom");
    } else {
      for (const key of ["localColumnName", "foreignColumnName"] as const) {
        if (j[key] === undefined) diag.error(at(p, key), `missing required property "${key}"`);
      }
      const local = localSource(env, q, j, i, p, base);
      if (local?.isJoin && j.localTableAlias === undefined) j.localTableAlias = local.name;
      if (local && j.localColumnName !== undefined) {
        checkColumn(ctx, local.info, j.localColumnName, at(p, "localColumnName"));
      }
      if (j.foreignColumnName !== undefined)
        checkColumn(ctx, info, j.foreignColumnName, at(p, "foreignColumnName"));
    }
    scope.add({ name: j.alias, info, tableName: j.table, isJoin: true });
  });
}

/** The table a join's localColumnName belongs to: the base table, or an earlier join (chains). */
function localSource(
  env: QueryEnv,
  q: Query,
  j: Join,
  index: number,
  p: string,
  base: Source,
): Source | undefined {
  const { diag } = env.ctx;
  const earlier = env.scope.sources;
  if (j.localTableAlias !== undefined) {
    const found = earlier.find((s) => s.name === j.localTableAlias);
    if (!found && !env.scope.complete) return undefined;
    if (!found) {
      const later = q.joins.slice(index).some((other) => other.alias === j.localTableAlias);
      diag.error(
        at(p, "localTableAlias"),
        later
          ? `alias "${j.localTableAlias}" is declared by a later join; a join can only refer to earlier ones`
          : `alias "${j.localTableAlias}" is not declared by an earlier join${didYouMean(
              j.localTableAlias,
              earlier.map((s) => s.name),
            )}`,
      );
      return undefined;
    }
    if (j.localTable !== undefined && found.info !== undefined && j.localTable !== found.tableName) {
      diag.error(
        at(p, "localTable"),
        `localTable "${j.localTable}" does not match the table "${found.tableName}" of alias "${found.name}"`,
      );
    }
    return found;
  }
  if (j.localTable === undefined || j.localTable === base.tableName) return base;
  const matches = earlier.filter((s) => s.isJoin && s.tableName === j.localTable);
  if (matches.length === 1) return matches[0];
  if (!env.scope.complete) return undefined;
  if (matches.length > 1) {
    diag.error(at(p, "localTable"), `"${j.localTable}" is joined more than once; use localTableAlias`);
  } else {
    const names = [base.tableName, ...earlier.map((s) => s.tableName)];
    diag.error(
      at(p, "localTable"),
      `"${j.localTable}" is not the base table or a table joined earlier${didYouMean(j.localTable, names)}`,
    );
  }
  return undefined;
}

const SIMPLE_SELECTOR = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/;

/** `alias.column` (a plain column of a source), or undefined for any other selector (raw SQL). */
export function simpleSelector(selector: string): { name: string; column: string } | undefined {
  const match = SIMPLE_SELECTOR.exec(selector.trim());
  return match ? { name: match[1] as string, column: match[2] as string } : undefined;
}

/** Response properties (a route's `response`, a subquery's `properties`), recursively. */
export function checkProperties(env: QueryEnv, list: ResponseProperty[], path: string): void {
  const { ctx } = env;
  const seen = new Set<string>();
  list.forEach((prop, i) => {
    const p = at(path, i);
    if (seen.has(prop.name)) ctx.diag.error(at(p, "name"), `duplicate response property "${prop.name}"`);
    seen.add(prop.name);
    if (prop.selector !== undefined && prop.subquery !== undefined) {
      ctx.diag.error(p, "a response property has either a selector or a subquery, not both");
    } else if (prop.selector === undefined && prop.subquery === undefined) {
      ctx.diag.error(p, "a response property needs a selector or a subquery");
    }
    if (prop.selector !== undefined) prop.selector = checkSelector(env, prop.selector, at(p, "selector"));
    if (prop.subquery !== undefined) {
      const sp = at(p, "subquery");
      const sub = checkQuery(ctx, prop.subquery, sp, env.params, env.scope);
      checkProperties(sub.env, prop.subquery.properties, at(sp, "properties"));
    }
  });
}

/** Checks a selector; returns it with its table rewritten to the resolved name (`user.id` -> `owner.id`). */
function checkSelector(env: QueryEnv, selector: string, path: string): string {
  const simple = simpleSelector(selector);
  if (simple) {
    const source = resolveSource(env, simple.name, path);
    if (!source) return selector;
    checkColumn(env.ctx, source.info, simple.column, path);
    return `${source.name}.${simple.column}`;
  }
  const word = selector.trim();
  if (IDENTIFIER.test(word)) {
    const owner = env.scope.sources.find((s) => s.info?.columns.has(word));
    if (owner) {
      env.ctx.diag.warn(
        path,
        `selector "${word}" is raw SQL; write "${owner.name}.${word}" to select the column`,
      );
    }
  }
  checkRawSql(env, selector, path);
  return selector;
}
