// `make run` / `make serve`: Postgres (DATABASE_URL or embedded in <app>/.data), migrate,
// with --dev (`make run`) seed the example data (`seed.sql`, idempotent) and use a development token secret when none is set (cli/devSecret.ts), then serve until
// SIGINT/SIGTERM, finishing in-flight requests before stopping (cli/serve.ts).

// First: V8 settings for serving (gateway/v8Flags.ts), before any other module runs code.
import "../gateway/v8Flags.ts";
import { RUN } from "./commands.ts";
import { parseArgs, runCli } from "./common.ts";

runCli(async () => {
  const { appDir, flags } = parseArgs(RUN);
  // The gateway loads once the arguments are valid: --help and a mistyped flag answer at once.
  const { serveApp } = await import("./serve.ts");
  return serveApp(appDir, flags.has("dev"));
});
