// What a standard route lets callers filter and sort on (PAGED's `filter` and `sortBy`,
// docs/query-language.md), by every name a client may write, and which column rule hides each
// name. Stated once here: the route function's emitter adds each name's SQL to it (the map
// `api.filter_sql` reads, generator/routes/filter.ts), and the gateway reads it to refuse a bad
// column with the reason before any SQL (gateway/filter/columnRules.ts).
//
// Names: every response property; for a property that is a plain column, also `alias.column`
// (and `table.column` when that table is joined once under another name). A later property
// wins a name an earlier one took; a subquery property removes it. `unavailable` names what a
// client might try that is not a name here, and why.

import { simpleSelector } from "../schema/queries.ts";
import type { StandardRoute } from "../schema/types.ts";
import { pgType } from "../tables/columnType.ts";
import type { Access, ModelColumn, ModelTable } from "./types.ts";

export interface FilterColumn {
  /** A plain column (as `source`.`column.name`), or undefined for a raw SQL property. */
  readonly column: ModelColumn | undefined;
  /** The alias the query reads the column under (the base table's name, or a join's alias). */
  readonly source: string | undefined;
  /** The property whose expression this is. */
  readonly property: string;
  readonly filter: boolean;
  readonly sort: boolean;
  /** A JSON column: `name.key` filters on a key inside it. */
  readonly json: boolean;
  /** The column rule that hides this name; undefined when everyone who may call the route sees it. */
  readonly access: Access | undefined;
}

/** Why a name that is not an entry cannot be used. */
export type Unavailable = "subquery" | "notInResponse";

export interface FilterColumns {
  readonly entries: ReadonlyMap<string, FilterColumn>;
  /** Names a client might try that are no entry: subquery properties, columns no property shows. */
  readonly unavailable: ReadonlyMap<string, Unavailable>;
}

export function routeFilterColumns(route: StandardRoute, table: (name: string) => ModelTable): FilterColumns {
  const base = table(route.table);
  const sources = new Map<string, ModelTable>([[base.name, base]]);
  for (const j of route.joins) sources.set(j.alias, table(j.table));
  const joinedOnce = (tableName: string) =>
    !sources.has(tableName) && [...sources.values()].filter((t) => t.name === tableName).length === 1;
  const group = route.groupBy;
  const entries = new Map<string, FilterColumn>();
  const columnEntry = (
    property: string,
    source: string,
    column: ModelColumn,
    sort: boolean,
  ): FilterColumn => ({
    column,
    source,
    property,
    filter: true,
    sort,
    json: pgType(column.column).name === "jsonb",
    access: column.access,
  });

  const properties = route.response.map((p) => {
    const simple = p.selector === undefined ? undefined : simpleSelector(p.selector);
    const source = simple ? sources.get(simple.name) : undefined;
    const column = simple ? source?.column(simple.column) : undefined;
    return { p, source: simple?.name, column };
  });
  // First the qualified names of every plain column, so a property of the same name wins below.
  for (const { p, source, column } of properties) {
    if (!column || source === undefined) continue;
    const grouped = !group || (group.tableName === source && group.columnName === column.name);
    const entry = columnEntry(p.name, source, column, grouped);
    entries.set(`${source}.${column.name}`, entry);
    const tableName = sources.get(source)?.name as string;
    if (joinedOnce(tableName)) entries.set(`${tableName}.${column.name}`, entry);
  }
  for (const { p, source, column } of properties) {
    if (p.subquery) entries.delete(p.name);
    else if (column && source !== undefined) entries.set(p.name, columnEntry(p.name, source, column, true));
    else {
      const raw = { column: undefined, source: undefined, property: p.name, json: false, access: undefined };
      entries.set(p.name, { ...raw, filter: false, sort: true });
    }
  }

  const unavailable = new Map<string, Unavailable>();
  const add = (name: string, why: Unavailable) => {
    if (!entries.has(name)) unavailable.set(name, why);
  };
  for (const [alias, t] of sources) {
    for (const column of t.table.columns) {
      add(`${alias}.${column.name}`, "notInResponse");
      if (joinedOnce(t.name)) add(`${t.name}.${column.name}`, "notInResponse");
      add(column.name, "notInResponse");
    }
  }
  for (const p of route.response) if (p.subquery) add(p.name, "subquery");
  return { entries, unavailable };
}
