// PAGED routes: the compile-time map of what a client may filter and sort by, passed to
// `api.filter_sql` (helpers.ts) and used for `sortBy`. Which names exist, which may be filtered or
// sorted, and which column rule hides each, is the model's (generator/model/filterColumns.ts,
// shared with the gateway's early checks); this adds each name's SQL expression. Only what the
// route shows is reachable (docs/query-language.md): a column in no response property cannot be
// probed through filters (think `user.password`, `(password,sw,$2b$10$a)`, one character at a
// time). Columns with roles/scopes are listed with their rule; the function removes the keys the
// caller may not see before looking anything up, so a hidden column is exactly as unknown as a
// missing one to the SQL check.

import type { FilterColumns } from "../model/filterColumns.ts";
import { ident } from "../sql/sql.ts";
import { type Access, accessKey } from "./permissions.ts";
import type { CompiledQuery } from "./select.ts";
import { type CastType, castType } from "./values.ts";

export interface Entry {
  sql: string;
  /** Null for raw SQL (not filterable). */
  type: CastType | null;
  filter: boolean;
  sort: boolean;
  json: boolean;
}

export interface ColumnMap {
  entries: Map<string, Entry>;
  /** Keys to remove for callers failing each column rule, by rule. */
  restricted: { access: Access; keys: string[] }[];
}

/** The model's names (generator/model/filterColumns.ts), each with its SQL in the compiled query. */
export function filterColumns(q: CompiledQuery, columns: FilterColumns): ColumnMap {
  const entries = new Map<string, Entry>();
  const restricted = new Map<string, { access: Access; keys: string[] }>();
  for (const [key, c] of columns.entries) {
    if (c.column && c.source !== undefined) {
      const type = castType(c.column.column);
      entries.set(key, { sql: ident(c.source, c.column.name).toString(), type, ...flags(c) });
    } else {
      const property = q.properties.find((p) => p.name === c.property);
      if (!property) throw new Error(`response property "${c.property}" was not compiled`);
      entries.set(key, { sql: property.expr.toString(), type: null, ...flags(c) });
    }
    if (!c.access) continue;
    const rule = restricted.get(accessKey(c.access)) ?? { access: c.access, keys: [] };
    rule.keys.push(key);
    restricted.set(accessKey(c.access), rule);
  }
  return { entries, restricted: [...restricted.values()] };
}

const flags = (c: { filter: boolean; sort: boolean; json: boolean }) => ({
  filter: c.filter,
  sort: c.sort,
  json: c.json,
});

/** The map as the JSON the function holds (key order as built: deterministic). */
export function columnMapJson(map: ColumnMap): string {
  return JSON.stringify(Object.fromEntries(map.entries));
}
