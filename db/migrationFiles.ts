// The app's migrations directory: numbered SQL files (checked in by the user) and a snapshot of
// the tables they add up to. The snapshot, not the database, is the base of the next diff, so a
// teammate who pulls new migration files applies them without generating duplicates.

import fs from "node:fs";
import path from "node:path";
import type { Schema, Table } from "../generator/schema/types.ts";

export const SNAPSHOT_FILE = "schema.snapshot.json";

export interface Snapshot {
  extensions: string[];
  database: Table[];
}

export function migrationsDirOf(appDir: string): string {
  return path.join(appDir, "migrations");
}

export function readSnapshot(dir: string): Snapshot | null {
  const file = path.join(dir, SNAPSHOT_FILE);
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
}

export function snapshotOf(schema: Schema): Snapshot {
  return { extensions: schema.extensions, database: schema.database };
}

/** Deterministic text, so an unchanged schema never rewrites the file. */
export function snapshotText(snapshot: Snapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

export function migrationFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+[-_].*\.sql$/i.test(f))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
}

/** Next file name: ids are consecutive (postgres-migrations requires it), zero-padded for sorting. */
export function nextMigrationName(dir: string, title: string): string {
  const files = migrationFiles(dir);
  const last = files.length ? Number.parseInt(files[files.length - 1] as string, 10) : 0;
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")
      .slice(0, 60) || "migration";
  return `${String(last + 1).padStart(4, "0")}_${slug}.sql`;
}
