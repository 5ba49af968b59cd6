// The schema's constraints by table and name, so a constraint violation raised by a write can be
// answered with the field it concerns: built once from the schema through the table generator's
// model (the same names the DDL uses), never from Postgres's message text. The gateway's error
// mapper reads it (gateway/constraints.ts names the request's fields instead of columns).

import type { Schema } from "../schema/types.ts";
import { buildTableModel } from "../tables/model.ts";
import { primaryKeyName } from "../tables/names.ts";

export type ConstraintKind = "unique" | "foreignKey" | "check";

export interface ConstraintInfo {
  table: string;
  name: string;
  kind: ConstraintKind;
  /** The columns concerned (a check: the table's columns its SQL names; may be empty). */
  columns: string[];
  /** Foreign keys: the referenced table. */
  refTable?: string;
}

export interface ConstraintIndex {
  /** By table and constraint (or unique index) name. */
  find(table: string, name: string): ConstraintInfo | undefined;
  /** Whether the schema's table has that column. */
  hasColumn(table: string, column: string): boolean;
}

const key = (table: string, name: string) => `${table}\u0000${name}`;

/** Quoted identifiers (`"dueDate"`) in a check's SQL, and bare words, that are columns of the table. */
function checkColumns(check: string, columns: readonly string[]): string[] {
  const named = new Set<string>();
  for (const m of check.matchAll(/"((?:[^"]|"")+)"|\b([A-Za-z_]\w*)\b/g)) {
    const name = m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] as string);
    if (columns.includes(name)) named.add(name);
  }
  return columns.filter((c) => named.has(c));
}

export function constraintIndex(schema: Schema): ConstraintIndex {
  const byKey = new Map<string, ConstraintInfo>();
  const columns = new Map<string, Set<string>>();
  const add = (info: ConstraintInfo) => byKey.set(key(info.table, info.name), info);
  for (const table of schema.database) {
    const names = table.columns.map((c) => c.name);
    columns.set(table.name, new Set(names));
    const model = buildTableModel(table);
    for (const c of model.constraints) {
      if (c.kind === "primaryKey" || c.kind === "unique") {
        add({ table: table.name, name: c.name, kind: "unique", columns: c.columns });
      } else if (c.kind === "enumCheck") {
        add({ table: table.name, name: c.name, kind: "check", columns: c.columns });
      }
    }
    for (const check of table.checkConstraints) {
      add({ table: table.name, name: check.name, kind: "check", columns: checkColumns(check.check, names) });
    }
    for (const index of table.indexes) {
      if (!index.isUnique) continue;
      const name = index.isPrimaryKey ? primaryKeyName(table.name) : index.name;
      const cols = index.columns.flatMap((c) => (c.column === undefined ? [] : [c.column]));
      add({ table: table.name, name, kind: "unique", columns: cols });
    }
    for (const fk of table.foreignKeys) {
      add({
        table: table.name,
        name: fk.name,
        kind: "foreignKey",
        columns: fk.columns,
        refTable: fk.refTable,
      });
    }
  }
  return {
    find: (table, name) => byKey.get(key(table, name)),
    hasColumn: (table, column) => columns.get(table)?.has(column) === true,
  };
}
