// Where conditions -> one SQL boolean expression. Conditions are joined by their conjunctions
// with SQL's precedence (AND binds tighter than OR): `a AND b OR c` is `(a AND b) OR c`.
// LIKE / NOT LIKE are case-insensitive contains, STARTS WITH / ENDS WITH case-insensitive prefix /
// suffix; `%`, `_` and `\` in the value match literally (escaped by `api.like_literal` at run
// time, or here for literals).

import type { Column, WhereCondition } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { rawSql } from "./rawSql.ts";
import type { QueryScope } from "./scope.ts";
import { CTX, escapeLike, isTextual, PARAMS, runtimeArray, runtimeValue } from "./values.ts";

type Scalar = string | number | boolean | null;

export function whereSql(conditions: readonly WhereCondition[], scope: QueryScope): Sql | undefined {
  const groups: Sql[][] = [];
  conditions.forEach((c, i) => {
    if (i === 0 || c.conjunction === "OR") groups.push([]);
    groups[groups.length - 1]?.push(conditionSql(c, scope));
  });
  if (groups.length === 0) return undefined;
  if (groups.length === 1) return join(groups[0] as Sql[], " AND ");
  return join(
    groups.map((g) => (g.length === 1 ? (g[0] as Sql) : sql`(${join(g, " AND ")})`)),
    " OR ",
  );
}

const COMPARISON: Partial<Record<string, Sql>> = {
  "=": sql`=`,
  "!=": sql`<>`,
  "<": sql`<`,
  ">": sql`>`,
  "<=": sql`<=`,
  ">=": sql`>=`,
};

function conditionSql(c: WhereCondition, scope: QueryScope): Sql {
  if (c.custom !== undefined) return sql`(${rawSql(c.custom, scope)})`;
  const { tableName, columnName, operator, value } = c;
  if (tableName === undefined || columnName === undefined || operator === undefined || value === undefined) {
    throw new Error("a where condition needs tableName, columnName, operator and value, or custom");
  }
  const column = scope.column(tableName, columnName);
  const left = ident(tableName, columnName);
  const comparison = COMPARISON[operator];
  if (comparison) return sql`${left} ${comparison} ${scalarSql(single(value), column)}`;
  switch (operator) {
    case "LIKE":
      return sql`${textOf(left, column)} ILIKE ${likePattern(single(value), "%", "%")}`;
    case "NOT LIKE":
      return sql`NOT (${textOf(left, column)} ILIKE ${likePattern(single(value), "%", "%")})`;
    case "STARTS WITH":
      return sql`${textOf(left, column)} ILIKE ${likePattern(single(value), "", "%")}`;
    case "ENDS WITH":
      return sql`${textOf(left, column)} ILIKE ${likePattern(single(value), "%", "")}`;
    case "IN":
    case "NOT IN":
      return inSql(left, operator === "NOT IN", value, column);
    case "IS":
    case "IS NOT":
      return sql`${left} ${operator === "IS" ? sql`IS` : sql`IS NOT`} ${isValue(single(value))}`;
    default:
      throw new Error(`unknown where operator ${operator}`);
  }
}

function single(value: WhereCondition["value"]): Scalar {
  if (Array.isArray(value)) throw new Error("only IN and NOT IN take a list of values");
  return value ?? null;
}

/** A where value compared with `column`. */
export function scalarSql(value: Scalar, column: Column): Sql {
  const form = classifyValue(value);
  switch (form.kind) {
    case "global":
      return runtimeValue(CTX, form.name, column);
    case "param":
      return runtimeValue(PARAMS, form.name, column);
    case "column":
      return ident(form.table, form.column);
    case "text":
      return literal(form.text);
    case "bare":
      return literal(form.word);
    case "number":
    case "boolean":
      return literal(form.value);
    case "null":
      return sql`NULL`;
    case "invalid":
      throw new Error(`invalid where value ${JSON.stringify(value)}`);
  }
}

const textOf = (left: Sql, column: Column): Sql => (isTextual(column) ? left : sql`${left}::text`);

/** The ILIKE pattern: `%`/`_`/`\` in the value escaped, then the wildcards around it. */
function likePattern(value: Scalar, before: "%" | "", after: "%" | ""): Sql {
  const form = classifyValue(value);
  const constant = (text: string) => literal(`${before}${escapeLike(text)}${after}`);
  let runtime: Sql;
  switch (form.kind) {
    case "text":
      return constant(form.text);
    case "bare":
      return constant(form.word);
    case "number":
    case "boolean":
      return constant(String(form.value));
    case "null":
      return sql`NULL`;
    case "global":
      runtime = runtimeValue(CTX, form.name, undefined);
      break;
    case "param":
      runtime = runtimeValue(PARAMS, form.name, undefined);
      break;
    case "column":
      runtime = sql`${ident(form.table, form.column)}::text`;
      break;
    case "invalid":
      throw new Error(`invalid where value ${JSON.stringify(value)}`);
  }
  const escaped = sql`api.like_literal(${runtime})`;
  const pre = before ? sql`'%' || ` : sql``;
  const post = after ? sql` || '%'` : sql``;
  return sql`(${pre}${escaped}${post})`;
}

function inSql(left: Sql, negated: boolean, value: WhereCondition["value"], column: Column): Sql {
  if (Array.isArray(value)) {
    const items = join(value.map((v) => scalarSql(v, column)));
    return sql`${left} ${negated ? sql`NOT IN` : sql`IN`} (${items})`;
  }
  const form = classifyValue(single(value));
  if (form.kind !== "param")
    throw new Error(`IN needs a list or an array $param, got ${JSON.stringify(value)}`);
  const array = runtimeArray(PARAMS, form.name, column);
  return negated ? sql`${left} <> ALL(${array})` : sql`${left} = ANY(${array})`;
}

function isValue(value: Scalar): Sql {
  if (value === null) return sql`NULL`;
  const form = classifyValue(value);
  if (form.kind === "boolean") return form.value ? sql`TRUE` : sql`FALSE`;
  if (form.kind === "null") return sql`NULL`;
  throw new Error(`IS needs NULL, TRUE or FALSE, got ${JSON.stringify(value)}`);
}
