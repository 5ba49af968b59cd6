// `make token CLAIMS='{"role":"member","userId":3,"companyId":1}'`: a development token signed
// with JWT_SECRET (HS256, one hour), for trying routes by hand. Issuing real tokens is a custom
// login route's job.

import jwt from "jsonwebtoken";
import { AppError } from "../app/load.ts";
import { runCli } from "./common.ts";

runCli(async () => {
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
