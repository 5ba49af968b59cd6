// `req.db`'s opening (gateway/custom/openTransaction.ts): BEGIN and the context statement leave
// in one batch and come back with one ReadyForQuery, the transaction stays open with the
// statement's settings, and a failing statement leaves nothing able to run after it. A handler's
// one query costs three round trips: the opening, the query, COMMIT.

import pg from "pg";
import t from "tap";
import { callerSession } from "../../gateway/custom/db.ts";
import { OpenTransaction } from "../../gateway/custom/openTransaction.ts";
import { connect, testDatabase } from "../harness/db.ts";

t.test("BEGIN and the context statement in one round trip", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  let ready = 0;
  connection.on("readyForQuery", () => ready++);

  const opening = new OpenTransaction("SELECT set_config('api.test', $1, true)", ["it's set"]);
  client.query(opening);
  await opening.done;
  t.equal(ready, 1, "one ReadyForQuery: the server answered both statements at once");

  const inside = await client.query(
    "SELECT current_setting('api.test') AS value, now() = statement_timestamp() AS autocommit",
  );
  t.equal(inside.rows[0].value, "it's set", "the value arrived as a bound parameter, quote and all");
  t.equal(inside.rows[0].autocommit, false, "the next statement runs inside the transaction BEGIN opened");
  await client.query("COMMIT");
  const after = await client.query("SELECT current_setting('api.test', true) AS value");
  t.equal(after.rows[0].value, "", "transaction-local: gone after COMMIT");
});

t.test("a failing context statement leaves the transaction aborted", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const opening = new OpenTransaction("SELECT set_config('api.test', $1, true), 1 / 0", ["x"]);
  client.query(opening);
  await t.rejects(opening.done, { code: "22012" }, "the statement's error is the opening's");
  await t.rejects(
    client.query("SELECT 1"),
    { code: "25P02" },
    "nothing runs after it until the transaction ends",
  );
  await client.query("ROLLBACK");
  t.same((await client.query("SELECT 1 AS one")).rows, [{ one: 1 }], "the connection is usable again");
});

t.test("req.db: a handler's one query is three round trips", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  t.teardown(() => pool.end());
  const client = await pool.connect();
  let ready = 0;
  (client as unknown as { connection: NodeJS.EventEmitter }).connection.on("readyForQuery", () => ready++);
  client.release();
  const ctx = { role: "admin", scopes: [], userId: 1, companyId: 1 };
  const session = callerSession(pool, { role: "admin", scopes: [], claims: {} } as never, ctx, {
    statementTimeoutMs: 5000,
    routes: new Map(),
  });
  const result = await session.query<{ company: string }>(
    "SELECT current_setting('api.ctx.companyId') AS company",
  );
  await session.end(true);
  t.same(result.rows, [{ company: "1" }], "the query ran with the caller's context");
  t.equal(ready, 3, "the opening (BEGIN and the context together), the query, COMMIT");
});
