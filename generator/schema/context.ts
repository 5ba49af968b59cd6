// Shared state of the reference checks: the normalised schema, lookup tables built once, and the
// helpers that word the most common messages the same way everywhere.

import type { Diagnostics } from "./diagnostics.ts";
import { isWithin } from "./paths.ts";
import { didYouMean } from "./suggest.ts";
import type { Column, Schema, Table } from "./types.ts";

export interface TableInfo {
  table: Table;
  path: string;
  columns: Map<string, Column>;
  /** Some column has no usable name, or the table's name is taken twice: "no such column" would be noise. */
  incomplete: boolean;
}

export interface Context {
  schema: Schema;
  /** The raw input, for the few checks that must know which spelling the author used. */
  raw: unknown;
  diag: Diagnostics;
  /** First table of each name. */
  tables: Map<string, TableInfo>;
  /** Every table, in file order (duplicates included). */
  infos: TableInfo[];
  /** Some table has no usable name (already reported): "no such table" would only be noise. */
  tablesIncomplete: boolean;
  /** Declared globalParams plus the always-available `role` and `scopes`. */
  globals: Set<string>;
  /** Type names declared in customTypes. */
  customTypes: Set<string>;
  /** Paths the structure check rejected. */
  rejected: string[];
  /**
   * Our own `api.schema.json`: findings that make a route unusable (undeclared route roles and
   * scopes, drifted routes) are errors. Restura files load unchanged, so there they are warnings.
   */
  strict: boolean;
}

export const ALWAYS_GLOBALS = ["role", "scopes"] as const;

export function createContext(
  schema: Schema,
  raw: unknown,
  diag: Diagnostics,
  customTypes: Set<string>,
  rejected: string[],
  strict = false,
): Context {
  const tables = new Map<string, TableInfo>();
  const infos = schema.database.map((table, i): TableInfo => {
    const columns = new Map<string, Column>();
    for (const column of table.columns) if (!columns.has(column.name)) columns.set(column.name, column);
    const incomplete = table.columns.length === 0 || table.columns.some((c) => c.name === "");
    const info = { table, path: `database[${i}]`, columns, incomplete };
    const first = tables.get(table.name);
    // With two tables of one name, which one a reference means is unknown: check no columns.
    if (first) first.incomplete = true;
    else tables.set(table.name, info);
    return info;
  });
  const tablesIncomplete =
    schema.database.some((t) => t.name === "") || rejectedNames(rejected, "database", "name");
  const globals = new Set([...ALWAYS_GLOBALS, ...schema.globalParams]);
  return { schema, raw, diag, tables, infos, tablesIncomplete, globals, customTypes, rejected, strict };
}

/**
 * True when the structure check rejected a list, one of its items, or an item's `key`: then the
 * names the list declares are not all known, and "not declared" findings would be noise.
 */
export function rejectedNames(rejected: readonly string[], list: string, key: string): boolean {
  return rejected.some((p) => {
    if (p === list) return true;
    const rest = p.startsWith(`${list}[`) ? p.slice(list.length) : undefined;
    return rest !== undefined && new RegExp(`^\\[\\d+\\](\\.${key})?$`).test(rest);
  });
}

/** True when the structure check rejected something at or inside `path`. */
export function rejectedWithin(ctx: Context, path: string): boolean {
  return ctx.rejected.some((p) => isWithin(p, path));
}

/** The table of that name, or an error `table "x" does not exist` at `path`. */
export function lookupTable(ctx: Context, name: string, path: string): TableInfo | undefined {
  const info = ctx.tables.get(name);
  if (!info && name !== "" && !ctx.tablesIncomplete) {
    ctx.diag.error(path, `table "${name}" does not exist${didYouMean(name, ctx.tables.keys())}`);
  }
  return info;
}

/** Checks that the column exists (`table "user" has no column "emial" (did you mean "email"?)`). */
export function checkColumn(
  ctx: Context,
  info: TableInfo | undefined,
  column: string,
  path: string,
): Column | undefined {
  if (!info) return undefined;
  const found = info.columns.get(column);
  if (!found && column !== "" && !info.incomplete) {
    ctx.diag.error(
      path,
      `table "${info.table.name}" has no column "${column}"${didYouMean(column, info.columns.keys())}`,
    );
  }
  return found;
}

/** Checks a `#global` mention (silent when the globalParams list itself is broken). */
export function checkGlobal(ctx: Context, name: string, path: string): void {
  if (ctx.globals.has(name) || rejectedWithin(ctx, "globalParams")) return;
  const hint = didYouMean(name, ctx.globals, "#");
  ctx.diag.error(path, `global parameter "#${name}" is not declared in globalParams${hint}`);
}

/** A finding that breaks a route: an error in `api.schema.json`, a warning in a Restura file. */
export function routeProblem(ctx: Context, path: string, message: string): void {
  if (ctx.strict) ctx.diag.error(path, message);
  else ctx.diag.warn(path, message);
}
