// One view per table (docs/architecture.md "Views"): `api."t"`, owned by api_owner, a security
// barrier, with every column; a column with roles/scopes is NULL unless the caller passes the
// column rule, and a table with roles/scopes shows rows only to callers that pass the table rule.
// Rows are filtered by the table's row-level-security policies, which bind api_owner, the view's
// owner. So a connection without settings sees only public tables and public columns, and no row
// of a table with policies. Private columns are not in the view at all: no role, scope or forged
// context can make them appear (their SELECT is not granted either, grants.ts).

import { readableColumns } from "../schema/privateColumns.ts";
import type { Column, Table } from "../schema/types.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import { textArray } from "./globals.ts";
import { API_OWNER, viewRef } from "./names.ts";

/** `(SELECT api.allowed('{roles}', '{scopes}'))`: the table/column rule, once per statement. */
export function allowedCheck(roles: readonly string[], scopes: readonly string[]): Sql {
  return sql`(SELECT api.allowed(${textArray(roles)}, ${textArray(scopes)}))`;
}

export function isRestricted(item: Pick<Column | Table, "roles" | "scopes">): boolean {
  return item.roles.length > 0 || item.scopes.length > 0;
}

function viewColumn(column: Column): Sql {
  const name = ident(column.name);
  if (!isRestricted(column)) return name;
  return sql`CASE WHEN ${allowedCheck(column.roles, column.scopes)} THEN ${name} END AS ${name}`;
}

export function viewStatements(table: Table): string[] {
  const columns = join(readableColumns(table).map(viewColumn), ",\n  ");
  const where = isRestricted(table) ? sql`\nWHERE ${allowedCheck(table.roles, table.scopes)}` : sql``;
  return [
    sql`CREATE VIEW ${viewRef(table.name)} WITH (security_barrier) AS\nSELECT\n  ${columns}\nFROM ${tableRef(table.name)}${where}`.toString(),
    sql`ALTER VIEW ${viewRef(table.name)} OWNER TO ${ident(API_OWNER)}`.toString(),
  ];
}
