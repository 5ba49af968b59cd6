// The filter AST the gateway sends to a PAGED route function (docs/architecture.md, "Filter AST").

/** Operators in the order error messages list them. */
export const FILTER_OPS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "has",
  "sw",
  "ew",
  "in",
  "null",
  "notnull",
] as const;

export type FilterOp = (typeof FILTER_OPS)[number];

/**
 * One `(column,...)` expression. `value` is a string for every operator but `in` (a list, at least
 * one item) and `null`/`notnull` (absent). `position` is the 0-based index of the column name in the
 * filter text; the parser always sets it, ASTs built elsewhere may leave it out.
 */
export interface FilterCondition {
  column: string;
  op: FilterOp;
  value?: string | string[];
  position?: number;
}

export type FilterExpr = { and: FilterExpr[] } | { or: FilterExpr[] } | { not: FilterExpr } | FilterCondition;

export interface FilterError {
  /** 0-based index into the filter text (a UTF-16 code unit index, as JavaScript strings count). */
  position: number;
  /** Safe to show to the client; always contains `at position N` with N = `position`. */
  message: string;
}

export type ParseFilterResult = { ok: true; ast: FilterExpr } | { ok: false; error: FilterError };

export interface FilterLimits {
  /** Longest filter text accepted, in UTF-16 code units. */
  maxLength: number;
  /** Most `!` and grouping parentheses that may enclose one another. */
  maxDepth: number;
  /** Most `(column,...)` expressions in one filter. */
  maxConditions: number;
}

export const DEFAULT_FILTER_LIMITS: Readonly<FilterLimits> = Object.freeze({
  maxLength: 4096,
  maxDepth: 32,
  maxConditions: 100,
});
