// What the schema proves about a query's row count, from unique keys (the primary key, unique
// columns, full unique indexes: generator/schema `uniqueKeys`). A join that adds at most one row
// per row needs no tiebreak of its own in ORDER BY (select.ts); a ONE route whose query returns at
// most one row needs no count to tell "one" from "more than one" (kinds/one.ts).

import { orOfAnds } from "../api/conditions.ts";
import { uniqueKeys } from "../schema/index.ts";
import type { Join, Table, WhereCondition } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import type { QueryScope } from "./scope.ts";

/**
 * A LEFT or INNER join on a one-column unique key of the joined table: it adds at most one row to
 * each row. Other joins (RIGHT, custom ON, to-many) add their own primary key to the order
 * (select.ts), so that rows equal on the base table's key still come out in a stable order.
 */
export function joinsOneRow(j: Join, table: Table): boolean {
  if (j.type === "RIGHT" || j.custom !== undefined || j.foreignColumnName === undefined) return false;
  const column = j.foreignColumnName;
  return uniqueKeys(table).some((key) => key.length === 1 && key[0] === column);
}

/**
 * The query of `scope` (a route's: base table and joins) returns at most one row: its where is
 * a plain AND of conditions that compare every column of one unique key of the base table with
 * `=` to one value (a `$param`, a `#global` or a literal; NULL matches nothing), it is not
 * grouped, and every join adds at most one row.
 */
export function returnsAtMostOneRow(
  query: { where: readonly WhereCondition[]; joins: readonly Join[]; groupBy?: unknown },
  scope: QueryScope,
): boolean {
  if (query.groupBy !== undefined) return false;
  if (!query.joins.every((j) => joinsOneRow(j, scope.model.table(j.table).table))) return false;
  const groups = orOfAnds(query.where);
  if (groups.length !== 1) return false;
  const base = scope.base;
  const pinned = new Set<string>();
  for (const c of groups[0] as WhereCondition[]) {
    if (c.custom === undefined && c.tableName === base.name && c.operator === "=" && isOneValue(c.value)) {
      pinned.add(c.columnName as string);
    }
  }
  return uniqueKeys(base.table).some((key) => key.every((column) => pinned.has(column)));
}

/** `$param`, `#global`, a quoted literal, a number or a boolean; not a column reference, list or NULL. */
function isOneValue(value: WhereCondition["value"]): boolean {
  if (Array.isArray(value) || value === undefined) return false;
  return ONE_VALUE.has(classifyValue(value).kind);
}

const ONE_VALUE = new Set(["param", "global", "text", "number", "boolean"]);
