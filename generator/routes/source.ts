// How a route function's query reads one table: `public."<table>" AS "<alias>"`, or, when the
// table has columns that not every caller may see (column roles/scopes) or that no one may read
// (private columns), an inline derived table with the same columns as the table's API view:
//
//   (SELECT "id", CASE WHEN (SELECT <rule on ctx>) THEN "budget" END AS "budget", ...
//    FROM "public"."project") AS "project"
//
// A hidden column therefore reads as NULL everywhere in the query (the object, where conditions,
// joins, order, and raw schema-author SQL naming `"project"."budget"`), exactly as through the
// view, and a private column does not exist. A plain derived table is flattened by the planner
// (the views were security barriers, which it never flattens), so where conditions, joins and
// ORDER BY ... LIMIT on the other columns reach the table's indexes. Rows: row-level security binds api_owner, the
// function's owner, on the table itself (row policies, and the table rule as a restrictive
// policy), so no row filter is needed here.

import type { ModelColumn, ModelTable } from "../model/index.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import { allowedOnce } from "./permissions.ts";

/** Whether the table is read through a masking derived table rather than directly. */
export const needsMask = (table: ModelTable): boolean =>
  table.columns.some((c) => c.private || c.access !== undefined);

function maskedColumn(column: ModelColumn): Sql {
  const name = ident(column.name);
  if (!column.access) return name;
  return sql`CASE WHEN ${allowedOnce(column.access)} THEN ${name} END AS ${name}`;
}

/** The FROM item for `table` under `alias`: its readable columns, each behind its column rule. */
export function sourceSql(table: ModelTable, alias: string): Sql {
  if (!needsMask(table)) return sql`${tableRef(table.name)} AS ${ident(alias)}`;
  const columns = join(table.readable.map(maskedColumn));
  return sql`(SELECT ${columns} FROM ${tableRef(table.name)}) AS ${ident(alias)}`;
}
