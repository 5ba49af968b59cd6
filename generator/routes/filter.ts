// PAGED routes: the compile-time map of what a client may filter and sort by, passed to
// `api.filter_sql` (helpers.ts) and used for `sortBy`. Only what the route shows is reachable
// (docs/query-language.md, "Which columns can be filtered and sorted"): a column that is in no
// response property cannot be probed through filters (think `user.password`,
// `(password,sw,$2b$10$a)`, one character at a time).
// Keys:
// - each response property whose selector is a column (filter and sort), by the property's name and
//   as `alias.column` (also `table.column` when that table is joined once and the name is free);
// - each raw-SQL property by its name, for sorting only (raw selectors may aggregate, which WHERE
//   cannot hold);
// - JSON columns of those also accept `table.column.jsonKey` (filter only, compared as text).
// Subquery properties are neither. Columns with roles/scopes are listed with their rule; the
// function removes the keys the caller may not see before looking anything up, so a hidden column
// is exactly as unknown as a missing one to the SQL check.
// `unavailable` (never sent to SQL) names what a client might try that is not an entry and why,
// so the gateway can say so (docs/query-language.md): subquery properties, and the columns of the
// route's tables that no property shows.

import type { Column } from "../schema/types.ts";
import { type Access, accessKey } from "./permissions.ts";
import { type CompiledQuery, columnAccess } from "./select.ts";
import { type CastType, castType } from "./values.ts";

export interface Entry {
  sql: string;
  /** Null for raw SQL (not filterable). */
  type: CastType | null;
  filter: boolean;
  sort: boolean;
  json: boolean;
}

/** Why a name that is not an entry cannot be used. */
export type Unavailable = "subquery" | "notInResponse";

export interface ColumnMap {
  entries: Map<string, Entry>;
  /** Keys to remove for callers failing each column rule, by rule. */
  restricted: { access: Access; keys: string[] }[];
  /** Names that are no entry but a client might try: subquery properties, columns no property shows. */
  unavailable: Map<string, Unavailable>;
}

export function filterColumns(q: CompiledQuery): ColumnMap {
  const entries = new Map<string, Entry>();
  const rules = new Map<string, { access: Access; keys: string[] }>();
  const keyRules = new Map<string, string>();
  const set = (key: string, entry: Entry, column: Column | undefined) => {
    entries.set(key, entry);
    keyRules.delete(key);
    const access = column ? columnAccess(column) : undefined;
    if (!access) return;
    rules.set(accessKey(access), rules.get(accessKey(access)) ?? { access, keys: [] });
    keyRules.set(key, accessKey(access));
  };
  const sources = q.scope.sources;
  const joinedOnce = (tableName: string) =>
    !sources.some((s) => s.name === tableName) &&
    sources.filter((s) => s.table.name === tableName).length === 1;
  const grouped = q.groupBy?.toString();
  for (const p of q.properties) {
    if (p.kind !== "column") continue;
    if (!sources.includes(p.source)) continue; // a column of an enclosing query: none at the top
    const entry = columnEntry(
      p.expr.toString(),
      p.column,
      grouped === undefined || grouped === p.expr.toString(),
    );
    set(`${p.source.name}.${p.column.name}`, entry, p.column);
    if (joinedOnce(p.source.table.name)) set(`${p.source.table.name}.${p.column.name}`, entry, p.column);
  }
  for (const p of q.properties) {
    if (p.kind === "column") set(p.name, columnEntry(p.expr.toString(), p.column, true), p.column);
    else if (p.kind === "raw")
      set(p.name, { sql: p.expr.toString(), type: null, filter: false, sort: true, json: false }, undefined);
    else {
      entries.delete(p.name);
      keyRules.delete(p.name);
    }
  }
  for (const [key, rule] of keyRules) rules.get(rule)?.keys.push(key);
  return {
    entries,
    restricted: [...rules.values()].filter((r) => r.keys.length > 0),
    unavailable: unavailableNames(q, entries, joinedOnce),
  };
}

/**
 * Every column of the route's tables by each name a client could write (`column`, `alias.column`,
 * `table.column` when joined once) that is no entry, then the subquery properties' names.
 */
function unavailableNames(
  q: CompiledQuery,
  entries: ReadonlyMap<string, Entry>,
  joinedOnce: (tableName: string) => boolean,
): Map<string, Unavailable> {
  const out = new Map<string, Unavailable>();
  const add = (name: string, why: Unavailable) => {
    if (!entries.has(name)) out.set(name, why);
  };
  for (const source of q.scope.sources) {
    for (const column of source.table.columns) {
      add(`${source.name}.${column.name}`, "notInResponse");
      if (joinedOnce(source.table.name)) add(`${source.table.name}.${column.name}`, "notInResponse");
      add(column.name, "notInResponse");
    }
  }
  for (const p of q.properties) if (p.kind === "subquery") add(p.name, "subquery");
  return out;
}

function columnEntry(expr: string, column: Column, sort: boolean): Entry {
  const type = castType(column);
  return { sql: expr, type, filter: true, sort, json: type === "jsonb" };
}

/** The map as the JSON the function holds (key order as built: deterministic). */
export function columnMapJson(map: ColumnMap): string {
  return JSON.stringify(Object.fromEntries(map.entries));
}
