// Builds the normalised Schema (types.ts) from the raw file: every defaultable field is filled,
// Restura's alternative spellings become the one canonical form. Runs on any input (shape errors
// are reported by the structure check); where values are refined later by the reference checks.

import { endpointGroup, where } from "./normalizeRoutes.ts";
import { arr, bool, defined, obj, optBool, optStr, str, strs, upperWords } from "./read.ts";
import type {
  Column,
  ColumnType,
  ForeignKey,
  ForeignKeyAction,
  Index,
  IndexColumn,
  Policy,
  Schema,
  Table,
} from "./types.ts";

export function normalize(input: unknown): Schema {
  const root = obj(input);
  const customTypes = typeof root.customTypes === "string" ? [root.customTypes] : strs(root.customTypes);
  return {
    database: arr(root.database).map(table),
    endpoints: arr(root.endpoints).map(endpointGroup),
    customTypes,
    globalParams: strs(root.globalParams),
    roles: strs(root.roles),
    scopes: strs(root.scopes),
    extensions: strs(root.extensions),
  };
}

function table(raw: unknown): Table {
  const t = obj(raw);
  const notify = typeof t.notify === "string" ? "ALL" : Array.isArray(t.notify) ? strs(t.notify) : undefined;
  return defined<Table>({
    name: str(t.name),
    columns: arr(t.columns).map(column),
    indexes: arr(t.indexes).map(index),
    foreignKeys: arr(t.foreignKeys).map(foreignKey),
    checkConstraints: arr(t.checkConstraints).map((c) => ({
      name: str(obj(c).name),
      check: str(obj(c).check),
    })),
    roles: strs(t.roles),
    scopes: strs(t.scopes),
    notify,
    policies: arr(t.policies).map(policy),
    comment: optStr(t.comment),
    renamedFrom: optStr(t.renamedFrom),
  });
}

function column(raw: unknown): Column {
  const c = obj(raw);
  return defined<Column>({
    name: str(c.name),
    type: upperWords(str(c.type)) as ColumnType,
    isNullable: bool(c.isNullable),
    roles: strs(c.roles),
    scopes: strs(c.scopes),
    length: typeof c.length === "number" ? c.length : undefined,
    value: optStr(c.value),
    default: optStr(c.default),
    isPrimary: optBool(c.isPrimary),
    isUnique: optBool(c.isUnique),
    hasAutoIncrement: optBool(c.hasAutoIncrement),
    comment: optStr(c.comment),
    renamedFrom: optStr(c.renamedFrom),
    private: optBool(c.private),
  });
}

const sortOrder = (v: unknown): "ASC" | "DESC" | undefined => (v === "ASC" || v === "DESC" ? v : undefined);

function index(raw: unknown): Index {
  const i = obj(raw);
  const columns = arr(i.columns).map((c): IndexColumn => {
    if (typeof c === "string") return { column: c };
    const o = obj(c);
    return defined<IndexColumn>({
      column: optStr(o.column),
      expression: optStr(o.expression),
      opclass: optStr(o.opclass),
      order: sortOrder(o.order),
    });
  });
  const using = optStr(i.using);
  return defined<Index>({
    name: str(i.name),
    columns,
    isUnique: bool(i.isUnique),
    isPrimaryKey: bool(i.isPrimaryKey),
    order: sortOrder(i.order),
    where: optStr(i.where),
    using: using === undefined ? undefined : using.trim().toLowerCase(),
  });
}

function foreignKey(raw: unknown): ForeignKey {
  const f = obj(raw);
  const one = (single: unknown, many: unknown) => (typeof single === "string" ? [single] : strs(many));
  const action = (v: unknown) => (typeof v === "string" ? v : "NO ACTION") as ForeignKeyAction;
  return {
    name: str(f.name),
    columns: one(f.column, f.columns),
    refTable: str(f.refTable),
    refColumns: one(f.refColumn, f.refColumns),
    onDelete: action(f.onDelete),
    onUpdate: action(f.onUpdate),
  };
}

function policy(raw: unknown): Policy {
  const p = obj(raw);
  return { name: str(p.name), roles: strs(p.roles), scopes: strs(p.scopes), where: arr(p.where).map(where) };
}
