// The gateway's connection pool, as the api_gateway role. Route functions return json; the pool
// hands it over as text so the gateway sends it on without parsing and re-stringifying it.

import pg from "pg";
import { AppError } from "../app/load.ts";

const JSON_OID = 114;
const rawJson: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === JSON_OID
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
};

export function createPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types: rawJson, application_name: "api-gateway" });
  // An idle client that loses its connection must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return pool;
}

/**
 * SERVICE_DATABASE_URL: the service role's own connection (production: the operator manages the
 * api_service role's password), like GATEWAY_DATABASE_URL for api_gateway. Unset: derived.
 */
export function serviceDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.SERVICE_DATABASE_URL;
  if (raw === undefined || raw === "") return undefined;
  let ok = false;
  try {
    ok = /^postgres(ql)?:$/.test(new URL(raw).protocol);
  } catch {}
  if (!ok) throw new AppError("SERVICE_DATABASE_URL must be a postgres:// URL");
  return raw;
}

/** Sets a fresh random password on api_gateway and returns the gateway's URL (one instance, development). */
export function deriveGatewayUrl(adminUrl: string): Promise<string> {
  return deriveRoleUrl(adminUrl, "api_gateway");
}

/**
 * The same for api_service, the role behind `req.service` (docs/handlers.md): trusted handler code
 * gets a role with only what it needs (generator/api/service.ts), never the migrating superuser.
 */
export function deriveServiceUrl(adminUrl: string): Promise<string> {
  return deriveRoleUrl(adminUrl, "api_service");
}

async function deriveRoleUrl(adminUrl: string, role: "api_gateway" | "api_service"): Promise<string> {
  const { randomBytes } = await import("node:crypto");
  const password = randomBytes(24).toString("base64url");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // The role is one of two constants and the password is generated here, base64url: no quote
    // can occur in either.
    await client.query(`ALTER ROLE ${role} WITH LOGIN PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}
