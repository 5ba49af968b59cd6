// What realtime needs to know of a table with `notify`: the columns an event carries, the key,
// and which columns an update must change to be recorded. Notify columns, the key and what the
// row policies read come from the model (generator/model), which the gateway's subscription
// checks read too.

import { buildModel, type ModelColumn, type ModelTable } from "../model/index.ts";
import type { Column, Schema, Table } from "../schema/types.ts";

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
  return buildModel(schema).notifyTables.map(notifyTable);
}

const columns = (list: readonly ModelColumn[]): Column[] => list.map((c) => c.column);

export function notifyTable(t: ModelTable): NotifyTable {
  const notify = t.notify ?? [];
  const policy = t.policyColumns;
  return {
    table: t.table,
    stored: columns(t.readable),
    notify: columns(notify),
    key: columns(t.primaryKey),
    compared: columns(t.readable.filter((c) => policy === "all" || policy.includes(c) || notify.includes(c))),
    policyColumns: policy === "all" ? "all" : columns(policy),
  };
}
