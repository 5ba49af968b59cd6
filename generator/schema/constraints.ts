// Keys and constraints: the primary key, indexes, foreign keys and check constraints, and the
// one namespace their names share across the database.

import { type Context, checkColumn, rejectedWithin, type TableInfo } from "./context.ts";
import { enumMessage, isTooLong, quotedList, tooLong } from "./messages.ts";
import { at } from "./paths.ts";
import { arr, obj } from "./read.ts";
import { didYouMean } from "./suggest.ts";
import { isColumnType } from "./tables.ts";
import type { ColumnType, Table } from "./types.ts";

export const INDEX_METHODS = ["btree", "hash", "gin", "gist", "brin", "spgist"] as const;
const OPCLASS = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Type families whose values Postgres can compare in a foreign key. */
const FAMILY = {
  BIGSERIAL: "integer",
  SERIAL: "integer",
  SMALLSERIAL: "integer",
  BIGINT: "integer",
  INTEGER: "integer",
  INT: "integer",
  MEDIUMINT: "integer",
  SMALLINT: "integer",
  TINYINT: "integer",
  DECIMAL: "numeric",
  NUMERIC: "numeric",
  REAL: "float",
  FLOAT: "float",
  DOUBLE: "float",
  "DOUBLE PRECISION": "float",
  BOOLEAN: "boolean",
  CHAR: "text",
  VARCHAR: "text",
  TEXT: "text",
  TINYTEXT: "text",
  MEDIUMTEXT: "text",
  LONGTEXT: "text",
  ENUM: "text",
  JSON: "json",
  JSONB: "json",
  DATE: "datetime",
  DATETIME: "datetime",
  TIMESTAMP: "datetime",
  TIMESTAMPTZ: "datetime",
  TIME: "time",
  INTERVAL: "interval",
  UUID: "uuid",
  BYTEA: "binary",
  BLOB: "binary",
  TINYBLOB: "binary",
  MEDIUMBLOB: "binary",
  LONGBLOB: "binary",
} satisfies Record<ColumnType, string>;

/** The primary key columns: from column `isPrimary`, else from the primary key index. */
export function primaryKey(table: Table): string[] {
  const fromColumns = table.columns.filter((c) => c.isPrimary === true).map((c) => c.name);
  if (fromColumns.length > 0) return fromColumns;
  const index = table.indexes.find((i) => i.isPrimaryKey);
  return index ? index.columns.flatMap((c) => (c.column === undefined ? [] : [c.column])) : [];
}

/** Column sets that are unique: the primary key, `isUnique` columns, full unique indexes on columns. */
export function uniqueKeys(table: Table): string[][] {
  const keys = [primaryKey(table)];
  for (const c of table.columns) if (c.isUnique === true) keys.push([c.name]);
  for (const i of table.indexes) {
    if (
      (i.isUnique || i.isPrimaryKey) &&
      i.where === undefined &&
      i.columns.every((c) => c.column !== undefined)
    ) {
      keys.push(i.columns.map((c) => c.column as string));
    }
  }
  return keys.filter((k) => k.length > 0);
}

const count = (n: number) => `${n} column${n === 1 ? "" : "s"}`;
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

export function checkConstraints(ctx: Context): void {
  const names = new Map<string, string>();
  const claim = (name: string, path: string) => {
    if (name === "") return;
    if (isTooLong(name)) ctx.diag.error(path, tooLong(name));
    const first = names.get(name);
    if (first !== undefined)
      ctx.diag.error(path, `duplicate constraint name "${name}" (also used at ${first})`);
    else names.set(name, path.replace(/\.name$/, ""));
  };
  ctx.infos.forEach((info, ti) => {
    const raw = obj(arr(obj(ctx.raw).database)[ti]);
    checkPrimaryKey(ctx, info);
    info.table.indexes.forEach((index, ii) => {
      const ip = at(at(info.path, "indexes"), ii);
      // A primary key index's name is not used: Postgres names the constraint <table>_pkey.
      if (!index.isPrimaryKey) {
        claim(index.name, at(ip, "name"));
        if (ctx.tables.has(index.name)) {
          ctx.diag.error(
            at(ip, "name"),
            `index name "${index.name}" is also a table name (Postgres keeps them in one namespace)`,
          );
        }
      }
      checkIndex(ctx, info, ii, arr(obj(arr(raw.indexes)[ii]).columns));
    });
    info.table.foreignKeys.forEach((fk, fi) => {
      claim(fk.name, at(at(at(info.path, "foreignKeys"), fi), "name"));
      checkForeignKey(ctx, info, fi, obj(arr(raw.foreignKeys)[fi]));
    });
    info.table.checkConstraints.forEach((check, ci) => {
      claim(check.name, at(at(at(info.path, "checkConstraints"), ci), "name"));
    });
  });
}

function checkPrimaryKey(ctx: Context, info: TableInfo): void {
  const { table, path } = info;
  const marked = table.columns.filter((c) => c.isPrimary === true).map((c) => c.name);
  const pkIndexes = table.indexes.map((index, i) => ({ index, i })).filter((x) => x.index.isPrimaryKey);
  const firstIndex = pkIndexes[0];
  for (const extra of pkIndexes.slice(1)) {
    ctx.diag.error(
      at(at(at(path, "indexes"), extra.i), "isPrimaryKey"),
      `a table has at most one primary key index (another is ${path}.indexes[${firstIndex?.i}])`,
    );
  }
  if (firstIndex && marked.length > 0) {
    const indexed = firstIndex.index.columns.flatMap((c) => (c.column === undefined ? [] : [c.column]));
    if (indexed.length === firstIndex.index.columns.length && !sameSet(indexed, marked)) {
      ctx.diag.error(
        at(at(at(path, "indexes"), firstIndex.i), "columns"),
        `primary key index columns (${quotedList(indexed)}) differ from the columns marked isPrimary (${quotedList(marked)})`,
      );
    }
  }
  const key = primaryKey(table);
  if (key.length === 0 && table.name !== "" && table.columns.length > 0 && !rejectedWithin(ctx, path)) {
    ctx.diag.error(
      path,
      `table "${table.name}" has no primary key (mark a column isPrimary or add an index with isPrimaryKey)`,
    );
  }
  table.columns.forEach((c, ci) => {
    if (key.includes(c.name) && c.isNullable) {
      ctx.diag.error(
        at(at(at(path, "columns"), ci), "isNullable"),
        "a primary key column cannot be nullable",
      );
    }
  });
}

