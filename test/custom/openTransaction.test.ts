// `req.db`'s opening (gateway/custom/openTransaction.ts): BEGIN, the context statement and the
// handler's first query leave in one batch and come back with one ReadyForQuery, the transaction
// stays open with the statement's settings, and a failing statement leaves nothing able to run
// after it. A named context statement is parsed once per connection. A handler's one query costs
// two round trips: the opening with the query, COMMIT; without BEGIN (req.db.queryAlone) the
// batch is one implicit transaction that the Sync commits, so it costs one.

import pg from "pg";
import t, { type Test } from "tap";
import { OpenTransaction } from "../../gateway/custom/openTransaction.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { oneConnectionCaller } from "./helpers.ts";

t.test("BEGIN and the context statement in one round trip", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  let ready = 0;
  connection.on("readyForQuery", () => ready++);

  const opening = new OpenTransaction({
    text: "SELECT set_config('api.test', $1, true)",
    values: ["it's set"],
  });
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

/** A pg.Query and its outcome (rows, or the error it failed with). */
function probeQuery(text: string) {
  const query = new pg.Query(text);
  const outcome = new Promise<unknown[] | Error>((resolve) => {
    (query as unknown as { callback: (e: Error | null, r: pg.QueryResult) => void }).callback = (e, r) =>
      resolve(e ?? r.rows);
  });
  return { query, outcome };
}

/** The context statement and `first` without BEGIN, as req.db.queryAlone sends them. */
const alone = (first: pg.Query) =>
  new OpenTransaction({ text: "SELECT set_config('api.test', $1, true)", values: ["set"] }, first as never, {
    begin: false,
  });

t.test(
  "without BEGIN: the context and the query in one implicit transaction, committed at the Sync",
  async (t) => {
    const url = await testDatabase(t, "tpl_example");
    const client = await connect(t, url);
    const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
    let ready = 0;
    connection.on("readyForQuery", () => ready++);
    await client.query("CREATE TEMP TABLE alone_probe (v text)");
    ready = 0;

    const first = probeQuery(
      "INSERT INTO alone_probe SELECT current_setting('api.test') RETURNING v, now() = statement_timestamp() AS alone",
    );
    const opening = alone(first.query);
    client.query(opening);
    await opening.done;
    t.same(
      await first.outcome,
      [{ v: "set", alone: false }],
      "the query saw the setting: the same transaction",
    );
    t.equal(ready, 1, "one round trip");
    const after = await client.query(
      "SELECT current_setting('api.test', true) AS value, (SELECT count(*)::int FROM alone_probe) AS kept",
    );
    t.same(
      after.rows[0],
      { value: "", kept: 1 },
      "the Sync ended it: the setting is gone, the row committed",
    );

    const failing = probeQuery("INSERT INTO alone_probe VALUES ('never') RETURNING 1 / 0");
    const again = alone(failing.query);
    client.query(again);
    await again.done;
    t.match(await failing.outcome, { code: "22012" }, "the query's own error");
    const rolledBack = await client.query("SELECT count(*)::int AS n FROM alone_probe");
    t.equal(rolledBack.rows[0].n, 1, "a failing query's transaction rolled back, the connection usable");
  },
);

t.test("a failing context statement leaves the transaction aborted", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const opening = new OpenTransaction({
    text: "SELECT set_config('api.test', $1, true), 1 / 0",
    values: ["x"],
  });
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

t.test("a named context statement is parsed once per connection, its values bound each time", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  let parsed = 0;
  connection.on("parseComplete", () => parsed++);
  const open = async (value: string) => {
    const opening = new OpenTransaction({
      name: "test_open",
      text: "SELECT set_config('api.test', $1, true)",
      values: [value],
    });
    client.query(opening);
    await opening.done;
    const got = (await client.query("SELECT current_setting('api.test') AS value")).rows[0].value;
    await client.query("COMMIT");
    return got;
  };
  parsed = 0;
  t.equal(await open("first"), "first", "the first opening sets its value");
  t.equal(parsed, 2, "BEGIN and the context statement (under its name) were parsed");
  parsed = 0;
  t.equal(await open("second"), "second", "the second opening binds its own value");
  t.equal(parsed, 1, "the second time only BEGIN was: the context statement is held");
  const held = await client.query("SELECT statement FROM pg_prepared_statements WHERE name = 'test_open'");
  t.equal(held.rowCount, 1, "the connection holds it under its name");

  const other = new OpenTransaction({
    name: "test_open",
    text: "SELECT 1 WHERE $1 IS NOT NULL",
    values: ["x"],
  });
  client.query(other);
  await t.rejects(
    other.done,
    /unique/,
    "another text under the same name is refused before anything is sent",
  );
  t.same(
    (await client.query("SELECT 1 AS one")).rows,
    [{ one: 1 }],
    "and the connection is not in a transaction",
  );
  t.equal(
    (await client.query("SELECT now() = statement_timestamp() AS autocommit")).rows[0].autocommit,
    true,
  );
});

t.test("a named context statement whose opening failed is parsed again", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const client = await connect(t, url);
  const failing = new OpenTransaction({
    name: "test_open_fail",
    text: "SELECT set_config('api.test', $1, true), 1 / length($1)",
    values: [""],
  });
  client.query(failing);
  await t.rejects(failing.done, { code: "22012" }, "the statement failed when it ran (it had parsed)");
  await client.query("ROLLBACK");
  const next = new OpenTransaction({
    name: "test_open_fail",
    text: "SELECT set_config('api.test', $1, true), 1 / length($1)",
    values: ["ok"],
  });
  client.query(next);
  await next.done;
  t.equal(
    (await client.query("SELECT current_setting('api.test') AS v")).rows[0].v,
    "ok",
    "it runs from then on",
  );
  await client.query("COMMIT");

  const unparsable = new OpenTransaction({ name: "test_open_bad", text: "SELEC 1", values: [] });
  client.query(unparsable);
  await t.rejects(unparsable.done, { code: "42601" }, "a text that does not parse fails the opening");
  await client.query("ROLLBACK");
  const again = new OpenTransaction({ name: "test_open_bad", text: "SELEC 1", values: [] });
  client.query(again);
  await t.rejects(again.done, { code: "42601" }, "and is sent again next time, not bound as if it were held");
  await client.query("ROLLBACK");
});

