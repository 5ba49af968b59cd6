// `make psql APP=dir`: psql on the app's database, DATABASE_URL or the app's embedded cluster
// (connected to when it is already running, started otherwise). The password is handed over in
// PGPASSWORD, never on the command line, where any local user could read it (ps).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../app/errors.ts";
import { PSQL } from "./commands.ts";
import { appPostgres, parseArgs, runCli } from "./common.ts";

/** The first executable `psql` on PATH. */
export function findPsql(envPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === "") continue;
    const file = path.join(dir, "psql");
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The connection string without its password, and the password for PGPASSWORD. */
export function splitPassword(connection: string): { url: string; password: string | undefined } {
  const url = new URL(connection);
  const password = url.password
    ? decodeURIComponent(url.password)
    : (url.searchParams.get("password") ?? undefined);
  url.password = "";
  url.searchParams.delete("password");
  return { url: url.toString(), password };
}

runCli(async () => {
  const { appDir, rest } = parseArgs(PSQL);
  // Before starting anything: without psql there is nothing to open.
  const psql = findPsql();
  if (!psql) {
    throw new AppError(
      "psql is not installed (not found on PATH). On Debian or Ubuntu install the client with\n" +
        "  sudo apt-get install postgresql-client\n" +
        "and run this again.",
    );
  }
  const { ensureDatabase } = await import("../db/databases.ts");
  const server = await appPostgres(appDir);
  try {
    const { url, password } = splitPassword(await ensureDatabase(server));
    const env = { ...process.env };
    if (password !== undefined) env.PGPASSWORD = password;
    const child = spawn(psql, [url, ...rest], { stdio: "inherit", env });
    // Ctrl-C belongs to psql (it cancels the running query); this process waits for it to end.
    const ignore = () => {};
    process.on("SIGINT", ignore);
    const code = await new Promise<number>((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (status) => resolve(status ?? 1));
    });
    process.off("SIGINT", ignore);
    return code;
  } finally {
    await server.stop();
  }
});
