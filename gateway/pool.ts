// The gateway's connection pool, as the api_gateway role. Route functions return json; the pool
// hands it over as text so the gateway sends it on without parsing and re-stringifying it.

import pg from "pg";

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

/** Sets a fresh random password on api_gateway and returns the gateway's URL (one instance, development). */
export async function deriveGatewayUrl(adminUrl: string): Promise<string> {
  const { randomBytes } = await import("node:crypto");
  const password = randomBytes(24).toString("base64url");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // The password is generated here, base64url: no quote can occur in it.
    await client.query(`ALTER ROLE api_gateway WITH LOGIN PASSWORD '${password}'`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.username = "api_gateway";
  url.password = password;
  return url.toString();
}
