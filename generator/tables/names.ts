// Names of the objects the table generator owns. Every table lives in schema "public" and is
// always schema-qualified, because the migration runner and the API layer set other search_paths.
// Constraint names derived from table and column names follow Postgres's own conventions
// (<table>_pkey, <table>_<column>_key, <table>_<column>_check) but are always given explicitly, so
// the generator knows them without asking the database.

import { createHash } from "node:crypto";
import { ident, type Sql } from "../sql/sql.ts";

export const TABLE_SCHEMA = "public";

/** `"public"."<table>"`. */
export function tableRef(table: string): Sql {
  return ident(TABLE_SCHEMA, table);
}

/** Postgres truncates identifiers to 63 bytes (NAMEDATALEN - 1). */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * Joins parts with `_`. A result longer than Postgres's 63-byte limit is shortened and suffixed
 * with a hash of the full name, so two long names never collapse into the same truncated one.
 */
export function derivedName(...parts: string[]): string {
  const name = parts.join("_");
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  const chars = Array.from(name);
  while (Buffer.byteLength(chars.join("")) > MAX_IDENTIFIER_BYTES - hash.length - 1) chars.pop();
  return `${chars.join("")}_${hash}`;
}

export function primaryKeyName(table: string): string {
  return derivedName(table, "pkey");
}

export function uniqueConstraintName(table: string, column: string): string {
  return derivedName(table, column, "key");
}

export function enumCheckName(table: string, column: string): string {
  return derivedName(table, column, "check");
}

/** Code-unit order: stable whatever the machine's locale. */
export function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
