// The migration between two versions of the schema's tables. Pure: no database access.
//
// Statement order (each phase complete before the next, so every statement is valid whatever the
// order of the tables and whatever cycles their foreign keys form):
//   1. new extensions
//   2. renames: tables, then columns, then the constraints whose names derive from them
//      (every later statement uses the final names)
//   3. drop foreign keys that go away or change (and those that reference a key being rebuilt)
//   4. drop check/unique/primary-key constraints and indexes that go away or change
//   5. drop tables, 6. drop columns (both refused without allowDataLoss)
//   7. create tables (with their constraints, comments and indexes)
//   8. add columns, then change columns (identity, default, type, nullability)
//   9. add constraints and indexes, 10. add foreign keys, 11. comments
// A changed constraint, index or foreign key is dropped and created again.

import type { Table } from "../schema/types.ts";
import { ident, sql } from "../sql/sql.ts";
import { planColumns } from "./columnChanges.ts";
import {
  addForeignKeySql,
  alterTableSql,
  columnCommentSql,
  createDatabaseStatements,
  createExtensionSql,
  createTableStatements,
  tableCommentSql,
  uniqueExtensions,
} from "./ddl.ts";
import { messages } from "./messages.ts";
import { buildTableModel, type ConstraintModel, type ForeignKeyModel, type TableModel } from "./model.ts";
import { byName, TABLE_SCHEMA, tableRef } from "./names.ts";
import { type MigrationPlan, type PairModels, PlanBuilder, type PlanOptions, quoted } from "./plan.ts";
import { matchTables } from "./renames.ts";

export type { MigrationPlan, PlanOptions, Precondition } from "./plan.ts";

/**
 * Plans the migration from `previous` (null: a fresh database) to `next`. Only what Postgres
 * stores for tables counts: roles, scopes, notify and policies belong to the API layer, which is
 * rebuilt separately, and never produce a table migration. Reordering tables, columns, checks,
 * indexes or foreign keys changes nothing either (everything is compared by name).
 */
export function planMigration(
  previous: readonly Table[] | null,
  next: readonly Table[],
  options: PlanOptions,
): MigrationPlan {
  if (previous === null) {
    const statements = createDatabaseStatements(next, options.extensionsAfter ?? []);
    const changes = [...next].sort(byName).map((table) => `create table ${quoted(table.name)}`);
    return { statements, refusals: [], preconditions: [], changes, title: "initial" };
  }
  const plan = new PlanBuilder(options);
  new TablesDiff(plan).run(previous, next);
  return plan.result();
}

interface OwnedForeignKey {
  table: string;
  fk: ForeignKeyModel;
}

class TablesDiff {
  /** Tables whose primary key, unique constraint or unique index is dropped: FKs to them are rebuilt. */
  private readonly rebuiltKeys = new Set<string>();
  private readonly createdTables = new Set<string>();
  private readonly droppedTables = new Set<string>();

  constructor(private readonly plan: PlanBuilder) {}

  run(previous: readonly Table[], next: readonly Table[]): void {
    const { plan } = this;
    const before = new Set(plan.options.extensionsBefore ?? []);
    for (const name of uniqueExtensions(plan.options.extensionsAfter ?? [])) {
      if (before.has(name)) continue;
      plan.phases.extensions.push(createExtensionSql(name));
      plan.note(`create extension ${quoted(name)}`);
    }

    const matching = matchTables(previous, next);
    const pairs = [...matching.pairs]
      .sort((a, b) => byName(a.next, b.next))
      .map(
        (pair): PairModels => ({
          pair,
          before: buildTableModel(pair.renamedPrevious),
          after: buildTableModel(pair.next),
        }),
      );
    const added = [...matching.added].map(({ item }) => buildTableModel(item)).sort(byName);
    const removed = [...matching.removed].map(buildTableModel).sort(byName);

    for (const models of pairs) this.renames(models);
    for (const table of removed) this.dropTable(table);
    for (const models of pairs) {
      planColumns(plan, models);
      this.constraints(models);
      this.comments(models);
    }
    this.indexes(pairs);
    for (const table of added) {
      plan.phases.createTables.push(...createTableStatements(table));
      plan.note(`create table ${quoted(table.name)}`);
      this.createdTables.add(table.name);
    }
    this.foreignKeys(
      [...pairs.map(({ before }) => before), ...removed].flatMap(owned),
      [...pairs.map(({ after }) => after), ...added].flatMap(owned),
    );
  }

  private renames({ pair }: PairModels): void {
    const { phases } = this.plan;
    const table = pair.next.name;
    if (pair.renamed) {
      phases.renames.push(sql`ALTER TABLE ${tableRef(pair.previous.name)} RENAME TO ${ident(table)}`);
      this.plan.note(`rename table ${quoted(pair.previous.name)} to ${quoted(table)}`);
    }
    for (const [from, to] of pair.columnRenames) {
      phases.renames.push(alterTableSql(table, sql`RENAME COLUMN ${ident(from)} TO ${ident(to)}`));
      this.plan.note(`rename column ${quoted(table, from)} to ${quoted(to)}`);
    }
    // Postgres keeps constraint names on rename: give the derived ones their new names. Both
    // lists come from the same columns in the same order, so they pair up one to one.
    const old = buildTableModel(pair.previous).constraints.filter((c) => c.derived);
    const renamed = buildTableModel(pair.renamedPrevious).constraints.filter((c) => c.derived);
    old.forEach((constraint, i) => {
      const target = renamed[i];
      if (target && target.name !== constraint.name) {
        phases.renames.push(
          alterTableSql(table, sql`RENAME CONSTRAINT ${ident(constraint.name)} TO ${ident(target.name)}`),
        );
      }
    });
  }

