// DDL statements for a whole database or one table. Order of a fresh database: extensions, then
// each table (sorted by name) with its comments and indexes, then every foreign key as
// ALTER TABLE ... ADD CONSTRAINT, so table order and reference cycles never matter.

import type { Table } from "../schema/types.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { buildTableModel, columnDefinitionSql, type TableModel } from "./model.ts";
import { byName, TABLE_SCHEMA, tableRef } from "./names.ts";

/** Extensions are created in schema "public" (the migration runner's search_path is another one). */
export function createExtensionSql(name: string): Sql {
  return sql`CREATE EXTENSION IF NOT EXISTS ${ident(name)} WITH SCHEMA ${ident(TABLE_SCHEMA)} CASCADE`;
}

export function alterTableSql(table: string, action: Sql): Sql {
  return sql`ALTER TABLE ${tableRef(table)} ${action}`;
}

export function tableCommentSql(table: string, comment: string | undefined): Sql {
  return sql`COMMENT ON TABLE ${tableRef(table)} IS ${literal(comment ?? null)}`;
}

export function columnCommentSql(table: string, column: string, comment: string | undefined): Sql {
  return sql`COMMENT ON COLUMN ${ident(TABLE_SCHEMA, table, column)} IS ${literal(comment ?? null)}`;
}

export function createTableSql(model: TableModel): Sql {
  const lines = [
    ...model.columns.map(columnDefinitionSql),
    ...model.constraints.map((c) => sql`CONSTRAINT ${ident(c.name)} ${c.definition}`),
  ];
  return sql`CREATE TABLE ${tableRef(model.name)} (\n  ${join(lines, ",\n  ")}\n)`;
}

/** CREATE TABLE, then its comments and indexes; foreign keys are separate (see foreignKeyStatements). */
export function createTableStatements(model: TableModel): Sql[] {
  const statements = [createTableSql(model)];
  if (model.table.comment) statements.push(tableCommentSql(model.name, model.table.comment));
  for (const column of model.columns) {
    if (column.comment !== undefined)
      statements.push(columnCommentSql(model.name, column.name, column.comment));
  }
  for (const index of model.indexes) statements.push(index.create);
  return statements;
}

export function addForeignKeySql(table: string, fk: { name: string; definition: Sql }): Sql {
  return alterTableSql(table, sql`ADD CONSTRAINT ${ident(fk.name)} ${fk.definition}`);
}

export function foreignKeyStatements(models: readonly TableModel[]): Sql[] {
  return models.flatMap((m) => m.foreignKeys.map((fk) => addForeignKeySql(m.name, fk)));
}

/** Extension names in first-seen order, without duplicates. */
export function uniqueExtensions(extensions: readonly string[]): string[] {
  return [...new Set(extensions)];
}

/** Every statement (each ending with `;`) that builds the tables of a fresh database. */
export function createDatabaseStatements(
  tables: readonly Table[],
  extensions: readonly string[] = [],
): string[] {
  const models = [...tables].sort(byName).map(buildTableModel);
  return [
    ...uniqueExtensions(extensions).map(createExtensionSql),
    ...models.flatMap(createTableStatements),
    ...foreignKeyStatements(models),
  ].map((statement) => `${statement};`);
}

/** Statements as one script, separated by a blank line ("" when there are none). */
export function toSqlScript(statements: readonly string[]): string {
  return statements.length === 0 ? "" : `${statements.join("\n\n")}\n`;
}

export function createDatabaseSql(tables: readonly Table[], extensions: readonly string[] = []): string {
  return toSqlScript(createDatabaseStatements(tables, extensions));
}
