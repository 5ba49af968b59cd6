// The schema's constraints by table and name, so a constraint violation raised by a write can be
// answered with the field it concerns: built once from the schema through the table generator's
// model (the same names the DDL uses), never from Postgres's message text. Each write route then
// sees them through `routeConstraints`, which names the request's fields rather than columns.

import { writtenParams } from "../generator/routes/kinds/write.ts";
import type { Schema, StandardRoute, Table } from "../generator/schema/types.ts";
import { classifyValue } from "../generator/schema/values.ts";
import { buildTableModel } from "../generator/tables/model.ts";
import { primaryKeyName } from "../generator/tables/names.ts";

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

/**
 * The request field that sets each column on this route: a body parameter writes its own column,
 * an assignment `{name: "c", value: "$p"}` writes `c` from `p`. Columns set from the token or a
 * literal, and columns the route does not write, have none.
 */
function fieldsOf(route: StandardRoute, table: Table): Map<string, string> {
  const fields = new Map<string, string>();
  for (const p of writtenParams(route, table)) fields.set(p.column.name, p.name);
  for (const a of route.assignments) {
    const form = classifyValue(a.value);
    if (form.kind === "param") fields.set(a.name, form.name);
  }
  return fields;
}

/**
 * The constraints as one write route answers with them: a unique, foreign key or check violation
 * on the route's own table names the fields the client sent, not the columns behind them. A
 * composite key such as `(assigneeId, companyId) -> user (id, companyId)`, with `companyId`
 * assigned from the token, is reported as `assigneeId` alone: the client never saw `companyId`,
 * and naming it would suggest sending it; a column written from `$level` is reported as `level`.
 * When no column of the constraint came from the request (all assigned from the token, say), the
 * columns are named as they are: there is no field to point at.
 */
export function routeConstraints(
  index: ConstraintIndex,
  route: StandardRoute,
  table: Table,
): ConstraintIndex {
  // DELETE answers "still referenced by <other table> (<its columns>)": those are not fields.
  if (route.method === "DELETE") return index;
  const fields = fieldsOf(route, table);
  return {
    hasColumn: index.hasColumn,
    find(tableName, name) {
      const info = index.find(tableName, name);
      if (!info || tableName !== route.table) return info;
      const sent = info.columns.flatMap((c) => {
        const field = fields.get(c);
        return field === undefined ? [] : [field];
      });
      return sent.length > 0 ? { ...info, columns: [...new Set(sent)] } : info;
    },
  };
}
