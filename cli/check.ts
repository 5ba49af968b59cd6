// `make check APP=dir`: validates the app's schema; prints every error and warning, and exits
// non-zero when there are errors.

import { formatDiagnostics, readAppSchema } from "../app/load.ts";
import { parseArgs, runCli } from "./common.ts";

runCli(async () => {
  const { appDir } = parseArgs();
  const result = readAppSchema(appDir);
  for (const line of formatDiagnostics(result.file, "warning", result.warnings)) console.log(line);
  for (const line of formatDiagnostics(result.file, "error", result.errors)) console.error(line);
  const summary = `${result.errors.length} error(s), ${result.warnings.length} warning(s)`;
  if (result.errors.length > 0) {
    console.error(summary);
    return 1;
  }
  console.log(`${result.file}: schema is valid; ${summary}`);
  return 0;
});
