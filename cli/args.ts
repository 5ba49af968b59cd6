// Command-line arguments of the entry points behind the Makefile. Each command describes itself
// (what it does, its flags, the environment it reads): `--help` prints that and exits 0 before
// anything happens, and an unknown flag or argument exits 2, so a typo never runs the command
// with defaults (`migrate --hepl` used to migrate).

import path from "node:path";
import { AppError } from "../app/errors.ts";

export const DEFAULT_APP = "example";

export interface Command {
  /** How a user runs it: `make check [APP=dir]`. */
  usage: string;
  /** What it does, in a sentence or two. */
  summary: string;
  /** Boolean flags (without `--`) and what each does. */
  flags?: Record<string, string>;
  /** Environment variables it reads and what each does; APP is listed for every command. */
  env?: Record<string, string>;
  /** Set when arguments after `--` are passed on (to psql): how to describe them. */
  passThrough?: string;
}

export interface CliArgs {
  appDir: string;
  flags: Set<string>;
  /** Arguments after `--`, for commands with `passThrough`. */
  rest: string[];
}

/** A wrong flag or argument: exit 2 with the message and a pointer to `--help`. */
export class UsageError extends AppError {}

/** `--help` was given: print `text` and exit 0. */
export class HelpRequested extends Error {
  constructor(readonly text: string) {
    super("help requested");
  }
}

export const ENV = {
  APP: `the application directory (default: ${DEFAULT_APP}); --app overrides it`,
  DATABASE_URL: "the Postgres to use; unset: the embedded cluster in <app>/.data/postgres",
} as const;

/** `--app DIR` (or APP=DIR in the environment), the command's own `--flags`, `--help`. */
export function parseArgs(command: Command, argv = process.argv.slice(2)): CliArgs {
  const flags = new Set<string>();
  const rest: string[] = [];
  let app = process.env.APP || DEFAULT_APP;
  const known = Object.keys(command.flags ?? {});
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") throw new HelpRequested(usageText(command));
    if (arg === "--" && command.passThrough !== undefined) {
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "--app" || arg.startsWith("--app=")) {
      const value = arg === "--app" ? argv[++i] : arg.slice("--app=".length);
      if (!value || value.startsWith("-")) throw new UsageError("--app needs a directory: --app DIR");
      app = value;
    } else if (arg.startsWith("-")) {
      const name = arg.replace(/^--?/, "");
      if (!known.includes(name)) {
        const options = ["--app DIR", ...known.map((f) => `--${f}`), "--help"].join(", ");
        throw new UsageError(`unknown option "${arg}" (this command takes ${options})`);
      }
      flags.add(name);
    } else {
      const hint =
        command.passThrough === undefined ? "" : ` (arguments for ${command.passThrough} go after "--")`;
      throw new UsageError(`unexpected argument "${arg}"${hint}`);
    }
  }
  return { appDir: path.resolve(app), flags, rest };
}

/** The text `--help` prints. */
export function usageText(command: Command): string {
  const script = path.relative(process.cwd(), process.argv[1] ?? "cli/<command>.ts") || "cli/<command>.ts";
  const extra = command.passThrough === undefined ? "" : ` [-- ${command.passThrough} arguments]`;
  const options: [string, string][] = [
    ["--app DIR", "the application directory (default: $APP, else example)"],
    ...Object.entries(command.flags ?? {}).map(([flag, text]): [string, string] => [`--${flag}`, text]),
    ["-h, --help", "print this help and exit"],
  ];
  const env: [string, string][] = Object.entries({ APP: ENV.APP, ...command.env });
  const table = (rows: [string, string][]) => {
    const width = Math.max(...rows.map(([name]) => name.length));
    return rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`).join("\n");
  };
  return [
    `Usage: ${command.usage}`,
    `       node --import tsx ${script} [--app DIR] [options]${extra}`,
    "",
    command.summary,
    "",
    "Options:",
    table(options),
    "",
    "Environment:",
    table(env),
    "",
  ].join("\n");
}

/** Runs a command: help to stdout (exit 0), usage errors exit 2, user errors exit 1, all without a stack. */
export function runCli(main: () => Promise<number | undefined>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      if (error instanceof HelpRequested) {
        process.stdout.write(error.text);
        process.exit(0);
      }
      if (error instanceof UsageError) {
        console.error(`${error.message}\nRun with --help for usage.`);
        process.exit(2);
      }
      if (error instanceof AppError) console.error(error.message);
      else console.error(error);
      process.exit(1);
    },
  );
}