/** A one-connection caller whose ReadyForQuery messages are counted. */
async function countedSession(
  t: Test,
  options: { statementTimeoutMs?: number; preparedStatements?: boolean } = {},
) {
  const { pool, session } = await oneConnectionCaller(t, options);
  const client = await pool.connect();
  const counter = { ready: 0 };
  (client as unknown as { connection: NodeJS.EventEmitter }).connection.on(
    "readyForQuery",
    () => counter.ready++,
  );
  client.release();
  return { pool, counter, session };
}

t.test("req.db: a handler's one query is two round trips", async (t) => {
  const { counter, session } = await countedSession(t);
  const db = session();
  const result = await db.query<{ company: string; autocommit: boolean }>(
    "SELECT current_setting('api.ctx.companyId') AS company, now() = statement_timestamp() AS autocommit",
  );
  t.same(
    result.rows,
    [{ company: "1", autocommit: false }],
    "the query ran inside the transaction, with the caller's context",
  );
  t.equal(counter.ready, 1, "BEGIN, the context and the query came back with one ReadyForQuery");
  const second = await db.query<{ n: number }>("SELECT $1::int AS n", [7]);
  t.same(second.rows, [{ n: 7 }], "later queries run on the open transaction");
  await db.end(true);
  t.equal(counter.ready, 3, "the opening with the first query, the second query, COMMIT");
});

t.test(
  "req.db: the opening statement is prepared once per connection, or never when switched off",
  async (t) => {
    for (const preparedStatements of [true, false]) {
      const { session } = await countedSession(t, { preparedStatements });
      for (const n of [1, 2, 3]) {
        const db = session();
        const rows = await db.query<{ company: string; openings: number }>(
          "SELECT current_setting('api.ctx.companyId') AS company, " +
            "(SELECT count(*)::int FROM pg_prepared_statements WHERE name LIKE 'api_open_%') AS openings",
        );
        t.same(
          rows.rows,
          [{ company: "1", openings: preparedStatements ? 1 : 0 }],
          `preparedStatements ${preparedStatements}, request ${n}: the context is set; ${preparedStatements ? "one" : "no"} opening statement held`,
        );
        await db.end(true);
      }
    }
  },
);

t.test("req.db: the first query's own error is its own, and the connection stays usable", async (t) => {
  const { pool, session } = await countedSession(t);
  const db = session();
  await t.rejects(db.query("SELECT 1 / 0"), { code: "22012" }, "the query's error");
  await db.end(false);
  const next = session();
  t.same((await next.query("SELECT 2 AS two")).rows, [{ two: 2 }], "the next request runs on the connection");
  await next.end(true);
  t.equal(pool.totalCount, 1, "the same connection: the opening had succeeded, nothing was dropped");
});

t.test("req.db: when the opening fails, the first query does not run and fails with it", async (t) => {
  const { session } = await countedSession(t, { statementTimeoutMs: Number.NaN });
  const db = session();
  await t.rejects(
    db.query("SELECT 1 AS one"),
    { code: "22P02" },
    "the opening's error (a timeout that is not a number), not the query's answer",
  );
  await db.end(false);
});
