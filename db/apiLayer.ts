// The API layer (schema `api`, row policies, route functions, grants): the generator produces the
// statements, this module reads the hand-written runtime (sql/*.sql) and runs them. `make migrate`
// runs them inside its own transaction, together with the table migrations (db/migrate.ts).

import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { apiLayerStatements, dropApiLayerStatements } from "../generator/api/index.ts";
import { routeFunctionStatements } from "../generator/routes/index.ts";
import type { Schema } from "../generator/schema/types.ts";

/** The hand-written runtime SQL files, loaded in name order. */
export const RUNTIME_DIR = path.resolve(import.meta.dirname, "../sql");

/** The text of each runtime file (sql/*.sql), in name order. */
export function readRuntimeSql(dir = RUNTIME_DIR): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
}

export interface RebuildOptions {
  /** Statements run after the views, policies and route functions, before the grants. */
  extra?: readonly string[];
}

/** Every statement that drops and recreates the layer for `schema`, in order. */
export function apiLayerSql(schema: Schema, options: RebuildOptions = {}): string[] {
  const extra = [...routeFunctionStatements(schema), ...(options.extra ?? [])];
  return apiLayerStatements(schema, readRuntimeSql(), extra);
}

/** Drops schema `api` and our row policies, so that migrations may drop or change the columns they use. */
export function dropApiLayerSql(): string[] {
  return dropApiLayerStatements();
}

/**
 * Drops and recreates the whole API layer for `schema`, in one transaction: all of it or, on any
 * error, none of it (the error is rethrown). The client must not be inside a transaction.
 */
export async function rebuildApiLayer(
  client: pg.ClientBase,
  schema: Schema,
  options: RebuildOptions = {},
): Promise<void> {
  const statements = apiLayerSql(schema, options);
  await client.query("BEGIN");
  try {
    await runStatements(client, statements);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Runs `statements` one by one on `client`, in whatever transaction it is in. */
export async function runStatements(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await client.query(statement);
}
