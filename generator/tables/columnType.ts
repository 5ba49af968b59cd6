// Schema column types -> Postgres types, and the rule that says which type changes are safe.

import type { Column, ColumnType } from "../schema/types.ts";
import { parseDecimal, parseEnumValues } from "../schema/values.ts";
import { join, literal, type Sql, sql } from "../sql/sql.ts";

export type PgTypeName =
  | "smallint"
  | "integer"
  | "bigint"
  | "numeric"
  | "real"
  | "double precision"
  | "boolean"
  | "char"
  | "varchar"
  | "text"
  | "jsonb"
  | "date"
  | "timestamptz"
  | "timestamp"
  | "time"
  | "interval"
  | "uuid"
  | "bytea";

export interface PgType {
  name: PgTypeName;
  /** char / varchar: absent means unbounded varchar (char is always given one, default 1). */
  length?: number;
  /** numeric: absent means unbounded numeric. */
  precision?: number;
  /** numeric: present whenever precision is. */
  scale?: number;
}

interface TypeRule {
  pg: (column: Column) => PgType;
  /** SERIAL-like types are always identity columns. */
  serial?: true;
}

const plain =
  (name: PgTypeName) =>
  (_column: Column): PgType => ({ name });

function charType(name: "char" | "varchar") {
  return (column: Column): PgType => {
    const length = column.length ?? (name === "char" ? 1 : undefined);
    if (length === undefined) return { name };
    if (!Number.isInteger(length) || length < 1) {
      throw new Error(`column "${column.name}": ${name} length must be a positive integer, got ${length}`);
    }
    return { name, length };
  };
}

function numericType(column: Column): PgType {
  if (column.value === undefined || column.value.trim() === "") return { name: "numeric" };
  const parsed = parseDecimal(column.value);
  if (!parsed || parsed.precision < 1 || parsed.precision > 1000 || parsed.scale > parsed.precision) {
    throw new Error(
      `column "${column.name}": ${column.type} value must be "precision" or "precision,scale", got "${column.value}"`,
    );
  }
  return { name: "numeric", ...parsed };
}

/** Exhaustive: adding a column type breaks the build until it is mapped here. */
const COLUMN_TYPE_RULES = {
  BIGSERIAL: { pg: plain("bigint"), serial: true },
  SERIAL: { pg: plain("integer"), serial: true },
  SMALLSERIAL: { pg: plain("smallint"), serial: true },
  BIGINT: { pg: plain("bigint") },
  INTEGER: { pg: plain("integer") },
  INT: { pg: plain("integer") },
  MEDIUMINT: { pg: plain("integer") },
  SMALLINT: { pg: plain("smallint") },
  TINYINT: { pg: plain("smallint") },
  DECIMAL: { pg: numericType },
  NUMERIC: { pg: numericType },
  REAL: { pg: plain("real") },
  FLOAT: { pg: plain("real") },
  DOUBLE: { pg: plain("double precision") },
  "DOUBLE PRECISION": { pg: plain("double precision") },
  BOOLEAN: { pg: plain("boolean") },
  CHAR: { pg: charType("char") },
  VARCHAR: { pg: charType("varchar") },
  TEXT: { pg: plain("text") },
  TINYTEXT: { pg: plain("text") },
  MEDIUMTEXT: { pg: plain("text") },
  LONGTEXT: { pg: plain("text") },
  ENUM: { pg: plain("text") },
  JSON: { pg: plain("jsonb") },
  JSONB: { pg: plain("jsonb") },
  DATE: { pg: plain("date") },
  DATETIME: { pg: plain("timestamptz") },
  TIMESTAMP: { pg: plain("timestamp") },
  TIMESTAMPTZ: { pg: plain("timestamptz") },
  TIME: { pg: plain("time") },
  INTERVAL: { pg: plain("interval") },
  UUID: { pg: plain("uuid") },
  BYTEA: { pg: plain("bytea") },
  BLOB: { pg: plain("bytea") },
  TINYBLOB: { pg: plain("bytea") },
  MEDIUMBLOB: { pg: plain("bytea") },
  LONGBLOB: { pg: plain("bytea") },
} satisfies Record<ColumnType, TypeRule>;

const RULES: Record<ColumnType, TypeRule> = COLUMN_TYPE_RULES;

const TYPE_SQL = {
  smallint: () => sql`smallint`,
  integer: () => sql`integer`,
  bigint: () => sql`bigint`,
  numeric: (t) =>
    t.precision === undefined ? sql`numeric` : sql`numeric(${literal(t.precision)},${literal(t.scale ?? 0)})`,
  real: () => sql`real`,
  "double precision": () => sql`double precision`,
  boolean: () => sql`boolean`,
  char: (t) => sql`char(${literal(t.length ?? 1)})`,
  varchar: (t) => (t.length === undefined ? sql`varchar` : sql`varchar(${literal(t.length)})`),
  text: () => sql`text`,
  jsonb: () => sql`jsonb`,
  date: () => sql`date`,
  timestamptz: () => sql`timestamptz`,
  timestamp: () => sql`timestamp`,
  time: () => sql`time`,
  interval: () => sql`interval`,
  uuid: () => sql`uuid`,
  bytea: () => sql`bytea`,
} satisfies Record<PgTypeName, (type: PgType) => Sql>;

export function pgType(column: Column): PgType {
  return RULES[column.type].pg(column);
}

export function renderPgType(type: PgType): Sql {
  return TYPE_SQL[type.name](type);
}

