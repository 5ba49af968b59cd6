// Tables and columns: names, column types and their parameters (length, ENUM and DECIMAL
// values), auto-increment, renames, notify and row policies.

import { type Context, checkColumn, type TableInfo } from "./context.ts";
import { enumMessage, invalidName, isTooLong, tooLong } from "./messages.ts";
import { at } from "./paths.ts";
import { arr, obj } from "./read.ts";
import { Scope } from "./scope.ts";
import { COLUMN_TYPES, type Column, type ColumnType } from "./types.ts";
import { IDENTIFIER, parseDecimal, parseEnumValues } from "./values.ts";
import { checkConditions } from "./where.ts";

export const INTEGER_TYPES: readonly ColumnType[] = [
  "BIGSERIAL",
  "SERIAL",
  "SMALLSERIAL",
  "BIGINT",
  "INTEGER",
  "INT",
  "MEDIUMINT",
  "SMALLINT",
  "TINYINT",
];
const SERIAL_TYPES: readonly ColumnType[] = ["BIGSERIAL", "SERIAL", "SMALLSERIAL"];
/** Postgres's limit for varchar(n) / char(n). */
export const MAX_LENGTH = 10485760;

export function isColumnType(type: string): type is ColumnType {
  return (COLUMN_TYPES as readonly string[]).includes(type);
}

export function checkTables(ctx: Context): void {
  const { diag } = ctx;
  const names = new Map<string, string>();
  const renames = new Map<string, string>();
  ctx.schema.database.forEach((t, ti) => {
    const tp = `database[${ti}]`;
    checkName(ctx, "table", t.name, at(tp, "name"));
    const first = names.get(t.name);
    if (first !== undefined)
      diag.error(at(tp, "name"), `duplicate table name "${t.name}" (also at ${first})`);
    else names.set(t.name, tp);
    if (t.renamedFrom !== undefined) {
      const rp = at(tp, "renamedFrom");
      const earlier = renames.get(t.renamedFrom);
      if (t.renamedFrom === t.name) diag.error(rp, "renamedFrom must differ from the table's name");
      else if (ctx.tables.has(t.renamedFrom))
        diag.error(rp, `renamedFrom "${t.renamedFrom}" is the name of another table`);
      else if (earlier !== undefined)
        diag.error(rp, `renamedFrom "${t.renamedFrom}" is also used by ${earlier}`);
      else renames.set(t.renamedFrom, tp);
    }
    const rawColumns = arr(obj(arr(obj(ctx.raw).database)[ti]).columns);
    const columnNames = new Map<string, string>();
    const columnRenames = new Map<string, string>();
    t.columns.forEach((c, ci) => {
      const cp = at(at(tp, "columns"), ci);
      checkName(ctx, "column", c.name, at(cp, "name"));
      if (columnNames.has(c.name))
        diag.error(at(cp, "name"), `duplicate column name "${c.name}" in table "${t.name}"`);
      else columnNames.set(c.name, cp);
      checkColumnType(ctx, c, cp, obj(rawColumns[ci]).type);
      if (c.renamedFrom !== undefined) {
        const rp = at(cp, "renamedFrom");
        const earlier = columnRenames.get(c.renamedFrom);
        if (c.renamedFrom === c.name) diag.error(rp, "renamedFrom must differ from the column's name");
        else if (t.columns.some((o) => o.name === c.renamedFrom)) {
          diag.error(rp, `renamedFrom "${c.renamedFrom}" is the name of another column of table "${t.name}"`);
        } else if (earlier !== undefined)
          diag.error(rp, `renamedFrom "${c.renamedFrom}" is also used by ${earlier}`);
        else columnRenames.set(c.renamedFrom, cp);
      }
    });
    checkNotify(ctx, ti);
    checkPolicies(ctx, ti);
  });
}

/** Table, column and alias names must be identifiers within Postgres's length limit. */
export function checkName(ctx: Context, kind: string, name: string, path: string): void {
  if (name === "") return;
  if (!IDENTIFIER.test(name)) ctx.diag.error(path, invalidName(kind, name));
  else if (isTooLong(name)) ctx.diag.error(path, tooLong(name));
}

