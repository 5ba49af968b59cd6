// Where conditions (docs/schema.md "Where conditions") compiled to one SQL boolean expression.
// Shared by row policies (generator/api/policies.ts) and route functions (generator/routes/where.ts):
// the caller decides how a table name, a `#global`, a `$param` and raw SQL become SQL; everything
// else is decided here.
//
// - `conjunction` joins a condition to the previous one; AND binds tighter than OR.
// - `!=` is `<>`; NULL never matches (a global that is unset matches nothing).
// - LIKE / NOT LIKE (contains), STARTS WITH, ENDS WITH are case-insensitive (ILIKE) and match
//   `%`, `_` and `\` literally; a non-text column is compared as text.
// - IN / NOT IN take a list of values (or an array `$param`).
// - `custom` is the schema author's SQL (trusted), with `#global` / `$param` mentions replaced.

import type { Column, WhereCondition } from "../schema/types.ts";
import { classifyValue, type ValueForm } from "../schema/values.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { pgType } from "../tables/columnType.ts";
import { substituteMentions } from "./globals.ts";

export interface ConditionEnv {
  /** The column that `tableName.columnName` names (tableName as loaded: a table or an alias). */
  column(table: string, column: string): Column | undefined;
  /**
   * `#name` as SQL. `column` is the column it is compared with; undefined inside raw SQL and in
   * text patterns (LIKE), where the expression must be text or of the global's inferred type.
   */
  global(name: string, column: Column | undefined, inRawSql: boolean): Sql;
  /** `$name` as SQL; absent where there are no request parameters (policies). */
  param?(name: string, column: Column | undefined): Sql;
  /** `$name` holding a JSON array, as an SQL array of the column's type (IN / NOT IN). */
  paramArray?(name: string, column: Column | undefined): Sql;
  /** Raw SQL (`custom`) with its mentions replaced; default: `#global` / `$param` via the above. */
  custom?(sql: string): Sql;
}

type Operator = NonNullable<WhereCondition["operator"]>;

const COMPARISON: Partial<Record<Operator, Sql>> = {
  "=": sql`=`,
  "!=": sql`<>`,
  "<": sql`<`,
  ">": sql`>`,
  "<=": sql`<=`,
  ">=": sql`>=`,
};

const IS_WORDS = { true: sql`TRUE`, false: sql`FALSE` };

const PATTERN: Partial<Record<Operator, { not: boolean; prefix: string; suffix: string }>> = {
  LIKE: { not: false, prefix: "%", suffix: "%" },
  "NOT LIKE": { not: true, prefix: "%", suffix: "%" },
  "STARTS WITH": { not: false, prefix: "", suffix: "%" },
  "ENDS WITH": { not: false, prefix: "%", suffix: "" },
};

/**
 * The whole list as one parenthesized expression, safe to combine with AND (`true` when empty):
 * `(a)`, `((a) AND (b) OR (c))`.
 */
export function compileConditions(list: readonly WhereCondition[], env: ConditionEnv): Sql {
  if (list.length === 0) return sql`true`;
  const groups = orOfAnds(list).map((g) =>
    join(
      g.map((c) => sql`(${compileCondition(c, env)})`),
      " AND ",
    ),
  );
  return list.length === 1 ? (groups[0] as Sql) : sql`(${join(groups, " OR ")})`;
}

/** The list split at its ORs (AND binds tighter than OR): an OR of AND groups. */
export function orOfAnds(list: readonly WhereCondition[]): WhereCondition[][] {
  const groups: WhereCondition[][] = [];
  list.forEach((c, i) => {
    const current = groups[groups.length - 1];
    if (i === 0 || c.conjunction === "OR" || !current) groups.push([c]);
    else current.push(c);
  });
  return groups;
}

