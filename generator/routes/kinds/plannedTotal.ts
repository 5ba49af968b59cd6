// A `planned` total (paged.ts) is the planner's estimate of the count query: the function reads it
// from EXPLAIN of that query's prepared statement. When the route's rows are simply every row of
// its one table (no where, no join, not grouped, no raw selector that could add rows) and no row
// policy leaves any of them out, that estimate is the planner's estimate of the table's size,
// which it makes from pg_class: rows per page as last analysed (reltuples / relpages) times the
// table's current pages. The route function reads the same figure directly:
// one catalog row instead of a prepared statement and an EXPLAIN (the Restura fixture's users by
// cursor with `count=planned`: two trips through api.execute_cached per request before, none
// now). A table never analysed or empty gives NULL, and EXPLAIN answers as before.
//
// Only for tables without row policies: under one the figure would count every tenant's rows,
// which the caller may not learn; EXPLAIN then estimates what the policy leaves. A table rule
// (roles, scopes) is all or nothing: a caller who fails it is refused (A0403) before any total.

import type { Table } from "../../schema/types.ts";
import { literal, type Sql, sql } from "../../sql/sql.ts";
import { tableRef } from "../../tables/names.ts";
import { nl } from "../layout.ts";
import type { CompiledQuery } from "../select.ts";
import { rawSelectorsKeepRowCount } from "./pagedKeys.ts";

/** Whether the count query counts every row of the route's table, whoever calls. */
function countsWholeTable(q: CompiledQuery): boolean {
  if (q.where || q.groupBy || q.scope.sources.length !== 1) return false;
  if (!rawSelectorsKeepRowCount(q)) return false;
  const table: Table = q.scope.base.table;
  return table.policies.length === 0;
}

/**
 * The planner's estimate of the route's row count read from pg_class (NULL: ask EXPLAIN), or
 * undefined when the route's rows are not its whole table.
 */
export function tableSizeEstimate(q: CompiledQuery): Sql | undefined {
  if (!countsWholeTable(q)) return undefined;
  const table = literal(tableRef(q.scope.base.table.name).toString());
  const pages = sql`NULLIF(pg_relation_size(c.oid) / current_setting('block_size')::bigint, 0)`;
  return sql`(SELECT CASE WHEN c.relpages > 0 AND c.reltuples >= 0 THEN round(c.reltuples::float8 / c.relpages * ${pages})::bigint END FROM pg_class AS c WHERE c.oid = ${table}::regclass)`;
}

/**
 * The planned total's statements: the table's size from pg_class where that is the estimate and
 * there is no filter, EXPLAIN (`explain`) otherwise or when pg_class has no figure.
 */
export function plannedTotalStatements(
  q: CompiledQuery,
  indent: string,
  explain: (indent: string) => Sql,
): Sql {
  const estimate = tableSizeEstimate(q);
  if (!estimate) return explain(indent);
  const i1 = `${indent}  `;
  return sql`IF _api_filter IS NULL THEN${nl(i1)}_api_total := ${estimate};${nl(indent)}END IF;${nl(indent)}IF _api_total IS NULL THEN${nl(i1)}${explain(i1)}${nl(indent)}END IF;`;
}