function checkIndex(ctx: Context, info: TableInfo, ii: number, rawColumns: unknown[]): void {
  const { diag } = ctx;
  const index = info.table.indexes[ii];
  if (!index) return;
  const ip = at(at(info.path, "indexes"), ii);
  const seen = new Set<string>();
  index.columns.forEach((col, ci) => {
    const cp = at(at(ip, "columns"), ci);
    const isString = typeof rawColumns[ci] === "string";
    if (col.column === undefined && col.expression === undefined) {
      diag.error(cp, 'an index column needs "column" or "expression"');
    } else if (col.column !== undefined && col.expression !== undefined) {
      diag.error(cp, 'an index column has either "column" or "expression", not both');
    }
    if (col.column !== undefined) {
      checkColumn(ctx, info, col.column, isString ? cp : at(cp, "column"));
      if (seen.has(col.column))
        diag.error(isString ? cp : at(cp, "column"), `column "${col.column}" is listed more than once`);
      seen.add(col.column);
    }
    if (col.expression !== undefined && index.isPrimaryKey) {
      diag.error(at(cp, "expression"), "a primary key index can only list columns");
    }
    if (col.opclass !== undefined && !OPCLASS.test(col.opclass)) {
      diag.error(at(cp, "opclass"), `invalid operator class "${col.opclass}"`);
    }
  });
  if (index.isPrimaryKey && index.where !== undefined)
    diag.error(at(ip, "where"), "a primary key cannot be partial");
  if (index.using !== undefined) {
    if (!(INDEX_METHODS as readonly string[]).includes(index.using)) {
      diag.error(at(ip, "using"), enumMessage(index.using, INDEX_METHODS));
    } else if ((index.isUnique || index.isPrimaryKey) && index.using !== "btree") {
      diag.error(at(ip, "using"), `unique indexes need the btree method, got "${index.using}"`);
    }
  }
}

function checkForeignKey(ctx: Context, info: TableInfo, fi: number, raw: Record<string, unknown>): void {
  const { diag } = ctx;
  const fk = info.table.foreignKeys[fi];
  if (!fk) return;
  const fp = at(at(info.path, "foreignKeys"), fi);
  const colsKey = "column" in raw ? "column" : "columns";
  const refsKey = "refColumn" in raw ? "refColumn" : "refColumns";
  for (const [one, many] of [
    ["column", "columns"],
    ["refColumn", "refColumns"],
  ] as const) {
    if (one in raw && many in raw) diag.error(at(fp, many), `use either "${one}" or "${many}", not both`);
    else if (!(one in raw) && !(many in raw))
      diag.error(at(fp, one), `missing required property "${one}" (or "${many}")`);
  }
  const colPath = (i: number) => (colsKey === "column" ? at(fp, "column") : at(at(fp, "columns"), i));
  const refPath = (i: number) =>
    refsKey === "refColumn" ? at(fp, "refColumn") : at(at(fp, "refColumns"), i);
  const local = fk.columns.map((name, i) => checkColumn(ctx, info, name, colPath(i)));
  const target = ctx.tables.get(fk.refTable);
  if (!target && fk.refTable !== "" && !ctx.tablesIncomplete) {
    diag.error(
      at(fp, "refTable"),
      `table "${fk.refTable}" does not exist${didYouMean(fk.refTable, ctx.tables.keys())}`,
    );
  }
  const remote = fk.refColumns.map((name, i) => checkColumn(ctx, target, name, refPath(i)));
  if (fk.columns.length !== fk.refColumns.length && fk.columns.length > 0 && fk.refColumns.length > 0) {
    diag.error(
      at(fp, refsKey),
      `the foreign key has ${count(fk.columns.length)} but references ${count(fk.refColumns.length)}`,
    );
    return;
  }
  if (!target || remote.some((c) => c === undefined) || fk.refColumns.length === 0) return;
  if (!uniqueKeys(target.table).some((k) => sameSet(k, fk.refColumns)) && !rejectedWithin(ctx, target.path)) {
    diag.error(
      at(fp, refsKey),
      `referenced columns (${quotedList(fk.refColumns)}) are not the primary key or a unique key of table "${fk.refTable}"`,
    );
  }
  local.forEach((c, i) => {
    const r = remote[i];
    if (!c || !r || !isColumnType(c.type) || !isColumnType(r.type)) return;
    if (FAMILY[c.type] !== FAMILY[r.type]) {
      diag.error(
        colPath(i),
        `column "${c.name}" (${c.type}) cannot reference "${fk.refTable}"."${r.name}" (${r.type}): incompatible types`,
      );
    }
  });
  for (const key of ["onDelete", "onUpdate"] as const) {
    if (fk[key] !== "SET NULL") continue;
    const notNull = local.filter((c) => c?.isNullable === false).map((c) => c?.name as string);
    if (notNull.length > 0) {
      diag.error(
        at(fp, key),
        `${key} SET NULL needs nullable columns, but ${quotedList(notNull)} ${notNull.length > 1 ? "are" : "is"} not nullable`,
      );
    }
  }
}