export function compileCondition(c: WhereCondition, env: ConditionEnv): Sql {
  if (c.custom !== undefined) {
    if (env.custom) return env.custom(c.custom);
    return substituteMentions(c.custom, (kind, name) =>
      kind === "global" ? env.global(name, undefined, true) : paramOf(env, name, undefined),
    );
  }
  const { tableName, columnName, operator, value } = c;
  if (tableName === undefined || columnName === undefined || operator === undefined || value === undefined) {
    throw new Error("a where condition needs tableName, columnName, operator and value (or custom)");
  }
  const column = env.column(tableName, columnName);
  const left = ident(tableName, columnName);

  if (operator === "IS" || operator === "IS NOT") {
    const form = Array.isArray(value) ? undefined : classifyValue(value);
    const word =
      form?.kind === "null" ? sql`NULL` : form?.kind === "boolean" ? IS_WORDS[`${form.value}`] : null;
    if (!word) throw new Error(`${operator} needs NULL, TRUE or FALSE, got ${JSON.stringify(value)}`);
    return operator === "IS" ? sql`${left} IS ${word}` : sql`${left} IS NOT ${word}`;
  }

  if (operator === "IN" || operator === "NOT IN") {
    if (Array.isArray(value)) {
      const items = value.map((v) => valueSql(classifyValue(v), column, env, operator));
      return operator === "IN" ? sql`${left} IN (${join(items)})` : sql`${left} NOT IN (${join(items)})`;
    }
    const form = classifyValue(value);
    if (form.kind !== "param") {
      throw new Error(`${operator} needs a list or an array $param, got ${JSON.stringify(value)}`);
    }
    if (!env.paramArray) throw new Error(`request parameters like $${form.name} cannot be used here`);
    const array = env.paramArray(form.name, column);
    return operator === "IN" ? sql`${left} = ANY (${array})` : sql`${left} <> ALL (${array})`;
  }

  if (Array.isArray(value)) throw new Error(`${operator} does not take a list`);
  const form = classifyValue(value);

  const pattern = PATTERN[operator];
  if (pattern) {
    const text = column && isText(column) ? left : sql`${left}::text`;
    const like = pattern.not ? sql`NOT ILIKE` : sql`ILIKE`;
    return sql`${text} ${like} ${patternOf(form, pattern.prefix, pattern.suffix, env)}`;
  }

  const op = COMPARISON[operator];
  if (op === undefined) throw new Error(`unknown operator ${operator}`);
  return sql`${left} ${op} ${valueSql(form, column, env, operator)}`;
}

function isText(column: Column): boolean {
  const name = pgType(column).name;
  return name === "text" || name === "varchar" || name === "char";
}

function paramOf(env: ConditionEnv, name: string, column: Column | undefined): Sql {
  if (!env.param) throw new Error(`request parameters like $${name} cannot be used here`);
  return env.param(name, column);
}

function valueSql(form: ValueForm, column: Column | undefined, env: ConditionEnv, operator: Operator): Sql {
  switch (form.kind) {
    case "global":
      return env.global(form.name, column, false);
    case "param":
      return paramOf(env, form.name, column);
    case "column":
      return ident(form.table, form.column);
    default:
      return scalarLiteral(form, operator);
  }
}

function scalarLiteral(form: ValueForm, operator: Operator): Sql {
  switch (form.kind) {
    case "text":
      return literal(form.text);
    case "number":
    case "boolean":
      return literal(form.value);
    case "bare":
      return literal(form.word);
    case "null":
      return sql`NULL`;
    default:
      throw new Error(`${operator} cannot compare with a ${form.kind} value`);
  }
}

/** The ILIKE pattern: literal text is escaped here; other values through api.like_literal(). */
function patternOf(form: ValueForm, prefix: string, suffix: string, env: ConditionEnv): Sql {
  const constant =
    form.kind === "text"
      ? form.text
      : form.kind === "bare"
        ? form.word
        : form.kind === "number" || form.kind === "boolean"
          ? String(form.value)
          : undefined;
  if (constant !== undefined) return literal(`${prefix}${escapeLike(constant)}${suffix}`);
  if (form.kind === "null") return sql`NULL`;
  let value: Sql;
  if (form.kind === "global") value = env.global(form.name, undefined, false);
  else if (form.kind === "param") value = paramOf(env, form.name, undefined);
  else if (form.kind === "column") value = sql`${ident(form.table, form.column)}::text`;
  else throw new Error(`a pattern cannot be made of a ${form.kind} value`);
  let pattern = sql`api.like_literal(${value})`;
  if (prefix) pattern = sql`${literal(prefix)} || ${pattern}`;
  if (suffix) pattern = sql`${pattern} || ${literal(suffix)}`;
  return pattern;
}

/** `\`, `%` and `_` escaped with `\`, LIKE's default escape character (as api.like_literal). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
