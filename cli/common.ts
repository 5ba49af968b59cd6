// Shared plumbing of the command-line entry points: argument parsing and error reporting.

import fs from "node:fs";
import path from "node:path";
import { AppError } from "../app/errors.ts";
import type { PostgresServer } from "../db/postgres.ts";

// Argument parsing, `--help` and exit codes live in args.ts.
export { type CliArgs, type Command, DEFAULT_APP, ENV, parseArgs, runCli, UsageError } from "./args.ts";

/** The app's Postgres: DATABASE_URL, or the embedded cluster kept in `<app>/.data/postgres`. */
export async function appPostgres(appDir: string): Promise<PostgresServer> {
  // Checked before anything is created: a mistyped APP must not leave a new directory behind.
  if (!fs.statSync(appDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError(`the app directory ${appDir} does not exist`);
  }
  // Loaded here, not at the top: `--help` and a mistyped flag answer without it (args.ts).
  const { providePostgres } = await import("../db/postgres.ts");
  return providePostgres({ dataDir: path.join(appDir, ".data", "postgres") });
}

/** An environment flag is on when set to 1/true/yes. */
export function envFlag(name: string): boolean {
  const value = process.env[name];
  if (value === undefined || value === "" || /^(0|false|no)$/i.test(value)) return false;
  if (/^(1|true|yes)$/i.test(value)) return true;
  throw new AppError(`${name} must be 1 or 0 (got "${value}")`);
}
