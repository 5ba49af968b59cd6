// What each entry point says about itself under `--help` (cli/args.ts prints it). Kept together so
// the commands describe their options and environment the same way; the README's command table
// and "Configuration" say the same.

import { type Command, ENV } from "./args.ts";

export const CHECK: Command = {
  usage: "make check [APP=dir]",
  summary:
    "Validates the app's schema file and prints every error and warning with its JSON path (and the\n" +
    "route, as METHOD /full/path); then imports the custom-route handlers and reports each missing\n" +
    "file or method. Exits 1 when there are errors. Touches no database.",
  env: {
    ALLOW_MISSING_HANDLERS: "1: missing handlers are warnings, not errors",
  },
};

export const MIGRATE: Command = {
  usage: "make migrate [APP=dir] [ALLOW_DATA_LOSS=1]",
  summary:
    "Writes the app's next numbered migration into <app>/migrations/ when the schema changed, then\n" +
    "applies the pending ones. Refuses changes that lose data unless confirmed.",
  flags: { "allow-data-loss": "confirm dropped tables or columns and narrowed types (as ALLOW_DATA_LOSS=1)" },
  env: {
    DATABASE_URL: ENV.DATABASE_URL,
    ALLOW_DATA_LOSS: "1: confirm dropped tables or columns and narrowed types",
  },
};

export const RUN: Command = {
  usage: "make run [APP=dir]   or   make serve [APP=dir]",
  summary:
    "Starts Postgres (embedded unless DATABASE_URL is set), migrates, and serves the app until\n" +
    "Ctrl-C. With --dev (make run): runs <app>/seed.sql on every start (it must be idempotent) and\n" +
    "uses a development token secret kept in <app>/.data when JWT_SECRET/JWT_PUBLIC_KEY are unset.",
  flags: { dev: "seed from seed.sql and use the development token secret (what make run does)" },
  env: {
    DATABASE_URL: ENV.DATABASE_URL,
    GATEWAY_DATABASE_URL: "the gateway's own connection (default: derived, role api_gateway)",
    "PORT, HOST": "where to listen (default: 3000, 127.0.0.1)",
    "JWT_SECRET, JWT_PUBLIC_KEY": "token verification (docs/authentication.md)",
    ALLOW_DATA_LOSS: "1: confirm migrations that drop data",
    ALLOW_MISSING_HANDLERS: "1: serve custom routes without handlers (they answer 501)",
    "...": "and the gateway settings listed under Configuration in README.md",
  },
};

export const TOKEN: Command = {
  usage: `make token [APP=dir] CLAIMS='{"role":"member","userId":3,"companyId":1}'`,
  summary:
    "Prints a development token (HS256, valid one hour) for the given claims, signed with\n" +
    "JWT_SECRET, or else with the development secret `make run` keeps for that app\n" +
    "(<app>/.data/dev-jwt-secret).",
  env: {
    CLAIMS: "the token's claims, a JSON object (default: {})",
    JWT_SECRET: "the secret to sign with (the server's); unset: the app's development secret",
  },
};

export const ROUTES: Command = {
  usage: "make routes [APP=dir]",
  summary:
    "Lists every route of the app, sorted by path then method: method, full path, type, roles,\n" +
    "scopes, and the table it reads or writes (standard routes) or its handler file and method\n" +
    "(custom routes). Touches no database.",
};

export const PSQL: Command = {
  usage: "make psql [APP=dir]",
  summary:
    "Opens psql on the app's database: DATABASE_URL, or the app's embedded cluster (started if it\n" +
    "is not running). The password goes through PGPASSWORD, never on the command line.",
  env: { DATABASE_URL: ENV.DATABASE_URL },
  passThrough: "psql",
};
