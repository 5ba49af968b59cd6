// Matching the previous schema's tables and columns with the next one's, by name or through
// `renamedFrom`. A `renamedFrom` is followed only when the new name is absent from the previous
// schema and the old name is present: when the new name already exists the rename was applied
// by an earlier migration and is ignored; when neither exists the object is simply created.

import type { Table } from "../schema/types.ts";

interface Named {
  name: string;
  renamedFrom?: string;
}

export interface Match<T> {
  previous: T;
  next: T;
  /** Position in the next list (for diagnostics paths). */
  nextIndex: number;
  /** Set when this migration renames previous.name to next.name. */
  renamed: boolean;
}

export interface Matching<T> {
  matched: Match<T>[];
  added: { item: T; index: number }[];
  removed: T[];
}

export function matchByName<T extends Named>(previous: readonly T[], next: readonly T[]): Matching<T> {
  const previousByName = new Map<string, T>();
  for (const item of previous) if (!previousByName.has(item.name)) previousByName.set(item.name, item);
  const claimed = new Set<string>();
  const matchOf = new Map<number, Match<T>>();

  // Renames first: they claim their old name even if a new object reuses it.
  next.forEach((item, index) => {
    const from = item.renamedFrom;
    if (from === undefined || from === item.name || previousByName.has(item.name) || claimed.has(from))
      return;
    const old = previousByName.get(from);
    if (old === undefined) return;
    claimed.add(from);
    matchOf.set(index, { previous: old, next: item, nextIndex: index, renamed: true });
  });
  next.forEach((item, index) => {
    if (matchOf.has(index) || claimed.has(item.name)) return;
    const old = previousByName.get(item.name);
    if (old === undefined) return;
    claimed.add(item.name);
    matchOf.set(index, { previous: old, next: item, nextIndex: index, renamed: false });
  });

  const matched: Match<T>[] = [];
  const added: { item: T; index: number }[] = [];
  next.forEach((item, index) => {
    const match = matchOf.get(index);
    if (match) matched.push(match);
    else added.push({ item, index });
  });
  const removed = [...previousByName.values()].filter((item) => !claimed.has(item.name));
  return { matched, added, removed };
}

export interface TablePair extends Match<Table> {
  /** Old column name -> new column name, for the columns this migration renames. */
  columnRenames: Map<string, string>;
  /** New column name -> old column name (every previous column, renamed or not). */
  oldColumnNames: Map<string, string>;
  /** The previous table as it is after this migration's renames: compared with `next`. */
  renamedPrevious: Table;
}

export interface TableMatching {
  pairs: TablePair[];
  added: { item: Table; index: number }[];
  removed: Table[];
}

export function matchTables(previous: readonly Table[], next: readonly Table[]): TableMatching {
  const tables = matchByName(previous, next);
  const tableRenames = new Map<string, string>();
  const columnRenamesByOldTable = new Map<string, Map<string, string>>();
  const partial = tables.matched.map((match) => {
    if (match.renamed) tableRenames.set(match.previous.name, match.next.name);
    const columns = matchByName(match.previous.columns, match.next.columns);
    const columnRenames = new Map<string, string>();
    for (const c of columns.matched) if (c.renamed) columnRenames.set(c.previous.name, c.next.name);
    columnRenamesByOldTable.set(match.previous.name, columnRenames);
    return { match, columnRenames };
  });

  const pairs = partial.map(({ match, columnRenames }): TablePair => {
    const col = (name: string) => columnRenames.get(name) ?? name;
    const previous = match.previous;
    const renamedPrevious: Table = {
      ...previous,
      name: match.next.name,
      columns: previous.columns.map((c) => ({ ...c, name: col(c.name) })),
      indexes: previous.indexes.map((index) => ({
        ...index,
        columns: index.columns.map((c) => (c.column === undefined ? c : { ...c, column: col(c.column) })),
      })),
      foreignKeys: previous.foreignKeys.map((fk) => {
        const refRenames = columnRenamesByOldTable.get(fk.refTable);
        return {
          ...fk,
          columns: fk.columns.map(col),
          refTable: tableRenames.get(fk.refTable) ?? fk.refTable,
          refColumns: fk.refColumns.map((c) => refRenames?.get(c) ?? c),
        };
      }),
    };
    const oldColumnNames = new Map(previous.columns.map((c) => [col(c.name), c.name]));
    return { ...match, columnRenames, oldColumnNames, renamedPrevious };
  });
  return { pairs, added: tables.added, removed: tables.removed };
}
