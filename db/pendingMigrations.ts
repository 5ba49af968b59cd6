// Applies the pending migration files inside the caller's transaction (db/migrate.ts commits them
// together with the API-layer rebuild). The files are read, ordered and hashed by
// postgres-migrations' own loader, and each applied file is recorded in its table
// (`api_migrations.migrations`: id, name, sha1 of file name + contents) exactly as its runner does,
// so the library's `migrate()` and `pg-validate-migrations` keep working on the same database.

import fs from "node:fs";
import type pg from "pg";
import { loadMigrationFiles } from "postgres-migrations";
import { AppError } from "../app/errors.ts";

/** Our bookkeeping lives outside `public`, so a user table named "migrations" never collides. */
export const META_SCHEMA = "api_migrations";

/** postgres-migrations runs a file carrying this marker outside a transaction; we cannot. */
const NO_TRANSACTION_MARKER = "-- postgres-migrations disable-transaction";

type MigrationFile = Awaited<ReturnType<typeof loadMigrationFiles>>[number];

/** A pending file that Postgres rejected: which one, Postgres's message and SQLSTATE. */
export class MigrationFileError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly fileName: string,
    pgError: unknown,
  ) {
    super(`${fileName}: ${(pgError as Error).message}`);
    this.code = (pgError as { code?: string }).code;
  }
}

/**
 * Runs every file of `dir` not yet recorded, in id order, on `client`, which must be inside a
 * transaction: nothing commits here. Returns the applied file names (the library's own id-0 file
 * that creates its table is applied and recorded too, but not listed).
 */
export async function applyPendingInTransaction(client: pg.ClientBase, dir: string): Promise<string[]> {
  if (!fs.existsSync(dir)) return [];
  let files: MigrationFile[];
  try {
    files = await loadMigrationFiles(dir);
  } catch (error) {
    throw new AppError(`cannot read the migration files: ${(error as Error).message}`);
  }
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${META_SCHEMA}`);
  // The library's own table definition (its file 0_create-migrations-table.sql), created in our
  // schema before anything looks for a table named "migrations".
  await client.query(`CREATE TABLE IF NOT EXISTS ${META_SCHEMA}.migrations (
    id integer PRIMARY KEY, name varchar(100) UNIQUE NOT NULL, hash varchar(40) NOT NULL,
    executed_at timestamp DEFAULT current_timestamp)`);
  const { rows } = await client.query<{ id: number; hash: string }>(
    `SELECT id, hash FROM ${META_SCHEMA}.migrations ORDER BY id`,
  );
  const applied = new Map(rows.map((r) => [r.id, r.hash]));
  const changed = files.filter((f) => applied.has(f.id) && applied.get(f.id) !== f.hash);
  if (changed.length > 0) {
    throw new AppError(
      `applied migration files were changed since they ran: ${changed.map((f) => f.fileName).join(", ")}. Never edit an applied file: restore it and put the change in a new migration.`,
    );
  }
  const pending = files.filter((f) => !applied.has(f.id));
  const outside = pending.filter((f) => f.sql.includes(NO_TRANSACTION_MARKER));
  if (outside.length > 0) {
    throw new AppError(
      `${outside.map((f) => f.fileName).join(", ")}: "${NO_TRANSACTION_MARKER}" is not supported: make migrate applies every pending file and the API layer in one transaction (docs/migrations.md)`,
    );
  }
  // Unqualified names in a file resolve as under postgres-migrations: our schema first, then public.
  await client.query(`SET LOCAL search_path TO ${META_SCHEMA}, public`);
  for (const file of pending) {
    try {
      await client.query(file.sql);
    } catch (error) {
      throw new MigrationFileError(file.fileName, error);
    }
    await client.query(`INSERT INTO ${META_SCHEMA}.migrations (id, name, hash) VALUES ($1, $2, $3)`, [
      file.id,
      file.name,
      file.hash,
    ]);
  }
  await client.query("SET LOCAL search_path TO DEFAULT");
  return pending.filter((f) => f.id > 0).map((f) => f.fileName);
}
