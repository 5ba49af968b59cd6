// Shared plumbing of the command-line entry points: argument parsing and error reporting.

import fs from "node:fs";
import path from "node:path";
import { AppError } from "../app/load.ts";
import { type PostgresServer, providePostgres } from "../db/postgres.ts";

export const DEFAULT_APP = "example";

export interface CliArgs {
  appDir: string;
  flags: Set<string>;
}

/** `--app DIR` (or APP=DIR in the environment) and boolean `--flags`. */
export function parseArgs(argv = process.argv.slice(2)): CliArgs {
  const flags = new Set<string>();
  let app = process.env.APP || DEFAULT_APP;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--app") {
      const value = argv[++i];
      if (!value) throw new AppError("--app needs a directory");
      app = value;
    } else if (arg.startsWith("--")) flags.add(arg.slice(2));
    else throw new AppError(`unexpected argument "${arg}"`);
  }
  return { appDir: path.resolve(app), flags };
}

/** Runs a command; errors meant for the user print without a stack and exit 1. */
export function runCli(main: () => Promise<number | undefined>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      if (error instanceof AppError) console.error(error.message);
      else console.error(error);
      process.exit(1);
    },
  );
}

/** The app's Postgres: DATABASE_URL, or the embedded cluster kept in `<app>/.data/postgres`. */
export async function appPostgres(appDir: string): Promise<PostgresServer> {
  // Checked before anything is created: a mistyped APP must not leave a new directory behind.
  if (!fs.statSync(appDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new AppError(`the app directory ${appDir} does not exist`);
  }
  return providePostgres({ dataDir: path.join(appDir, ".data", "postgres") });
}

/** An environment flag is on when set to 1/true/yes. */
export function envFlag(name: string): boolean {
  const value = process.env[name];
  if (value === undefined || value === "" || /^(0|false|no)$/i.test(value)) return false;
  if (/^(1|true|yes)$/i.test(value)) return true;
  throw new AppError(`${name} must be 1 or 0 (got "${value}")`);
}
