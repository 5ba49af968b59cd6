// One view per table (docs/architecture.md "Views"): `api."t"`, owned by api_owner, a plain view
// (a security barrier would never be flattened into a handler's query, so its joins could not
// reach the indexes; row security and the masks hold without it), with every column; a column
// with roles/scopes is NULL unless the caller passes the column rule, and a table with
// roles/scopes shows rows only to callers that pass the table rule.
// Rows are filtered by the table's row-level-security policies, which bind api_owner, the view's
// owner. So a connection without settings sees only public tables and public columns, and no row
// of a table with policies. Private columns are not in the view at all: no role, scope or forged
// context can make them appear (their SELECT is not granted either, grants.ts).

import type { ModelColumn, ModelTable } from "../model/index.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { tableRef } from "../tables/names.ts";
import { textArray } from "./globals.ts";
import { API_OWNER, viewRef } from "./names.ts";

/** `(SELECT api.allowed('{roles}', '{scopes}'))`: the table/column rule, once per statement. */
export function allowedCheck(roles: readonly string[], scopes: readonly string[]): Sql {
  return sql`(SELECT api.allowed(${textArray(roles)}, ${textArray(scopes)}))`;
}

function viewColumn(column: ModelColumn): Sql {
  const name = ident(column.name);
  if (!column.access) return name;
  return sql`CASE WHEN ${allowedCheck(column.access.roles, column.access.scopes)} THEN ${name} END AS ${name}`;
}

export function viewStatements(table: ModelTable): string[] {
  const columns = join(table.readable.map(viewColumn), ",\n  ");
  const rule = table.access;
  const where = rule ? sql`\nWHERE ${allowedCheck(rule.roles, rule.scopes)}` : sql``;
  return [
    sql`CREATE VIEW ${viewRef(table.name)} AS\nSELECT\n  ${columns}\nFROM ${tableRef(table.name)}${where}`.toString(),
    sql`ALTER VIEW ${viewRef(table.name)} OWNER TO ${ident(API_OWNER)}`.toString(),
  ];
}
