// `make check APP=dir`: validates the app's schema; prints every error and warning, and exits
// non-zero when there are errors. Then imports the app's custom-route handlers and reports each
// missing file or method (errors; warnings with ALLOW_MISSING_HANDLERS=1, as for `make serve`).

import { CHECK } from "./commands.ts";
import { envFlag, parseArgs, runCli } from "./common.ts";

runCli(async () => {
  const { appDir } = parseArgs(CHECK);
  const [{ writeGeneratedOutput }, { formatDiagnostics, readAppSchema }, { describeProblem, loadHandlers }] =
    await Promise.all([
      import("../app/generated.ts"),
      import("../app/load.ts"),
      import("../gateway/custom/index.ts"),
    ]);
  const result = readAppSchema(appDir);
  for (const line of formatDiagnostics(result.file, "warning", result.warnings, result.routes))
    console.log(line);
  for (const line of formatDiagnostics(result.file, "error", result.errors, result.routes))
    console.error(line);
  const summary = `${result.errors.length} error(s), ${result.warnings.length} warning(s)`;
  if (result.errors.length > 0 || !result.schema) {
    console.error(summary);
    return 1;
  }
  console.log(`${result.file}: schema is valid; ${summary}`);
  for (const file of writeGeneratedOutput(appDir, result.schema)) console.log(`wrote ${file}`);

  const handlers = await loadHandlers(appDir, result.schema);
  const total = handlers.methods.size + handlers.problems.length;
  if (handlers.problems.length === 0) {
    console.log(`handlers: ${total} custom route(s), all found`);
    return 0;
  }
  const allowed = envFlag("ALLOW_MISSING_HANDLERS");
  const level = allowed ? "warning" : "error";
  const print = allowed ? console.log : console.error;
  for (const p of handlers.problems) print(`${level}: handler: ${describeProblem(p)}`);
  print(`handlers: ${handlers.problems.length} of ${total} custom route(s) without a handler`);
  return allowed ? 0 : 1;
});
