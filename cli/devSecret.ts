// `make run` is for trying an app on one machine: when no token key is configured it uses a
// development secret, made once and kept in <app>/.data/dev-jwt-secret (never committed:
// .data is ignored), so login, `make token` and protected routes work without set-up.
// `make serve` never does this: there, an unset key means every caller is anonymous.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export function devSecretFile(appDir: string): string {
  return path.join(appDir, ".data", "dev-jwt-secret");
}

/** Sets JWT_SECRET from the app's development secret when no key is configured; returns whether it did. */
export function useDevSecret(appDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.JWT_SECRET || env.JWT_PUBLIC_KEY) return false;
  const file = devSecretFile(appDir);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  env.JWT_SECRET = fs.readFileSync(file, "utf8").trim();
  return true;
}

/** useDevSecret for `make run --dev` and `make dev`, saying so when it sets the secret. */
export function useDevSecretNoisily(appDir: string): void {
  if (!useDevSecret(appDir)) return;
  console.log(
    `JWT_SECRET unset: using the development secret in ${path.relative(process.cwd(), devSecretFile(appDir))}`,
  );
}
