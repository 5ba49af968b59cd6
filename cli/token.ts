// `make token CLAIMS='{"role":"member","userId":3,"companyId":1}'`: a development token signed
// with JWT_SECRET (HS256, one hour), for trying routes by hand. Issuing real tokens is a custom
// login route's job.

import fs from "node:fs";
import jwt from "jsonwebtoken";
import { AppError } from "../app/load.ts";
import { parseArgs, runCli } from "./common.ts";
import { devSecretFile, useDevSecret } from "./devSecret.ts";

runCli(async () => {
  // Without JWT_SECRET, the app's development secret (the one `make run` uses), if there is one.
  const { appDir } = parseArgs();
  if (!process.env.JWT_SECRET && fs.existsSync(devSecretFile(appDir))) useDevSecret(appDir);
  const secret = process.env.JWT_SECRET;
  if (!secret) throw new AppError("JWT_SECRET is not set: use the same value as the server's");
  let claims: unknown;
  try {
    claims = JSON.parse(process.env.CLAIMS || "{}");
  } catch {
    throw new AppError(`CLAIMS must be a JSON object (got ${process.env.CLAIMS})`);
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new AppError("CLAIMS must be a JSON object");
  }
  console.log(jwt.sign(claims, secret, { algorithm: "HS256", expiresIn: "1h" }));
  return 0;
});
