// The texts of refusals and preconditions: what went wrong, in the schema's names, and what to do.

import type { TypeChange } from "./columnType.ts";

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const col = (table: string, column: string) => `${q(table)}.${q(column)}`;
const values = (list: readonly string[]) => list.map((v) => `'${v.replaceAll("'", "''")}'`).join(", ");

/** How to confirm a destructive change. `app` names the application directory in the make command. */
export function confirmHint(app: string | undefined): string {
  return `re-run with ALLOW_DATA_LOSS=1 (make migrate APP=${app ?? "<app>"} ALLOW_DATA_LOSS=1) to confirm`;
}

export const messages = {
  dropTable: (table: string, app?: string) =>
    `dropping table ${q(table)} loses its data: ${confirmHint(app)}, or add renamedFrom if it was renamed`,
  dropColumn: (table: string, column: string, app?: string) =>
    `dropping column ${col(table, column)} loses its data: ${confirmHint(app)}, or add renamedFrom if it was renamed`,
  changeType: (table: string, column: string, from: string, to: string, change: TypeChange, app?: string) =>
    change === "incompatible"
      ? `changing column ${col(table, column)} from ${from} to ${to} may fail or change its values (there is no safe conversion): ${confirmHint(app)}, or add a new column and copy the data yourself`
      : `narrowing column ${col(table, column)} from ${from} to ${to} may cut, round or reject values: ${confirmHint(app)}`,
  removeEnumValues: (table: string, column: string, removed: readonly string[], app?: string) =>
    `removing ${removed.length === 1 ? "value" : "values"} ${values(removed)} from ENUM column ${col(table, column)} rejects rows that hold ${removed.length === 1 ? "it" : "them"}: ${confirmHint(app)}`,
  restrictToEnum: (table: string, column: string, allowed: readonly string[], app?: string) =>
    `making column ${col(table, column)} an ENUM of ${values(allowed)} rejects rows that hold other values: ${confirmHint(app)}`,

  addNotNullColumn: (table: string, column: string) =>
    `cannot add NOT NULL column ${col(table, column)} without a default: the table has rows. Give it a default, make it nullable, or fill it in two steps`,
  setNotNull: (table: string, column: string) =>
    `cannot make column ${col(table, column)} NOT NULL: some rows hold NULL. Fill them in first (UPDATE ... WHERE ${q(column)} IS NULL), or give it a default and fill it in two steps`,
  enumRowsOutside: (table: string, column: string, allowed: readonly string[]) =>
    `cannot restrict ENUM column ${col(table, column)} to ${values(allowed)}: some rows hold other values. Update those rows first`,
  duplicateKey: (table: string, columns: readonly string[], kind: "primary key" | "unique constraint") =>
    `cannot add ${kind} on ${q(table)} (${columns.map(q).join(", ")}): some rows share the same values. Remove the duplicates first`,
};
