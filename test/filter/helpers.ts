// Shared by the filter tests: AST builders, a formatter (AST -> filter text, for round trips), a
// seeded PRNG and a structural check of parser output.

import {
  FILTER_OPS,
  type FilterCondition,
  type FilterExpr,
  type FilterOp,
} from "../../gateway/filter/parse.ts";

/** A condition as the parser produces it: the column name starts at `position`. */
export function c(
  position: number,
  column: string,
  op: FilterOp,
  value?: string | string[],
): FilterCondition {
  return value === undefined ? { column, op, position } : { column, op, value, position };
}

export const and = (...items: FilterExpr[]): FilterExpr => ({ and: items });
export const or = (...items: FilterExpr[]): FilterExpr => ({ or: items });
export const not = (item: FilterExpr): FilterExpr => ({ not: item });

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;
export const int = (rnd: Random, n: number) => Math.floor(rnd() * n);
export const pick = <T>(rnd: Random, items: readonly T[]): T => items[int(rnd, items.length)] as T;

export interface FormatOptions {
  /** Blanks to put between tokens (called once per gap). */
  gap?: () => string;
  /** Whether to write a value bare (escaped) rather than quoted, where both are possible. */
  bare?: (value: string) => boolean;
  /** Whether to write an `eq` condition in the two-part form `(column,value)`. */
  short?: () => boolean;
  /** Which quote to use for a quoted value. */
  quoteChar?: (value: string) => '"' | "'";
}

/** Filter text that parses back to `ast` (ignoring positions). */
export function formatFilter(ast: FilterExpr, options: FormatOptions = {}): string {
  const gap = options.gap ?? (() => "");
  const node = (e: FilterExpr): string => {
    if ("and" in e) return e.and.map(item).join(`${gap()}and${gap()}`);
    if ("or" in e) return e.or.map(item).join(`${gap()}or${gap()}`);
    if ("not" in e) return `!${gap()}${item(e.not)}`;
    const parts = [e.column];
    if (e.op === "null" || e.op === "notnull") parts.push(e.op);
    else if (e.op === "eq" && typeof e.value === "string" && options.short?.()) {
      // A bare null or notnull in the two-part form would be the null test.
      parts.push(e.value === "null" || e.value === "notnull" ? `"${e.value}"` : value(e.value));
    } else {
      parts.push(e.op);
      const values = Array.isArray(e.value) ? e.value : [e.value ?? ""];
      parts.push(values.map(value).join(`${gap()}|${gap()}`));
    }
    return `(${gap()}${parts.join(`${gap()},${gap()}`)}${gap()})`;
  };
  // Nested and/or nodes and negated ones need parentheses; a condition has its own.
  const item = (e: FilterExpr): string =>
    "and" in e || "or" in e ? `(${gap()}${node(e)}${gap()})` : node(e);
  const value = (v: string): string => {
    const blankEdge = /^[ \t\r\n]|[ \t\r\n]$/.test(v);
    if (v !== "" && !blankEdge && options.bare?.(v)) return v.replace(/[,|\\()"']/g, (m) => `\\${m}`);
    const q = options.quoteChar?.(v) ?? '"';
    return q + v.replace(q === '"' ? /[\\"]/g : /[\\']/g, (m) => `\\${m}`) + q;
  };
  return node(ast);
}

/** The AST without positions. */
export function stripPositions(ast: FilterExpr): FilterExpr {
  if ("and" in ast) return { and: ast.and.map(stripPositions) };
  if ("or" in ast) return { or: ast.or.map(stripPositions) };
  if ("not" in ast) return { not: stripPositions(ast.not) };
  const { position: _, ...rest } = ast;
  return rest;
}

const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/** Problems with parser output for `text`: shape, operators, values, positions. Empty when sound. */
export function astProblems(ast: FilterExpr, text: string): string[] {
  const problems: string[] = [];
  const visit = (e: FilterExpr, path: string) => {
    const keys = Object.keys(e).sort().join(",");
    if ("and" in e || "or" in e) {
      const items = "and" in e ? e.and : (e as { or: FilterExpr[] }).or;
      if (keys !== "and" && keys !== "or") problems.push(`${path}: keys ${keys}`);
      if (!Array.isArray(items) || items.length < 2) problems.push(`${path}: fewer than two items`);
      items.forEach((x, i) => {
        visit(x, `${path}[${i}]`);
      });
    } else if ("not" in e) {
      if (keys !== "not") problems.push(`${path}: keys ${keys}`);
      visit(e.not, `${path}.not`);
    } else {
      if (!COLUMN.test(e.column)) problems.push(`${path}: column ${JSON.stringify(e.column)}`);
      if (!FILTER_OPS.includes(e.op)) problems.push(`${path}: op ${e.op}`);
      if (e.position === undefined || text.slice(e.position, e.position + e.column.length) !== e.column) {
        problems.push(`${path}: position ${e.position} does not point at ${e.column}`);
      }
      if (e.op === "null" || e.op === "notnull") {
        if ("value" in e) problems.push(`${path}: ${e.op} with a value`);
      } else if (e.op === "in") {
        if (!Array.isArray(e.value) || e.value.length === 0) problems.push(`${path}: in without a list`);
      } else if (typeof e.value !== "string") problems.push(`${path}: value not a string`);
    }
  };
  visit(ast, "$");
  return problems;
}
