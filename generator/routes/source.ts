// How a route function's query reads one table: `public."<table>" AS "<alias>"`, or, when the
// table has columns that not every caller may see (column roles/scopes) or that no one may read
// (private columns), an inline derived table with the columns of the table's API view that the
// query names (select.ts):
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
//
// The gateway's own PAGED statements (gateway/routes/pagedStatement.ts) run as api_gateway, which
// may read only the API views: compiled `through` "views", every FROM item is `api."<table>"`, whose
// columns are masked the same way and whose rows the same policies bind (they bind api_owner, the
// views' owner).

import { viewRef } from "../api/names.ts";
import type { ModelColumn, ModelTable } from "../model/index.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import { allowedOnce } from "./permissions.ts";

/** Whether a query reads the tables (route functions, as api_owner) or the API views (the gateway). */
export type Through = "tables" | "views";

/** Whether the table is read through a masking derived table rather than directly. */
export const needsMask = (table: ModelTable): boolean =>
  table.columns.some((c) => c.private || c.access !== undefined);

function maskedColumn(column: ModelColumn): Sql {
  const name = ident(column.name);
  if (!column.access) return name;
  return sql`CASE WHEN ${allowedOnce(column.access)} THEN ${name} END AS ${name}`;
}

/**
 * The FROM item for `table` under `alias`: its readable columns, each behind its column rule; only
 * `columns` of them when given (those the query names, select.ts), all otherwise.
 */
export function sourceSql(
  table: ModelTable,
  alias: string,
  through: Through,
  columns: readonly ModelColumn[] = table.readable,
): Sql {
  if (through === "views" || !needsMask(table)) return plainSourceSql(table.name, alias, through);
  const listed = join(columns.map(maskedColumn));
  return sql`(SELECT ${listed} FROM ${tableRef(table.name)}) AS ${ident(alias)}`;
}

/** The FROM item for `table` without masks, for choosing rows (select.ts plainFrom): a view still masks. */
export function plainSourceSql(table: string, alias: string, through: Through): Sql {
  return sql`${through === "views" ? viewRef(table) : tableRef(table)} AS ${ident(alias)}`;
}
