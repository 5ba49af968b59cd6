// Walking a filter AST for the columns it names, so the caller can check each against the route's
// readable columns and the caller's visibility. Iterative, so an AST from anywhere cannot overflow
// the stack.

import type { FilterCondition, FilterExpr } from "./ast.ts";

/** Every condition of the AST, in the order they appear in the filter text. */
export function filterConditions(ast: FilterExpr): FilterCondition[] {
  const out: FilterCondition[] = [];
  const stack: FilterExpr[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop() as FilterExpr;
    if ("and" in node) pushReversed(stack, node.and);
    else if ("or" in node) pushReversed(stack, node.or);
    else if ("not" in node) stack.push(node.not);
    else out.push(node);
  }
  return out;
}

function pushReversed(stack: FilterExpr[], items: FilterExpr[]): void {
  for (let i = items.length - 1; i >= 0; i--) stack.push(items[i] as FilterExpr);
}

/**
 * Every column the filter names, as written (`column`, `table.column` or `table.column.jsonKey`),
 * each once, in order of first appearance.
 */
export function filterColumns(ast: FilterExpr): string[] {
  return [...new Set(filterConditions(ast).map((c) => c.column))];
}

export interface DisallowedColumn {
  column: string;
  /** Index of the column name in the filter text; -1 when the AST carries no position. */
  position: number;
  /** What `why` said about the column. */
  reason: string;
}

/**
 * The first condition (in text order) whose column `why` refuses (returns a reason for), or null
 * when it refuses none.
 */
export function checkFilterColumns(
  ast: FilterExpr,
  why: (column: string) => string | null,
): DisallowedColumn | null {
  for (const condition of filterConditions(ast)) {
    const reason = why(condition.column);
    if (reason !== null) return { column: condition.column, position: condition.position ?? -1, reason };
  }
  return null;
}
