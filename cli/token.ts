// `make token [APP=dir] CLAIMS='{"role":"member","userId":3,"companyId":1}'`: a development token
// signed with JWT_SECRET, or APP's development secret (HS256, one hour), for trying routes by hand.
// Issuing real tokens is a custom login route's job.

import fs from "node:fs";
import path from "node:path";
import { AppError } from "../app/errors.ts";
import { TOKEN } from "./commands.ts";
import { parseArgs, runCli } from "./common.ts";
import { devSecretFile, useDevSecret } from "./devSecret.ts";

runCli(async () => {
  // Without JWT_SECRET, the app's development secret (the one `make run` uses), if there is one.
  const { appDir } = parseArgs(TOKEN);
  if (!process.env.JWT_SECRET && fs.existsSync(devSecretFile(appDir))) useDevSecret(appDir);
  const secret = process.env.JWT_SECRET;
  if (!secret) {
    const file = path.relative(process.cwd(), devSecretFile(appDir));
    throw new AppError(
      `JWT_SECRET is not set and ${file} does not exist: set JWT_SECRET to the server's, or run \`make run APP=${path.relative(process.cwd(), appDir) || "."}\` once (it creates that development secret)`,
    );
  }
  let claims: unknown;
  try {
    claims = JSON.parse(process.env.CLAIMS || "{}");
  } catch {
    throw new AppError(`CLAIMS must be a JSON object (got ${process.env.CLAIMS})`);
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new AppError("CLAIMS must be a JSON object");
  }
  const { default: jwt } = await import("jsonwebtoken");
  console.log(jwt.sign(claims, secret, { algorithm: "HS256", expiresIn: "1h" }));
  return 0;
});
