// What a standard route answers, property by property: the JSON value type (as the route
// function serialises it with json_build_object: numbers stay numbers, dates and times are
// ISO-like strings, BYTEA is `\x...` hex text), whether it can be null (a nullable column, or any
// column of a LEFT-joined table, or of the base table when a RIGHT join is present), and whether
// it may be missing (a column with roles/scopes is left out for callers who may not see it, never
// sent as null). Generated TypeScript types and documentation read this.

import { parseEnumValues } from "../schema/index.ts";
import { simpleSelector } from "../schema/queries.ts";
import type { Column, Join, ResponseProperty, Table } from "../schema/types.ts";
import { type PgTypeName, pgType } from "../tables/columnType.ts";

export type ValueType =
  | { kind: "number" }
  | { kind: "string"; format?: "date" | "date-time" | "time" | "uuid" | "interval" | "bytea" }
  | { kind: "boolean" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "json" }
  /** A raw SQL selector with a declared TypeScript type (Restura's `type`). */
  | { kind: "declared"; type: string }
  /** A raw SQL selector without a declared type. */
  | { kind: "unknown" };

export interface ModelProperty {
  readonly name: string;
  readonly type: ValueType;
  readonly nullable: boolean;
  /** Left out (not null) for callers that fail the column's rule. */
  readonly optional: boolean;
  /** A subquery: an array of objects with these properties. */
  readonly items?: readonly ModelProperty[];
}

const NUMBER: ValueType = { kind: "number" };
const TEXT: ValueType = { kind: "string" };
const format = (f: Extract<ValueType, { kind: "string" }>["format"]): ValueType => ({
  kind: "string",
  format: f,
});

/** By the column's Postgres type (generator/tables/columnType.ts resolves every schema spelling). */
const BY_PG_TYPE = {
  smallint: NUMBER,
  integer: NUMBER,
  bigint: NUMBER,
  numeric: NUMBER,
  real: NUMBER,
  "double precision": NUMBER,
  boolean: { kind: "boolean" },
  char: TEXT,
  varchar: TEXT,
  text: TEXT,
  jsonb: { kind: "json" },
  date: format("date"),
  timestamptz: format("date-time"),
  timestamp: format("date-time"),
  time: format("time"),
  interval: format("interval"),
  uuid: format("uuid"),
  bytea: format("bytea"),
} as const satisfies Record<PgTypeName, ValueType>;

/** How a column's value appears in a route's JSON. */
export function valueType(column: Column): ValueType {
  if (column.type === "ENUM") return { kind: "enum", values: parseEnumValues(column.value ?? "") ?? [] };
  return BY_PG_TYPE[pgType(column).name];
}

interface Source {
  table: Table;
  /** Rows of this source may be missing from a result row (outer join). */
  outer: boolean;
}

/** One query's names (base table and join aliases), then the enclosing queries'. */
class Names {
  private readonly own = new Map<string, Source>();

  constructor(
    base: { name: string; table: Table },
    joins: readonly Join[],
    table: (name: string) => Table,
    private readonly parent?: Names,
  ) {
    const right = joins.some((j) => j.type === "RIGHT");
    this.own.set(base.name, { table: base.table, outer: right });
    for (const j of joins) this.own.set(j.alias, { table: table(j.table), outer: j.type === "LEFT" });
  }

  resolve(name: string): Source | undefined {
    return this.own.get(name) ?? this.parent?.resolve(name);
  }
}

export function responseProperties(
  base: Table,
  joins: readonly Join[],
  properties: readonly ResponseProperty[],
  table: (name: string) => Table,
  parent?: Names,
): ModelProperty[] {
  const names = new Names({ name: base.name, table: base }, joins, table, parent);
  return properties.map((p): ModelProperty => {
    if (p.subquery) {
      const sub = p.subquery;
      const items = responseProperties(table(sub.table), sub.joins, sub.properties, table, names);
      return { name: p.name, type: { kind: "json" }, nullable: false, optional: false, items };
    }
    const simple = p.selector === undefined ? undefined : simpleSelector(p.selector);
    const source = simple ? names.resolve(simple.name) : undefined;
    const column = source?.table.columns.find((c) => c.name === simple?.column);
    if (source && column) {
      const restricted = column.roles.length > 0 || column.scopes.length > 0;
      return {
        name: p.name,
        type: valueType(column),
        nullable: column.isNullable || source.outer,
        optional: restricted,
      };
    }
    // Raw SQL: what it returns is the author's business; Restura files may declare it.
    const type: ValueType = p.type ? { kind: "declared", type: p.type } : { kind: "unknown" };
    return { name: p.name, type, nullable: p.type === undefined, optional: false };
  });
}
