// Global parameters (`#companyId`, `#role`, ...) in generated SQL: they are read from the caller
// context through `api.ctx_text`, wrapped in `(SELECT ...)` so Postgres evaluates them once per
// statement, and cast to the type they are compared with.
//
// In a `custom` condition (raw SQL) the generator cannot see what a `#name` is compared with, so
// it uses the type that the same global has everywhere else in the schema: the columns it is
// compared with in where conditions and the columns it is assigned to. Globals used only in raw
// SQL are text (write an explicit cast in the SQL then, e.g. `#tenant::uuid`).

import {
  type Column,
  isStandardRoute,
  type Join,
  type Schema,
  type Subquery,
  type Table,
  type WhereCondition,
} from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import { endsInLineComment, tokenize } from "../sql/rawSqlLexer.ts";
import { join, literal, type Sql, sql, trusted } from "../sql/sql.ts";
import { pgType, renderPgType } from "../tables/columnType.ts";

/**
 * The type a global is cast to when compared with `column`: the column's type without length or
 * precision (a cast to `varchar(3)` or `numeric(5,2)` would truncate or round the caller's value
 * before comparing), and `text` for every string type.
 */
export function castTypeOf(column: Column): string {
  const type = pgType(column);
  if (type.name === "char" || type.name === "varchar" || type.name === "text") return "text";
  return renderPgType({ name: type.name }).toString();
}

/**
 * `#name` as SQL: `(SELECT api.ctx_text('name')::type)`, text when `castTo` is undefined or text.
 * `#scopes` is the caller's scope list, `(SELECT api.ctx_scopes())`, a text[].
 */
export function globalExpr(name: string, castTo?: string): Sql {
  if (name === "scopes") return sql`(SELECT api.ctx_scopes())`;
  const value = sql`api.ctx_text(${literal(name)})`;
  if (castTo === undefined || castTo === "text") return sql`(SELECT ${value})`;
  // castTo comes from castTypeOf(): a fixed type name such as `bigint` or `timestamptz`. The
  // cast is inside the sub-select, so it too runs once per statement.
  return sql`(SELECT ${value}::${trusted(castTo)})`;
}

/** A text[] constant: `ARRAY['a', 'b']::text[]`, or `'{}'::text[]`. */
export function textArray(values: readonly string[]): Sql {
  if (values.length === 0) return sql`'{}'::text[]`;
  return sql`ARRAY[${join(values.map((v) => literal(v)))}]::text[]`;
}

const INTEGER_WIDTH: Record<string, number> = { smallint: 1, integer: 2, bigint: 3 };

/**
 * Each global's type, inferred from where conditions (policies, routes, joins' subqueries) and
 * assignments: the single type it is used with; the widest when it meets several integer types;
 * text when the uses disagree otherwise. `role` is always text. Deterministic.
 */
export function inferGlobalTypes(schema: Schema): Map<string, string> {
  const uses = new Map<string, Set<string>>();
  const tables = new Map(schema.database.map((t) => [t.name, t]));
  const note = (value: unknown, column: Column | undefined) => {
    if (typeof value !== "string" || column === undefined) return;
    const form = classifyValue(value);
    if (form.kind !== "global") return;
    const set = uses.get(form.name) ?? new Set<string>();
    set.add(castTypeOf(column));
    uses.set(form.name, set);
  };
  const columnOf = (table: Table | undefined, name: string | undefined) =>
    name === undefined ? undefined : table?.columns.find((c) => c.name === name);
  const conditions = (where: WhereCondition[], sources: Map<string, Table>) => {
    for (const c of where) {
      if (c.custom !== undefined || c.tableName === undefined) continue;
      if (c.operator === "LIKE" || c.operator === "NOT LIKE") continue;
      if (c.operator === "STARTS WITH" || c.operator === "ENDS WITH") continue;
      note(c.value, columnOf(sources.get(c.tableName), c.columnName));
    }
  };
  const query = (
    base: string,
    joins: Join[],
    where: WhereCondition[],
    parent: Map<string, Table>,
    subqueries: Subquery[],
  ) => {
    const sources = new Map(parent);
    const baseTable = tables.get(base);
    if (baseTable) sources.set(base, baseTable);
    for (const j of joins) {
      const t = tables.get(j.table);
      if (t) sources.set(j.alias, t);
    }
    conditions(where, sources);
    for (const sub of subqueries) {
      query(sub.table, sub.joins, sub.where, sources, subqueriesOf(sub.properties));
    }
    return sources;
  };
  for (const table of schema.database) {
    for (const policy of table.policies) conditions(policy.where, new Map([[table.name, table]]));
  }
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      if (!isStandardRoute(route)) continue;
      query(route.table, route.joins, route.where, new Map(), subqueriesOf(route.response));
      const base = tables.get(route.table);
      for (const a of route.assignments) note(a.value, columnOf(base, a.name));
    }
  }
  const result = new Map<string, string>();
  for (const name of [...uses.keys()].sort()) {
    const types = [...(uses.get(name) as Set<string>)].sort();
    result.set(name, name === "role" ? "text" : unify(types));
  }
  return result;
}

function subqueriesOf(properties: { subquery?: Subquery }[]): Subquery[] {
  return properties.flatMap((p) => (p.subquery ? [p.subquery] : []));
}

function unify(types: string[]): string {
  if (types.length === 1) return types[0] as string;
  if (types.every((t) => INTEGER_WIDTH[t] !== undefined)) {
    return types.reduce((a, b) => ((INTEGER_WIDTH[a] ?? 0) >= (INTEGER_WIDTH[b] ?? 0) ? a : b));
  }
  return "text";
}

/**
 * Schema-author SQL (trusted) with each `#global` and `$param` mention replaced by the fragment
 * that `replace` returns for it (mentions as generator/sql/rawSqlLexer.ts finds them).
 */
export function substituteMentions(
  text: string,
  replace: (kind: "global" | "param", name: string) => Sql,
): Sql {
  const parts = tokenize(text).map((t) =>
    t.kind === "mention" ? replace(t.sigil === "#" ? "global" : "param", t.name) : trusted(t.text),
  );
  // A trailing `-- comment` would swallow whatever the generator writes after the text.
  if (endsInLineComment(text)) parts.push(trusted("\n"));
  return join(parts, "");
}
