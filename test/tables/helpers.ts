// Helpers for the table generator's tests (not a test file: tap lists it as "no tests found").
// The loader is written separately, so raw schema tables are normalised here the way its contract
// (generator/schema/types.ts) describes: FK `column`/`refColumn` -> `columns`/`refColumns`, index
// string columns -> `{column}`, and every defaultable list filled in.

import fs from "node:fs";
import path from "node:path";
import type { Column, ColumnType, Table } from "../../generator/schema/types.ts";
import { FIXTURES_DIR } from "../harness/fixtures.ts";

type Raw = Record<string, unknown>;

export function normaliseTables(raw: unknown): Table[] {
  if (!Array.isArray(raw)) throw new Error("database must be an array");
  return raw.map((t: Raw) => normaliseTable(t));
}

export function normaliseTable(raw: Raw): Table {
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  const table = {
    ...raw,
    columns: list<Raw>(raw.columns).map((c) => ({ isNullable: false, roles: [], scopes: [], ...c })),
    indexes: list<Raw>(raw.indexes).map((i) => ({
      isUnique: false,
      isPrimaryKey: false,
      ...i,
      columns: list<unknown>(i.columns).map((c) => (typeof c === "string" ? { column: c } : c)),
    })),
    foreignKeys: list<Raw>(raw.foreignKeys).map(({ column, refColumn, ...fk }) => ({
      onDelete: "NO ACTION",
      onUpdate: "NO ACTION",
      ...fk,
      columns: fk.columns ?? [column],
      refColumns: fk.refColumns ?? [refColumn],
    })),
    checkConstraints: list(raw.checkConstraints),
    roles: list(raw.roles),
    scopes: list(raw.scopes),
    policies: list(raw.policies),
  };
  return table as unknown as Table;
}

export function col(name: string, type: ColumnType, extra: Partial<Column> = {}): Column {
  return { name, type, isNullable: false, roles: [], scopes: [], ...extra };
}

export function table(name: string, columns: Column[], extra: Partial<Table> = {}): Table {
  return {
    name,
    columns,
    indexes: [],
    foreignKeys: [],
    checkConstraints: [],
    roles: [],
    scopes: [],
    policies: [],
    ...extra,
  };
}

export const id = (extra: Partial<Column> = {}) =>
  col("id", "BIGSERIAL", { isPrimary: true, hasAutoIncrement: true, ...extra });

export function readFixture(relative: string): unknown {
  const file = path.join(FIXTURES_DIR, relative);
  if (!fs.existsSync(file)) throw new Error(`fixture not found: ${file}`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}
