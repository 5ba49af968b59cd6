// A table resolved into the Postgres objects that represent it: columns with their final type,
// nullability, default and identity; the constraints declared inside CREATE TABLE (primary key,
// UNIQUE columns, ENUM checks, check constraints); indexes; foreign keys. Both the fresh-database
// DDL and the migration diff work from this model, so they can never disagree. (The resolved model
// of the whole schema, generator/model, is what the API layer, routes and gateway read.)

import type { Column, ForeignKeyAction, Index, IndexColumn, Table } from "../schema/types.ts";
import { ident, join, type Sql, sql, trusted } from "../sql/sql.ts";
import { enumValueList, enumValues, isIdentity, type PgType, pgType, renderPgType } from "./columnType.ts";
import { byName, enumCheckName, primaryKeyName, tableRef, uniqueConstraintName } from "./names.ts";

export interface ColumnModel {
  column: Column;
  name: string;
  type: PgType;
  identity: boolean;
  /** Declared NOT NULL, identity, or part of the primary key. */
  notNull: boolean;
  /** Raw SQL; never set on identity columns (identity wins over a declared default). */
  default?: string;
  enumValues?: string[];
  comment?: string;
}

export type ConstraintKind = "primaryKey" | "unique" | "enumCheck" | "check";

/** A constraint written inside CREATE TABLE, or added with ALTER TABLE ... ADD CONSTRAINT. */
export interface ConstraintModel {
  name: string;
  kind: ConstraintKind;
  /** Columns of primary key, unique and ENUM-check constraints. */
  columns: string[];
  /** `PRIMARY KEY ("id")`, `CHECK (...)`: what follows `CONSTRAINT "name"`. */
  definition: Sql;
  /** Derived from table and column names (renamed along with them). */
  derived: boolean;
}

export interface IndexModel {
  name: string;
  unique: boolean;
  create: Sql;
}

export interface ForeignKeyModel {
  name: string;
  refTable: string;
  definition: Sql;
}

export interface TableModel {
  table: Table;
  name: string;
  columns: ColumnModel[];
  constraints: ConstraintModel[];
  /** Sorted by name. */
  indexes: IndexModel[];
  /** Sorted by name. */
  foreignKeys: ForeignKeyModel[];
}

/**
 * Primary key columns: those of an index marked `isPrimaryKey` (Restura's "PRIMARY" index) when
 * there is one, else the columns marked `isPrimary`, in column order.
 */
export function primaryKeyColumns(table: Table): string[] {
  const index = table.indexes.find((i) => i.isPrimaryKey);
  if (index) return index.columns.flatMap((c) => (c.column === undefined ? [] : [c.column]));
  return table.columns.filter((c) => c.isPrimary).map((c) => c.name);
}

const columnList = (names: readonly string[]) => join(names.map((n) => ident(n)));

