// The scaling settings (docs/scaling.md): READ_DB_POOL_SIZE, PG_PREPARED_STATEMENTS and the
// X-Read-Primary header, parsed strictly; the header allowed for browsers when CORS is on.

import t from "tap";
import { readGatewayConfig } from "../../gateway/config.ts";
import { wantsPrimary } from "../../gateway/readPool.ts";
import { testDatabase } from "../harness/db.ts";
import { scalingGateway } from "./gateway.ts";

t.test("READ_DB_POOL_SIZE defaults to DB_POOL_SIZE; bad values stop start-up", async (t) => {
  t.equal(readGatewayConfig({}).readPoolSize, 10);
  t.equal(readGatewayConfig({ DB_POOL_SIZE: "7" }).readPoolSize, 7);
  t.equal(readGatewayConfig({ DB_POOL_SIZE: "7", READ_DB_POOL_SIZE: "30" }).readPoolSize, 30);
  for (const bad of ["0", "-1", "many", "1001"]) {
    t.throws(() => readGatewayConfig({ READ_DB_POOL_SIZE: bad }), {
      message: `READ_DB_POOL_SIZE must be a whole number from 1 to 1000 (got "${bad}")`,
    });
  }
});

t.test("READ_DATABASE_URL is checked at start-up, before anything is migrated", async (t) => {
  t.equal(readGatewayConfig({}).readDatabaseUrl, undefined);
  t.equal(
    readGatewayConfig({ READ_DATABASE_URL: "postgres://replica/app" }).readDatabaseUrl,
    "postgres://replica/app",
  );
  t.throws(() => readGatewayConfig({ READ_DATABASE_URL: "replica:5432" }), {
    message: "READ_DATABASE_URL must be a postgres:// URL",
  });
});

t.test("PG_PREPARED_STATEMENTS: 1 (default) or 0, nothing else", async (t) => {
  t.equal(readGatewayConfig({}).preparedStatements, true);
  t.equal(readGatewayConfig({ PG_PREPARED_STATEMENTS: "1" }).preparedStatements, true);
  t.equal(readGatewayConfig({ PG_PREPARED_STATEMENTS: "0" }).preparedStatements, false);
  t.throws(() => readGatewayConfig({ PG_PREPARED_STATEMENTS: "off" }), {
    message: 'PG_PREPARED_STATEMENTS must be one of 0, 1 (got "off")',
  });
});

t.test("X-Read-Primary: 1 or true asks for the primary; anything else does not", async (t) => {
  for (const yes of ["1", "true", "TRUE", " true "])
    t.equal(wantsPrimary({ "x-read-primary": yes }), true, yes);
  for (const no of ["0", "false", "yes", "", undefined]) {
    t.equal(wantsPrimary({ "x-read-primary": no }), false, String(no));
  }
  t.equal(wantsPrimary({ "x-read-primary": ["1", "0"] }), true, "the first of repeated headers");
});

t.test(
  "browsers may send X-Read-Primary when CORS is on; without a replica it changes nothing",
  async (t) => {
    const url = await testDatabase(t, "tpl_example");
    const gw = await scalingGateway(t, url, { corsOrigins: ["https://app.example.com"] });
    const preflight = await gw.app.inject({
      method: "OPTIONS",
      url: "/api/v1/company/public/1",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-read-primary",
      },
    });
    t.equal(preflight.statusCode, 204);
    t.match(preflight.headers["access-control-allow-headers"], /x-read-primary/);
    const plain = await gw.app.inject({ method: "GET", url: "/api/v1/company/public/1" });
    const primary = await gw.app.inject({
      method: "GET",
      url: "/api/v1/company/public/1",
      headers: { "x-read-primary": "1" },
    });
    t.equal(primary.statusCode, plain.statusCode);
    t.equal(primary.body, plain.body);
  },
);
