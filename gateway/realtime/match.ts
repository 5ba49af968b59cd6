// A subscription's own filter, evaluated in the gateway on an event's row image: the PAGED filter
// (gateway/filter/parse.ts AST, docs/query-language.md) with the route function's semantics,
// SQL's three-valued logic included: a NULL column matches only `null`, and `!` of an unknown
// stays unknown (`!(dueDate,eq,x)` leaves out a row whose dueDate is NULL, as on PAGED routes).
// Values compare by the column's type; they were checked to cast at subscribe time.

import type { PgTypeName } from "../../generator/model/index.ts";
import type { FilterCondition, FilterExpr } from "../filter/parse.ts";
import type { ResolvedColumn } from "./tables.ts";

export type ColumnKind = "integer" | "number" | "boolean" | "date" | "timestamp" | "uuid" | "json" | "text";

export function columnKind(type: PgTypeName): ColumnKind {
  switch (type) {
    case "smallint":
    case "integer":
    case "bigint":
      return "integer";
    case "numeric":
    case "real":
    case "double precision":
      return "number";
    case "boolean":
      return "boolean";
    case "date":
      return "date";
    case "timestamptz":
    case "timestamp":
      return "timestamp";
    case "uuid":
      return "uuid";
    case "jsonb":
      return "json";
    default:
      return "text";
  }
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const DATE = /^\s*(\d{4})-(\d{2})-(\d{2})\s*$/;
const UUID = /^\s*\{?[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}\}?\s*$/;
const TRUE = new Set(["t", "true", "y", "yes", "on", "1"]);
const FALSE = new Set(["f", "false", "n", "no", "off", "0"]);

/** The type's name for the error message when `value` does not cast to it; undefined when it does. */
export function valueProblem(kind: ColumnKind, value: string): string | undefined {
  switch (kind) {
    case "integer":
      return INTEGER.test(value) ? undefined : "integer";
    case "number":
      return NUMBER.test(value) ? undefined : "number";
    case "boolean":
      return parseBoolean(value) === undefined ? "boolean" : undefined;
    case "date":
      return parseDate(value) === undefined ? "date" : undefined;
    case "timestamp":
      return parseTimestamp(value) === undefined ? "timestamp" : undefined;
    case "uuid":
      return UUID.test(value) ? undefined : "uuid";
    case "json":
      return parseJson(value) === undefined ? "JSON value" : undefined;
    default:
      return undefined;
  }
}

function parseBoolean(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

/** `YYYY-MM-DD` of a real day, kept as that text (which orders as the date). */
function parseDate(value: string): string | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  const day = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`) {
    return undefined;
  }
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** Milliseconds since the epoch; a value without an offset is UTC (as on PAGED routes). */
function parseTimestamp(value: string): number | undefined {
  const v = value.trim().replace(" ", "T");
  if (!/^\d{4}-\d{2}-\d{2}/.test(v)) return undefined;
  const hasOffset = /([zZ]|[+-]\d{2}(:?\d{2})?)$/.test(v) && v.length > 10;
  const ms = Date.parse(hasOffset || v.length === 10 ? normalizeOffset(v) : `${v}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Postgres writes `+00` (no minutes) in JSON timestamps; Date.parse wants `+00:00`. */
function normalizeOffset(v: string): string {
  return v.replace(/([+-]\d{2})$/, "$1:00").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** JSON text with object keys sorted: two equal jsonb values give the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A comparable form of a row's value or a filter value, by kind. */
type Comparable = bigint | number | string | boolean;

function fromRow(kind: ColumnKind, value: unknown): Comparable | undefined {
  switch (kind) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value)
        ? BigInt(value)
        : typeof value === "string" && INTEGER.test(value)
          ? BigInt(value.trim())
          : undefined;
    case "number":
      return typeof value === "number" ? value : typeof value === "string" ? Number(value) : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "date":
      return typeof value === "string" ? value.slice(0, 10) : undefined;
    case "timestamp":
      return typeof value === "string" ? parseTimestamp(value) : undefined;
    case "uuid":
      return typeof value === "string" ? value.toLowerCase() : undefined;
    case "json":
      return canonical(value);
    default:
      return typeof value === "string" ? value : String(value);
  }
}

function fromFilter(kind: ColumnKind, value: string): Comparable | undefined {
  switch (kind) {
    case "integer":
      return BigInt(value.trim());
    case "number":
      return Number(value);
    case "boolean":
      return parseBoolean(value);
    case "date":
      return parseDate(value);
    case "timestamp":
      return parseTimestamp(value);
    case "uuid":
      return value
        .trim()
        .replace(/[{}-]/g, "")
        .toLowerCase()
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    case "json":
      return canonical(parseJson(value));
    default:
      return value;
  }
}

/** The text a value has for `has`, `sw`, `ew` and JSON keys (`->>`: strings unquoted). */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** true, false, or null (SQL's unknown). */
type Truth = boolean | null;

export type RowMatcher = (row: Record<string, unknown>) => boolean;

type Compiled = (row: Record<string, unknown>) => Truth;

/** Compiles the AST once per subscription; each event costs one walk of closures. */
export function compileMatcher(
  ast: FilterExpr,
  columnOf: (name: string) => ResolvedColumn | undefined,
): RowMatcher {
  const compiled = compile(ast, columnOf);
  return (row) => compiled(row) === true;
}

function compile(node: FilterExpr, columnOf: (name: string) => ResolvedColumn | undefined): Compiled {
  if ("and" in node) {
    const items = node.and.map((n) => compile(n, columnOf));
    return (row) => {
      let unknown = false;
      for (const item of items) {
        const t = item(row);
        if (t === false) return false;
        if (t === null) unknown = true;
      }
      return unknown ? null : true;
    };
  }
  if ("or" in node) {
    const items = node.or.map((n) => compile(n, columnOf));
    return (row) => {
      let unknown = false;
      for (const item of items) {
        const t = item(row);
        if (t === true) return true;
        if (t === null) unknown = true;
      }
      return unknown ? null : false;
    };
  }
  if ("not" in node) {
    const inner = compile(node.not, columnOf);
    return (row) => {
      const t = inner(row);
      return t === null ? null : !t;
    };
  }
  return condition(node, columnOf(node.column));
}

function condition(node: FilterCondition, resolved: ResolvedColumn | undefined): Compiled {
  // Checked at subscribe time; a column that vanished matches nothing.
  if (!resolved) return () => null;
  const { column, jsonKey } = resolved;
  const kind: ColumnKind = jsonKey === undefined ? column.kind : "text";
  const read = (row: Record<string, unknown>): unknown => {
    const value = row[column.name];
    if (jsonKey === undefined) return value;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const inner = (value as Record<string, unknown>)[jsonKey];
    // `->>` of a JSON null is SQL NULL.
    return inner === null ? undefined : inner === undefined ? undefined : textOf(inner);
  };
  if (node.op === "null") return (row) => read(row) == null;
  if (node.op === "notnull") return (row) => read(row) != null;
  if (node.op === "has" || node.op === "sw" || node.op === "ew") {
    const needle = String(node.value ?? "").toLowerCase();
    const test =
      node.op === "has"
        ? (s: string) => s.includes(needle)
        : node.op === "sw"
          ? (s: string) => s.startsWith(needle)
          : (s: string) => s.endsWith(needle);
    return (row) => {
      const value = read(row);
      return value == null ? null : test(textOf(value).toLowerCase());
    };
  }
  const values = (Array.isArray(node.value) ? node.value : [node.value ?? ""]).map((v) =>
    fromFilter(kind, v),
  );
  const compare = (a: Comparable, b: Comparable): number => (a < b ? -1 : a > b ? 1 : 0);
  const decide = (c: number): boolean => {
    switch (node.op) {
      case "ne":
        return c !== 0;
      case "gt":
        return c > 0;
      case "gte":
        return c >= 0;
      case "lt":
        return c < 0;
      case "lte":
        return c <= 0;
      default:
        return c === 0;
    }
  };
  return (row) => {
    const raw = read(row);
    if (raw == null) return null;
    const value = fromRow(kind, raw);
    if (value === undefined) return null;
    if (node.op === "in") return values.some((v) => v !== undefined && compare(value, v) === 0);
    const target = values[0];
    if (target === undefined) return null;
    return decide(compare(value, target));
  };
}
