// Tables and columns resolved once: the rules that several stages apply (readable columns, the
// primary key, notify columns, what row policies read) are decided here.

import { isRestricted } from "../routes/permissions.ts";
import { primaryKey, sqlMentions } from "../schema/index.ts";
import type { Column, Table, WhereCondition } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import { enumValues, pgType } from "../tables/columnType.ts";
import type { Access, ModelColumn, ModelTable } from "./types.ts";

const accessOf = (rule: { roles: readonly string[]; scopes: readonly string[] }): Access | undefined =>
  isRestricted(rule) ? { roles: rule.roles, scopes: rule.scopes } : undefined;

export function modelTable(table: Table): ModelTable {
  const keyNames = primaryKey(table);
  const columns = table.columns.map((c) => modelColumn(c, keyNames.includes(c.name)));
  const byName = new Map(columns.map((c) => [c.name, c]));
  const readable = columns.filter((c) => !c.private);
  const listed = Array.isArray(table.notify) ? new Set(table.notify) : undefined;
  const policyColumns = policyColumnNames(table);
  return {
    name: table.name,
    table,
    columns,
    readable,
    primaryKey: keyNames.map((name) => byName.get(name) as ModelColumn),
    access: accessOf(table),
    policies: table.policies,
    notify: table.notify === undefined ? undefined : readable.filter((c) => !listed || listed.has(c.name)),
    policyColumns: policyColumns === "all" ? "all" : readable.filter((c) => policyColumns.has(c.name)),
    policyGlobals: policyGlobals(table),
    column: (name) => byName.get(name),
  };
}

function modelColumn(column: Column, inKey: boolean): ModelColumn {
  return {
    name: column.name,
    column,
    nullable: column.isNullable,
    primaryKey: inKey,
    private: column.private === true,
    access: accessOf(column),
    pgType: pgType(column),
    enumValues: enumValues(column),
  };
}

/** The table's columns its policies read; "all" when a policy has raw SQL (it may read any). */
function policyColumnNames(table: Table): Set<string> | "all" {
  const names = new Set<string>();
  for (const policy of table.policies) {
    for (const c of policy.where) {
      if (c.custom !== undefined) return "all";
      if (c.tableName === table.name && c.columnName !== undefined) names.add(c.columnName);
      for (const v of values(c)) {
        const form = classifyValue(v);
        if (form.kind === "column" && form.table === table.name) names.add(form.column);
      }
    }
  }
  return names;
}

/** The globals the table's row policies mention (values and raw SQL); `role`/`scopes` are always sent. */
function policyGlobals(table: Table): string[] {
  const found = new Set<string>();
  for (const policy of table.policies) {
    for (const c of policy.where) {
      for (const v of values(c)) {
        const form = classifyValue(v);
        if (form.kind === "global") found.add(form.name);
      }
      if (c.custom !== undefined) for (const name of sqlMentions(c.custom).globals) found.add(name);
    }
  }
  found.delete("role");
  found.delete("scopes");
  return [...found].sort();
}

function values(c: WhereCondition): string[] {
  const all = Array.isArray(c.value) ? c.value : [c.value];
  return all.filter((v): v is string => typeof v === "string");
}