  private dropTable(table: TableModel): void {
    this.plan.destructive("database", () => messages.dropTable(table.name, this.plan.options.app));
    this.plan.phases.dropTables.push(sql`DROP TABLE ${tableRef(table.name)}`);
    this.plan.note(`drop table ${quoted(table.name)}`);
    this.droppedTables.add(table.name);
  }

  private constraints({ before, after }: PairModels): void {
    const { phases } = this.plan;
    const table = after.name;
    const key = (c: ConstraintModel) => `${c.kind}:${c.definition.toString()}`;
    const previous = new Map(before.constraints.map((c) => [c.name, c]));
    const next = new Map(after.constraints.map((c) => [c.name, c]));
    for (const constraint of [...before.constraints].reverse()) {
      const replacement = next.get(constraint.name);
      if (replacement && key(replacement) === key(constraint)) continue;
      phases.dropConstraints.push(alterTableSql(table, sql`DROP CONSTRAINT ${ident(constraint.name)}`));
      this.plan.note(`${replacement ? "change" : "drop"} constraint ${quoted(table, constraint.name)}`);
      if (constraint.kind === "primaryKey" || constraint.kind === "unique") this.rebuiltKeys.add(table);
    }
    for (const constraint of after.constraints) {
      const old = previous.get(constraint.name);
      if (old && key(old) === key(constraint)) continue;
      phases.addConstraints.push(
        alterTableSql(table, sql`ADD CONSTRAINT ${ident(constraint.name)} ${constraint.definition}`),
      );
      if (!old) this.plan.note(`add constraint ${quoted(table, constraint.name)}`);
    }
  }

  /** Index names are unique per schema: compared across all tables that exist on both sides. */
  private indexes(pairs: readonly PairModels[]): void {
    const { phases } = this.plan;
    const entries = (side: "before" | "after") =>
      pairs.flatMap((models) => models[side].indexes.map((index) => ({ table: models.after.name, index })));
    type Entry = ReturnType<typeof entries>[number];
    const previous = entries("before");
    const next = entries("after");
    const previousByName = new Map(previous.map((e) => [e.index.name, e]));
    const nextByName = new Map(next.map((e) => [e.index.name, e]));
    const same = (a: Entry, b: Entry | undefined) =>
      b !== undefined && a.index.create.toString() === b.index.create.toString();
    for (const entry of previous) {
      if (same(entry, nextByName.get(entry.index.name))) continue;
      phases.dropConstraints.push(sql`DROP INDEX ${ident(TABLE_SCHEMA, entry.index.name)}`);
      this.plan.note(
        `${nextByName.has(entry.index.name) ? "change" : "drop"} index ${quoted(entry.index.name)}`,
      );
      if (entry.index.unique) this.rebuiltKeys.add(entry.table);
    }
    for (const entry of next) {
      if (same(entry, previousByName.get(entry.index.name))) continue;
      phases.addConstraints.push(entry.index.create);
      if (!previousByName.has(entry.index.name)) this.plan.note(`create index ${quoted(entry.index.name)}`);
    }
  }

  /** Foreign keys of every table, dropped first and added last: table order and cycles never matter. */
  private foreignKeys(previous: readonly OwnedForeignKey[], next: readonly OwnedForeignKey[]): void {
    const { phases } = this.plan;
    const key = (o: OwnedForeignKey) => JSON.stringify([o.table, o.fk.name]);
    const previousByKey = new Map(previous.map((o) => [key(o), o]));
    const nextByKey = new Map(next.map((o) => [key(o), o]));
    const sameDefinition = (a: OwnedForeignKey, b: OwnedForeignKey | undefined) =>
      b !== undefined && a.fk.definition.toString() === b.fk.definition.toString();
    const unchanged = (o: OwnedForeignKey, other: OwnedForeignKey | undefined) =>
      sameDefinition(o, other) && !this.rebuiltKeys.has(o.fk.refTable);
    const order = (a: OwnedForeignKey, b: OwnedForeignKey) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

    for (const o of [...previous].sort(order)) {
      const replacement = nextByKey.get(key(o));
      if (unchanged(o, replacement)) continue;
      phases.dropForeignKeys.push(alterTableSql(o.table, sql`DROP CONSTRAINT ${ident(o.fk.name)}`));
      if (replacement === undefined) {
        if (!this.droppedTables.has(o.table))
          this.plan.note(`drop foreign key ${quoted(o.table, o.fk.name)}`);
      } else if (!sameDefinition(o, replacement)) {
        this.plan.note(`change foreign key ${quoted(o.table, o.fk.name)}`);
      }
    }
    for (const o of [...next].sort(order)) {
      const old = previousByKey.get(key(o));
      if (unchanged(o, old)) continue;
      phases.addForeignKeys.push(addForeignKeySql(o.table, o.fk));
      if (old === undefined && !this.createdTables.has(o.table)) {
        this.plan.note(`add foreign key ${quoted(o.table, o.fk.name)}`);
      }
    }
  }

  private comments({ before, after }: PairModels): void {
    const { phases } = this.plan;
    const table = after.name;
    if ((before.table.comment || undefined) !== (after.table.comment || undefined)) {
      phases.comments.push(tableCommentSql(table, after.table.comment || undefined));
      this.plan.note(`comment on table ${quoted(table)}`);
    }
    const previous = new Map(before.columns.map((c) => [c.name, c]));
    for (const column of after.columns) {
      if (previous.get(column.name)?.comment === column.comment) continue;
      phases.comments.push(columnCommentSql(table, column.name, column.comment));
      this.plan.note(`comment on column ${quoted(table, column.name)}`);
    }
  }
}

function owned(model: TableModel): OwnedForeignKey[] {
  return model.foreignKeys.map((fk) => ({ table: model.name, fk }));
}