/** The Postgres type of a column as SQL text, e.g. `varchar(30)`, `numeric(10,2)`. */
export function columnTypeSql(column: Column): Sql {
  return renderPgType(pgType(column));
}

const INTEGER_RANK: Partial<Record<PgTypeName, number>> = { smallint: 1, integer: 2, bigint: 3 };
/** Decimal digits an integer type may need in a numeric column. */
const INTEGER_DIGITS: Partial<Record<PgTypeName, number>> = { smallint: 5, integer: 10, bigint: 19 };

/**
 * Identity column (`GENERATED BY DEFAULT AS IDENTITY`): the SERIAL types, and integer columns with
 * `hasAutoIncrement`. `hasAutoIncrement` on any other type is ignored.
 */
export function isIdentity(column: Column): boolean {
  const rule = RULES[column.type];
  if (rule.serial) return true;
  return column.hasAutoIncrement === true && INTEGER_RANK[rule.pg(column).name] !== undefined;
}

/** ENUM values from `value` (`'a','b'`, as the loader accepts it); undefined for non-ENUM columns. */
export function enumValues(column: Column): string[] | undefined {
  if (column.type !== "ENUM") return undefined;
  const values = parseEnumValues(column.value ?? "");
  if (!values) {
    throw new Error(
      `column "${column.name}": ENUM value must be a list like 'a','b', got ${JSON.stringify(column.value)}`,
    );
  }
  return values;
}

/** `'a', 'b'`: for messages and CHECK constraints. */
export function enumValueList(values: readonly string[]): Sql {
  return join(values.map((v) => literal(v)));
}

/**
 * How a column's type changes between two versions of the schema:
 * - `same`: same Postgres type (and, for ENUM, the same set of values);
 * - `widening`: every existing value stays valid and unchanged (smallint -> integer -> bigint,
 *   integer types -> numeric wide enough, numeric(p,s) -> numeric with no fewer integer or fraction
 *   digits, real -> double precision, char(n) -> char/varchar(m >= n) or text, varchar(n) ->
 *   varchar(m >= n) or text, ENUM gaining values or becoming plain text, JSON <-> JSONB);
 * - `narrowing`: same family, but some values may be cut, rounded or rejected;
 * - `incompatible`: a different family (text -> integer, timestamp -> timestamptz, ...): values
 *   may fail to convert or change meaning.
 * Only `same` and `widening` are applied without confirmation.
 */
export type TypeChange = "same" | "widening" | "narrowing" | "incompatible";

export function compareColumnTypes(previous: Column, next: Column): TypeChange {
  const change = comparePgTypes(pgType(previous), pgType(next));
  if (change !== "same") {
    // Becoming ENUM adds a CHECK to the column: a narrowing even when the type widens.
    if (next.type === "ENUM" && previous.type !== "ENUM" && change === "widening") return "narrowing";
    return change;
  }
  const before = enumValues(previous);
  const after = enumValues(next);
  if (after === undefined) return before === undefined ? "same" : "widening";
  if (before === undefined) return "narrowing";
  if (!before.every((v) => after.includes(v))) return "narrowing";
  return after.every((v) => before.includes(v)) ? "same" : "widening";
}

export function isWidening(previous: Column, next: Column): boolean {
  const change = compareColumnTypes(previous, next);
  return change === "same" || change === "widening";
}

const STRING_TYPES = new Set<PgTypeName>(["char", "varchar", "text"]);
const FLOAT_RANK: Partial<Record<PgTypeName, number>> = { real: 1, "double precision": 2 };

export function comparePgTypes(a: PgType, b: PgType): TypeChange {
  if (a.name === b.name && a.length === b.length && a.precision === b.precision && a.scale === b.scale) {
    return "same";
  }
  const intA = INTEGER_RANK[a.name];
  const intB = INTEGER_RANK[b.name];
  if (intA !== undefined && intB !== undefined) return intB > intA ? "widening" : "narrowing";
  if (intA !== undefined && b.name === "numeric") {
    if (b.precision === undefined) return "widening";
    return b.precision - (b.scale ?? 0) >= (INTEGER_DIGITS[a.name] ?? Infinity) ? "widening" : "narrowing";
  }
  if (a.name === "numeric" && b.name === "numeric") {
    if (b.precision === undefined) return "widening";
    if (a.precision === undefined) return "narrowing";
    const aScale = a.scale ?? 0;
    const bScale = b.scale ?? 0;
    return bScale >= aScale && b.precision - bScale >= a.precision - aScale ? "widening" : "narrowing";
  }
  const numeric = (n: PgTypeName) =>
    INTEGER_RANK[n] !== undefined || FLOAT_RANK[n] !== undefined || n === "numeric";
  const floatA = FLOAT_RANK[a.name];
  const floatB = FLOAT_RANK[b.name];
  if (floatA !== undefined && floatB !== undefined) return floatB > floatA ? "widening" : "narrowing";
  if (numeric(a.name) && numeric(b.name)) return "narrowing";
  if (STRING_TYPES.has(a.name) && STRING_TYPES.has(b.name)) return compareStrings(a, b);
  return "incompatible";
}

function compareStrings(a: PgType, b: PgType): TypeChange {
  const limit = (t: PgType) => (t.name === "text" ? undefined : t.length);
  const aLimit = limit(a);
  const bLimit = limit(b);
  // To char: values get padded, and a longer text may not fit.
  if (b.name === "char" && a.name !== "char") return "narrowing";
  if (bLimit === undefined) return "widening";
  if (aLimit === undefined) return "narrowing";
  return bLimit >= aLimit ? "widening" : "narrowing";
}
