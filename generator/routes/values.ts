// Runtime values inside route functions. A function is called as `api."<name>"(params, ctx)`:
// `$1` is the request parameters and `$2` the caller context (jsonb objects). Queries refer to
// them positionally, never by name, so the same query text works as static plpgsql SQL and under
// `EXECUTE ... USING params, ctx, ...`, and no column of the schema can shadow them.
// A value compared with a column is cast to that column's base type (no length or precision: a
// `varchar(30)` or `numeric(10,2)` cast would cut or round the client's value before comparing).

import type { Column } from "../schema/types.ts";
import { join, literal, type Sql, sql } from "../sql/sql.ts";
import { type PgTypeName, pgType } from "../tables/columnType.ts";

export const PARAMS = sql`$1`;
export const CTX = sql`$2`;
/** PAGED, dynamic path only: the filter's values (`text[]`). */
export const FILTER_VALUES = sql`$3`;

/** The type a runtime value is cast to, by the column's type: char and varchar compare as text. */
const CAST_TYPES = {
  smallint: "smallint",
  integer: "integer",
  bigint: "bigint",
  numeric: "numeric",
  real: "real",
  "double precision": "double precision",
  boolean: "boolean",
  char: "text",
  varchar: "text",
  text: "text",
  jsonb: "jsonb",
  date: "date",
  timestamptz: "timestamptz",
  timestamp: "timestamp",
  time: "time",
  interval: "interval",
  uuid: "uuid",
  bytea: "bytea",
} as const satisfies Record<PgTypeName, string>;

export type CastType = (typeof CAST_TYPES)[PgTypeName];

const CAST_SQL = {
  smallint: sql`smallint`,
  integer: sql`integer`,
  bigint: sql`bigint`,
  numeric: sql`numeric`,
  real: sql`real`,
  "double precision": sql`double precision`,
  boolean: sql`boolean`,
  text: sql`text`,
  jsonb: sql`jsonb`,
  date: sql`date`,
  timestamptz: sql`timestamptz`,
  timestamp: sql`timestamp`,
  time: sql`time`,
  interval: sql`interval`,
  uuid: sql`uuid`,
  bytea: sql`bytea`,
} satisfies Record<CastType, Sql>;

/** Every cast type, for the runtime filter helper's whitelist. */
export const ALL_CAST_TYPES = Object.keys(CAST_SQL) as CastType[];

export function castType(column: Column): CastType {
  return CAST_TYPES[pgType(column).name];
}

export function castSql(type: CastType): Sql {
  return CAST_SQL[type];
}

/**
 * `$param` (from `$1`) or `#global` (from `$2`) as a value of the column's type: text as is
 * (`$1->>'q'`), JSON columns as jsonb (`$1->'doc'`), others cast (`($1->>'id')::bigint`). Without a
 * column (raw SQL that compares with nothing known): text.
 */
export function runtimeValue(from: Sql, name: string, column: Column | undefined): Sql {
  const key = literal(name);
  const type = column ? castType(column) : "text";
  if (type === "text") return sql`(${from}->>${key})`;
  if (type === "jsonb") return sql`(${from}->${key})`;
  return sql`(${from}->>${key})::${castSql(type)}`;
}

/** A `$param` holding a JSON array, as a Postgres array of the column's type (without one: text). */
export function runtimeArray(from: Sql, name: string, column: Column | undefined): Sql {
  const elements = sql`ARRAY(SELECT jsonb_array_elements_text(${from}->${literal(name)}))`;
  const type = column ? castType(column) : "text";
  return type === "text" ? elements : sql`${elements}::${castSql(type)}[]`;
}

/** Where a request's `$param` or a caller's `#global` comes from. */
export type ValueSource = "param" | "global";

/**
 * How a compiled query reads its runtime values. Route functions read them from their two jsonb
 * parameters (below); the gateway's own read statements bind each as a typed parameter of its own
 * (generator/routes/boundValues.ts).
 */
export interface RuntimeValues {
  /** One value, of the column's type (see runtimeValue). */
  value(from: ValueSource, name: string, column: Column | undefined): Sql;
  /** A `$param` holding a JSON array (see runtimeArray). */
  array(name: string, column: Column | undefined): Sql;
}

/** A route function's values: `$1` (the request) and `$2` (the caller), jsonb. */
export const FUNCTION_VALUES: RuntimeValues = {
  value: (from, name, column) => runtimeValue(from === "param" ? PARAMS : CTX, name, column),
  array: (name, column) => runtimeArray(PARAMS, name, column),
};

/** A list of role or scope names as `text[]`. */
export function textArray(items: readonly string[]): Sql {
  if (items.length === 0) return sql`'{}'::text[]`;
  return sql`ARRAY[${join(items.map((i) => literal(i)))}]::text[]`;
}

/** LIKE escaping, shared with the where conditions (re-exported for the routes' callers). */
export { escapeLike } from "../api/conditions.ts";
