// How a route function's query reads one table: `public."<table>" AS "<alias>"`, or, when the
// table has columns that not every caller may see (column roles/scopes) or that no one may read
// (private columns), an inline derived table with the same columns as the table's API view:
//
//   (SELECT "id", CASE WHEN (SELECT api.allowed(...)) THEN "budget" END AS "budget", ...
//    FROM "public"."project") AS "project"
//
// A hidden column therefore reads as NULL everywhere in the query (the object, where conditions,
// joins, order, and raw schema-author SQL naming `"project"."budget"`), exactly as through the
// view, and a private column does not exist. Unlike the security-barrier view, a plain derived
// table is flattened by the planner, so where conditions, joins and ORDER BY ... LIMIT on the
// other columns reach the table's indexes. Rows: row-level security binds api_owner, the
// function's owner, on the table itself (row policies, and the table rule as a restrictive
// policy), so no row filter is needed here.

import type { Column, Table } from "../schema/types.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import { allowedOnce, isRestricted } from "./permissions.ts";

/** Private columns (no caller may read them) are marked `private: true` by the schema. */
const isPrivate = (c: Column): boolean => (c as { private?: unknown }).private === true;

/** The columns a query may name: every column but the private ones. */
export const readableColumns = (table: Table): Column[] => table.columns.filter((c) => !isPrivate(c));

/** Whether the table is read through a masking derived table rather than directly. */
export const needsMask = (table: Table): boolean =>
  table.columns.some((c) => isPrivate(c) || isRestricted(c));

function maskedColumn(column: Column): Sql {
  const name = ident(column.name);
  if (!isRestricted(column)) return name;
  return sql`CASE WHEN ${allowedOnce(column)} THEN ${name} END AS ${name}`;
}

/** The FROM item for `table` under `alias`. */
export function sourceSql(table: Table, alias: string): Sql {
  if (!needsMask(table)) return sql`${tableRef(table.name)} AS ${ident(alias)}`;
  const columns = join(readableColumns(table).map(maskedColumn));
  return sql`(SELECT ${columns} FROM ${tableRef(table.name)}) AS ${ident(alias)}`;
}
