// What realtime needs to know of a table with `notify`: the columns an event carries, the key,
// and which columns an update must change to be recorded.

import { readableColumns } from "../schema/privateColumns.ts";
import type { Column, Schema, Table } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";

export interface NotifyTable {
  table: Table;
  /** Readable columns (all but private): the row image stored in the outbox. */
  stored: Column[];
  /** The columns events carry: `notify` ("ALL": every readable column). */
  notify: Column[];
  /** Primary key columns: an event's `key`, and how an update's old and new rows are paired. */
  key: Column[];
  /**
   * An update is recorded when one of these changes: the notify columns (what subscribers see)
   * and the columns the row policies read (an update can move a row into or out of a
   * subscriber's view without changing what it sees). Whether a given subscriber gets an event
   * is decided on delivery.
   */
  compared: Column[];
  /** The columns the row policies read; "all" when a policy has raw SQL (it may read any). */
  policyColumns: Column[] | "all";
}

export function notifyTables(schema: Schema): NotifyTable[] {
  return schema.database.filter((t) => t.notify !== undefined).map(notifyTable);
}

export function notifyTable(table: Table): NotifyTable {
  const stored = readableColumns(table);
  const listed = table.notify === "ALL" ? undefined : new Set(table.notify ?? []);
  const notify = listed ? stored.filter((c) => listed.has(c.name)) : stored;
  const key = stored.filter((c) => c.isPrimary === true);
  const policyColumns = policyColumnNames(table);
  const compared = stored.filter(
    (c) => policyColumns === "all" || policyColumns.has(c.name) || notify.includes(c),
  );
  return {
    table,
    stored,
    notify,
    key,
    compared,
    policyColumns: policyColumns === "all" ? "all" : stored.filter((c) => policyColumns.has(c.name)),
  };
}

/** The table's columns its policies read; "all" when a policy has raw SQL (it may read any). */
function policyColumnNames(table: Table): Set<string> | "all" {
  const names = new Set<string>();
  for (const policy of table.policies) {
    for (const c of policy.where) {
      if (c.custom !== undefined) return "all";
      if (c.tableName === table.name && c.columnName !== undefined) names.add(c.columnName);
      const values = Array.isArray(c.value) ? c.value : [c.value];
      for (const v of values) {
        if (typeof v !== "string") continue;
        const form = classifyValue(v);
        if (form.kind === "column" && form.table === table.name) names.add(form.column);
      }
    }
  }
  return names;
}