export function buildTableModel(table: Table): TableModel {
  const pk = primaryKeyColumns(table);
  const columns = table.columns.map((column): ColumnModel => {
    const identity = isIdentity(column);
    const model: ColumnModel = {
      column,
      name: column.name,
      type: pgType(column),
      identity,
      notNull: !column.isNullable || identity || pk.includes(column.name),
    };
    if (!identity && column.default !== undefined && column.default.trim() !== "") {
      model.default = column.default.trim();
    }
    const values = enumValues(column);
    if (values) model.enumValues = values;
    if (column.comment !== undefined && column.comment !== "") model.comment = column.comment;
    return model;
  });

  const constraints: ConstraintModel[] = [];
  if (pk.length > 0) {
    constraints.push({
      name: primaryKeyName(table.name),
      kind: "primaryKey",
      columns: pk,
      definition: sql`PRIMARY KEY (${columnList(pk)})`,
      derived: true,
    });
  }
  for (const column of table.columns) {
    if (!column.isUnique || (pk.length === 1 && pk[0] === column.name)) continue;
    constraints.push({
      name: uniqueConstraintName(table.name, column.name),
      kind: "unique",
      columns: [column.name],
      definition: sql`UNIQUE (${ident(column.name)})`,
      derived: true,
    });
  }
  for (const column of columns) {
    if (!column.enumValues) continue;
    constraints.push({
      name: enumCheckName(table.name, column.name),
      kind: "enumCheck",
      columns: [column.name],
      definition: sql`CHECK (${ident(column.name)} IN (${enumValueList(column.enumValues)}))`,
      derived: true,
    });
  }
  for (const check of table.checkConstraints) {
    constraints.push({
      name: check.name,
      kind: "check",
      columns: [],
      definition: sql`CHECK (${trusted(check.check.trim())})`,
      derived: false,
    });
  }

  const indexes = table.indexes
    .filter((index) => !index.isPrimaryKey)
    .map((index) => ({ name: index.name, unique: index.isUnique, create: createIndexSql(table.name, index) }))
    .sort(byName);

  const foreignKeys = table.foreignKeys
    .map((fk) => ({
      name: fk.name,
      refTable: fk.refTable,
      definition: sql`FOREIGN KEY (${columnList(fk.columns)}) REFERENCES ${tableRef(fk.refTable)} (${columnList(
        fk.refColumns,
      )}) ON DELETE ${FK_ACTION_SQL[fk.onDelete]} ON UPDATE ${FK_ACTION_SQL[fk.onUpdate]}`,
    }))
    .sort(byName);

  return { table, name: table.name, columns, constraints, indexes, foreignKeys };
}

const FK_ACTION_SQL = {
  "NO ACTION": sql`NO ACTION`,
  RESTRICT: sql`RESTRICT`,
  CASCADE: sql`CASCADE`,
  "SET NULL": sql`SET NULL`,
  "SET DEFAULT": sql`SET DEFAULT`,
} satisfies Record<ForeignKeyAction, Sql>;

const INDEX_METHOD_SQL: Record<string, Sql> = {
  hash: sql`hash`,
  gin: sql`gin`,
  gist: sql`gist`,
  brin: sql`brin`,
  spgist: sql`spgist`,
};

/**
 * A name written by the schema author (index method, operator class): a plain lower-case name is
 * written as is (identical to its quoted form, and readable); anything else is quoted part by part.
 */
function authorName(name: string): Sql {
  const parts = name.split(".");
  if (parts.every((p) => /^[a-z_][a-z0-9_]*$/.test(p))) return trusted(name);
  return ident(...parts);
}

function indexElement(column: IndexColumn, index: Index): Sql {
  const parts: Sql[] = [];
  if (column.expression !== undefined) parts.push(sql`(${trusted(column.expression.trim())})`);
  else if (column.column !== undefined) parts.push(ident(column.column));
  else throw new Error(`index "${index.name}": a column needs "column" or "expression"`);
  if (column.opclass !== undefined && column.opclass !== "") parts.push(authorName(column.opclass));
  // ASC is the default: written only as DESC, so methods without ordering (gin, ...) accept it.
  if ((column.order ?? index.order) === "DESC") parts.push(sql`DESC`);
  return join(parts, " ");
}

export function createIndexSql(table: string, index: Index): Sql {
  const method = index.using?.trim().toLowerCase();
  const using =
    method === undefined || method === "" || method === "btree"
      ? sql``
      : sql` USING ${INDEX_METHOD_SQL[method] ?? authorName(index.using?.trim() ?? "")}`;
  const unique = index.isUnique ? sql`UNIQUE ` : sql``;
  const elements = join(index.columns.map((c) => indexElement(c, index)));
  const where = index.where?.trim() ? sql` WHERE ${trusted(index.where.trim())}` : sql``;
  return sql`CREATE ${unique}INDEX ${ident(index.name)} ON ${tableRef(table)}${using} (${elements})${where}`;
}

export function columnDefinitionSql(column: ColumnModel): Sql {
  const parts: Sql[] = [ident(column.name), renderPgType(column.type)];
  if (column.identity) parts.push(sql`GENERATED BY DEFAULT AS IDENTITY`);
  if (column.notNull) parts.push(sql`NOT NULL`);
  if (column.default !== undefined) parts.push(sql`DEFAULT ${trusted(column.default)}`);
  return join(parts, " ");
}
