// `req.db`'s search_path (gateway/custom/db.ts): a temporary table named like a view must not
// stand in for it. Temporary tables live as long as the pooled connection, so one handler's
// `CREATE TEMP TABLE "task"` would otherwise change what every later handler on that connection
// reads as `FROM "task"`. Real pool, real role (api_gateway), one connection so both sessions
// share it. The layer revokes TEMPORARY from api_gateway (generator/api/layer.ts); this test
// grants it back on its own database, as an operator's database might, because the search_path
// must hold on its own.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { callerSession } from "../../gateway/custom/db.ts";
import { createPool } from "../../gateway/pool.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";

const ADMIN = { role: "admin", scopes: [], userId: 1, companyId: 1 };

t.test("a temporary table does not shadow an API view for req.db", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const su = await connect(t, url);
  await su.query(fs.readFileSync(path.join(REPO, "example/seed.sql"), "utf8"));
  await su.query(`GRANT TEMPORARY ON DATABASE "${new URL(url).pathname.slice(1)}" TO api_gateway`);
  const gatewayUrl = new URL(url);
  gatewayUrl.username = "api_gateway";
  gatewayUrl.password = GATEWAY_TEST_PASSWORD;
  // One connection: the second session runs where the first created its temporary table.
  const pool = createPool(gatewayUrl.toString(), 1);
  t.teardown(() => pool.end());
  const session = () =>
    callerSession(pool, { role: "admin", scopes: [], claims: {} } as never, JSON.stringify(ADMIN), {
      statementTimeoutMs: 5000,
      routes: new Map(),
    });

  const expected = Number(
    (await su.query(`SELECT count(*) AS n FROM public."task" WHERE "companyId" = 1`)).rows[0].n,
  );
  t.ok(expected > 0, "the seed has tasks of company 1");

  const first = session();
  await first.query(`CREATE TEMP TABLE "task" ("shadow" text)`);
  await first.query(`INSERT INTO pg_temp."task" VALUES ('planted')`);
  await first.end(true);

  const second = session();
  const read = await second.query<{ n: string }>(`SELECT count(*) AS n FROM "task"`);
  const shadow = await second.query<{ n: string }>(`SELECT count(*) AS n FROM pg_temp."task"`);
  await second.end(true);
  t.equal(Number(shadow.rows[0]?.n), 1, "the temporary table is still there on the connection");
  t.equal(Number(read.rows[0]?.n), expected, `FROM "task" reads the view api."task", not the temp table`);
});
