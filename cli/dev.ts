// `make dev APP=dir`: watch mode. Serves the app like `make run` (embedded Postgres unless
// DATABASE_URL, seed, development token secret), then on every saved api.schema.json or handler
// file (<app>/src/**) validates, migrates and swaps the new version in without a restart; a broken
// version is printed and the last good one keeps serving (docs/operations.md "Watch mode").

// First: V8 settings for serving (gateway/v8Flags.ts), before any other module runs code.
import "../gateway/v8Flags.ts";
import { type Command, ENV } from "./args.ts";
import { parseArgs, runCli } from "./common.ts";

const DEV: Command = {
  usage: "make dev [APP=dir]",
  summary:
    "Watch mode: serves the app as make run does, and on every saved schema file or handler\n" +
    "(<app>/src/**) validates, migrates and swaps in the new routes and handlers without a restart.\n" +
    "A broken version is printed and the last good one keeps serving. Readable logs (pino-pretty).",
  env: {
    DATABASE_URL: ENV.DATABASE_URL,
    "PORT, HOST": "where to listen (default: 3000, 127.0.0.1)",
    ALLOW_DATA_LOSS: "1: confirm migrations that drop data (otherwise such an edit is refused)",
    ALLOW_MISSING_HANDLERS: "1: serve custom routes without handlers (they answer 501)",
    LOG_PRETTY: "0: JSON log lines as in production (default here: 1)",
  },
};

runCli(async () => {
  const { appDir } = parseArgs(DEV);
  // The server loads once the arguments are valid: --help and a mistyped flag answer at once.
  const { serveAndWatch } = await import("./watch.ts");
  return serveAndWatch(appDir);
});
