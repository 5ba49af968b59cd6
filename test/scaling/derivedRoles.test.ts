// Instances started without GATEWAY_DATABASE_URL / SERVICE_DATABASE_URL derive the roles'
// passwords from DATABASE_URL (gateway/pool.ts): a second instance sets the same password, so the
// first one still opens new connections. Each start used to set a fresh random password, which
// locked every earlier instance out. On a cluster of this test's own: the roles are cluster-wide,
// and changing their passwords on the shared test cluster would lock out every other test file.

import pg from "pg";
import t from "tap";
import { withClient } from "../../db/databases.ts";
import { derivedPassword, deriveGatewayUrl, deriveServiceUrl } from "../../gateway/pool.ts";
import { whoAmI } from "../harness/cluster.ts";
import { restartableCluster } from "../ops/cluster.ts";

t.test("instances deriving the roles' URLs from one DATABASE_URL do not lock each other out", async (t) => {
  const cluster = await restartableCluster(t);
  await withClient(cluster.url, (c) =>
    c.query("CREATE ROLE api_gateway NOLOGIN; CREATE ROLE api_service NOLOGIN"),
  );

  const first = await deriveGatewayUrl(cluster.url);
  const firstService = await deriveServiceUrl(cluster.url);
  t.equal(await whoAmI(first), "api_gateway");
  // The first instance's pool holds a connection while the second instance starts.
  const pool = new pg.Pool({ connectionString: first, max: 2 });
  // Ended in this test, before the cluster's teardown stops the server: a client still open then
  // is terminated, and the pool's error would fail the run.
  pool.on("error", () => {});
  const held = await pool.connect();
  try {
    const second = await deriveGatewayUrl(cluster.url);
    const secondService = await deriveServiceUrl(cluster.url);
    t.equal(second, first, "the second instance derives the same gateway URL");
    t.equal(secondService, firstService, "and the same service URL");
    const fresh = await pool.connect();
    t.equal(
      (await fresh.query("SELECT current_user AS u")).rows[0].u,
      "api_gateway",
      "the first opens new connections",
    );
    fresh.release();
  } finally {
    held.release();
    await pool.end();
  }
  t.equal(await whoAmI(firstService), "api_service");

  const admin = new URL(cluster.url);
  const gatewayPassword = new URL(first).password;
  t.not(gatewayPassword, decodeURIComponent(admin.password), "not the admin's password");
  t.not(gatewayPassword, new URL(firstService).password, "each role its own password");
  const other = new URL(cluster.url);
  other.password = "another-admin-password";
  t.not(
    await derivedPassword(other.toString(), "api_gateway"),
    gatewayPassword,
    "another admin password, another one",
  );
  const none = new URL(cluster.url);
  none.password = "";
  t.not(
    await derivedPassword(none.toString(), "api_gateway"),
    await derivedPassword(none.toString(), "api_gateway"),
    "no admin password to derive from: a random one each time",
  );
});
