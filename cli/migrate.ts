// `make migrate APP=dir [ALLOW_DATA_LOSS=1]`: writes and applies the next migration.

import { MIGRATE } from "./commands.ts";
import { appPostgres, envFlag, parseArgs, runCli } from "./common.ts";

runCli(async () => {
  const { appDir, flags } = parseArgs(MIGRATE);
  const allowDataLoss = flags.has("allow-data-loss") || envFlag("ALLOW_DATA_LOSS");
  const [{ ensureDatabase }, { migrateApp }] = await Promise.all([
    import("../db/databases.ts"),
    import("../db/migrate.ts"),
  ]);
  const server = await appPostgres(appDir);
  try {
    const url = await ensureDatabase(server);
    const result = await migrateApp({ appDir, url, allowDataLoss, log: (line) => console.log(line) });
    for (const line of result.warnings) console.log(line);
    if (!result.written && result.applied.length === 0) console.log("schema unchanged: nothing to migrate");
    return 0;
  } finally {
    await server.stop();
  }
});
