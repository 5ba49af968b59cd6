// Rebuilds the API layer (schema `api`, row policies, route functions, grants) in one transaction: the generator
// produces the statements, this module reads the hand-written runtime (sql/*.sql) and runs them.

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

/**
 * Drops and recreates the whole API layer for `schema`, in one transaction: all of it or, on any
 * error, none of it (the error is rethrown). The client must not be inside a transaction.
 */
export async function rebuildApiLayer(
  client: pg.ClientBase,
  schema: Schema,
  options: RebuildOptions = {},
): Promise<void> {
  const extra = [...routeFunctionStatements(schema), ...(options.extra ?? [])];
  await inTransaction(client, apiLayerStatements(schema, readRuntimeSql(), extra));
}

/**
 * Drops schema `api` and our row policies, in one transaction, so that migrations can drop or
 * change the columns they use. Rebuild afterwards.
 */
export async function dropApiLayer(client: pg.ClientBase): Promise<void> {
  await inTransaction(client, dropApiLayerStatements());
}

async function inTransaction(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  await client.query("BEGIN");
  try {
    for (const statement of statements) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