function checkColumnType(ctx: Context, c: Column, cp: string, rawType: unknown): void {
  const { diag } = ctx;
  if (!isColumnType(c.type)) {
    if (c.type !== "") diag.error(at(cp, "type"), enumMessage(rawType, COLUMN_TYPES));
    return;
  }
  if (c.type === "VARCHAR" || c.type === "CHAR") {
    if (c.length === undefined) diag.error(at(cp, "length"), `${c.type} columns need a length`);
    else if (c.length < 1 || c.length > MAX_LENGTH) {
      diag.error(at(cp, "length"), `expected a length from 1 to ${MAX_LENGTH}, got ${c.length}`);
    }
  } else if (c.length !== undefined) {
    diag.warn(at(cp, "length"), `length is ignored for ${c.type} columns`);
  }
  if (c.type === "ENUM") checkEnumValue(ctx, c, at(cp, "value"));
  else if (c.type === "DECIMAL" || c.type === "NUMERIC") {
    if (c.value !== undefined) checkDecimalValue(ctx, c.value, at(cp, "value"));
  } else if (c.value !== undefined) {
    diag.warn(at(cp, "value"), `value is ignored for ${c.type} columns`);
  }
  if (c.hasAutoIncrement === true && !INTEGER_TYPES.includes(c.type)) {
    diag.error(at(cp, "hasAutoIncrement"), `hasAutoIncrement needs an integer column type, got ${c.type}`);
  }
  const autoIncrement =
    SERIAL_TYPES.includes(c.type) || (c.hasAutoIncrement === true && INTEGER_TYPES.includes(c.type));
  if (autoIncrement && c.default !== undefined) {
    diag.error(at(cp, "default"), "an auto-increment column cannot have a default");
  }
}

function checkEnumValue(ctx: Context, c: Column, path: string): void {
  if (c.value === undefined) {
    ctx.diag.error(path, "ENUM columns need a value listing the allowed values, like 'a','b'");
    return;
  }
  const values = parseEnumValues(c.value);
  if (!values) {
    ctx.diag.error(
      path,
      `expected a list of single-quoted values like 'a','b', got ${JSON.stringify(c.value)}`,
    );
    return;
  }
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) ctx.diag.error(path, `duplicate ENUM value '${v.replace(/'/g, "''")}'`);
    seen.add(v);
  }
}

function checkDecimalValue(ctx: Context, value: string, path: string): void {
  const parsed = parseDecimal(value);
  if (!parsed) {
    ctx.diag.error(
      path,
      `expected a precision and scale like "10,2" (or a precision like "10"), got "${value}"`,
    );
  } else if (parsed.precision < 1 || parsed.precision > 1000) {
    ctx.diag.error(path, `precision must be from 1 to 1000, got ${parsed.precision}`);
  } else if (parsed.scale > parsed.precision) {
    ctx.diag.error(path, `scale must be from 0 to the precision ${parsed.precision}, got ${parsed.scale}`);
  }
}

function checkNotify(ctx: Context, ti: number): void {
  const info = ctx.infos[ti] as TableInfo;
  const t = info.table;
  const np = at(info.path, "notify");
  const raw = obj(arr(obj(ctx.raw).database)[ti]).notify;
  if (typeof raw === "string" && raw !== "ALL") {
    ctx.diag.error(np, `expected "ALL" or a list of column names, got "${raw}"`);
  }
  if (!Array.isArray(t.notify)) return;
  if (t.notify.length === 0)
    ctx.diag.error(np, `expected "ALL" or a non-empty list of column names, got an empty list`);
  const seen = new Set<string>();
  t.notify.forEach((name, i) => {
    if (seen.has(name)) ctx.diag.error(at(np, i), `column "${name}" is listed more than once`);
    seen.add(name);
    checkColumn(ctx, info, name, at(np, i));
  });
}

function checkPolicies(ctx: Context, ti: number): void {
  const info = ctx.infos[ti] as TableInfo;
  const t = info.table;
  const tp = info.path;
  const names = new Set<string>();
  t.policies.forEach((policy, pi) => {
    const pp = at(at(tp, "policies"), pi);
    if (names.has(policy.name))
      ctx.diag.error(at(pp, "name"), `duplicate policy name "${policy.name}" in table "${t.name}"`);
    names.add(policy.name);
    if (isTooLong(policy.name)) ctx.diag.error(at(pp, "name"), tooLong(policy.name));
    const scope = new Scope();
    scope.add({ name: t.name, info, tableName: t.name, isJoin: false });
    checkConditions(
      { ctx, scope, params: undefined, policyTable: t.name },
      policy.where,
      at(pp, "where"),
      t.name,
    );
  });
}
