// The standard routes' statement runner (gateway/cellQuery.ts): one text cell per call, a named
// statement parsed once per connection, no row description asked for, NULL both ways, and errors
// that end the statement but leave the connection serving the next one; through the gateway,
// named route statements, or none with PG_PREPARED_STATEMENTS=0. On a real server.

import type pg from "pg";
import t from "tap";
import { CellQuery, type CellStatement, cellStatement } from "../../gateway/cellQuery.ts";
import { createPool } from "../../gateway/pool.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { testGateway } from "../harness/gateway.ts";
import { caller } from "./helpers.ts";

function run(client: pg.Client, statement: CellStatement): Promise<pg.QueryArrayResult> {
  return new Promise((resolve, reject) => {
    const query = new CellQuery(statement);
    query.callback = (error, result) => (error || !result ? reject(error) : resolve(result));
    client.query(query);
  });
}

/** Counts the server's replies of the kinds named. */
function counted(client: pg.Client, kinds: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  for (const kind of kinds) {
    counts[kind] = 0;
    connection.on(kind, () => {
      counts[kind] = (counts[kind] ?? 0) + 1;
    });
  }
  return counts;
}

const REPLIES = ["parseComplete", "rowDescription", "readyForQuery"];

t.test("a named statement: parsed once per connection, one cell per call", async (t) => {
  const client = await connect(t, await testDatabase(t));
  const replies = counted(client, REPLIES);
  const text = "SELECT $1::text || '!'";
  t.same((await run(client, cellStatement("cell_1", text, ["a"]))).rows, [["a!"]]);
  t.same((await run(client, cellStatement("cell_1", text, ["b"]))).rows, [["b!"]]);
  t.equal(replies.parseComplete, 1, "parsed on the first call only");
  t.equal(replies.rowDescription, 0, "no Describe: the server sends no row description");
  t.equal(replies.readyForQuery, 2, "one round trip a call");
  const held = await client.query("SELECT statement FROM pg_prepared_statements WHERE name = 'cell_1'");
  t.equal(held.rows[0]?.statement, text, "the server holds the statement under its name");
});

t.test("statements before the cell: one batch, one transaction, the last statement's cell", async (t) => {
  const client = await connect(t, await testDatabase(t));
  const replies = counted(client, REPLIES);
  const setting = { name: "cell_set", text: "SELECT set_config('app.x', $1, true)", values: ["one"] };
  const reads = "SELECT current_setting('app.x', true) || $1::text";
  const result = await run(client, cellStatement("cell_read", reads, ["!"], { before: [setting] }));
  t.same(result.rows, [["one!"]], "the cell is the last statement's, which sees the first's setting");
  t.equal(replies.readyForQuery, 1, "one round trip");
  t.equal(replies.parseComplete, 2, "both parsed on the first run");
  const after = await client.query("SELECT current_setting('app.x', true) AS x");
  t.equal(after.rows[0].x ?? "", "", "the setting was transaction-local: gone after the Sync");
  // A failing statement in the middle skips the rest: the cell's statement, named and written
  // after it, was never parsed, and the next run parses it again instead of trusting a name the
  // server does not hold.
  const failing = { name: undefined, text: "SELECT 1 / $1::int", values: ["0"] };
  const fresh = "SELECT $1::text || '?'";
  await t.rejects(run(client, cellStatement("cell_fresh", fresh, ["a"], { before: [setting, failing] })), {
    code: "22012",
  });
  t.same((await run(client, cellStatement("cell_fresh", fresh, ["b"]))).rows, [["b?"]]);
  // Parameter types for a text that leaves them open.
  const typed = cellStatement(undefined, "SELECT $1 ->> 'k'", ['{"k":"v"}'], { paramTypes: [3802] });
  t.same((await run(client, typed)).rows, [["v"]], "jsonb as declared");
});

t.test("an unnamed statement is parsed every time", async (t) => {
  const client = await connect(t, await testDatabase(t));
  const replies = counted(client, REPLIES);
  for (const value of ["x", "y"]) {
    t.same((await run(client, cellStatement(undefined, "SELECT upper($1)", [value]))).rows, [
      [value.toUpperCase()],
    ]);
  }
  t.equal(replies.parseComplete, 2);
  const held = await client.query("SELECT count(*)::int AS n FROM pg_prepared_statements");
  t.equal(held.rows[0].n, 0, "nothing kept on the connection");
});

t.test("NULL as a value and as the cell; no row at all", async (t) => {
  const client = await connect(t, await testDatabase(t));
  t.same((await run(client, cellStatement("cell_null", "SELECT $1::text", [null]))).rows, [[null]]);
  const none = await run(client, cellStatement("cell_none", "SELECT 1 WHERE false", []));
  t.same(none.rows, [], "no row: no cell");
  t.equal(none.rowCount, 0);
});

t.test("an error ends the statement, not the connection", async (t) => {
  const client = await connect(t, await testDatabase(t));
  await t.rejects(
    run(client, cellStatement("cell_div", "SELECT (1 / $1::int)::text", ["0"])),
    { code: "22012" },
    "the server's own error, SQLSTATE and all",
  );
  t.same(
    (await run(client, cellStatement("cell_div", "SELECT (1 / $1::int)::text", ["2"]))).rows,
    [["0"]],
    "the same statement serves the next call on the same connection",
  );
  await t.rejects(run(client, cellStatement("cell_bad", "SELEC 1", [])), { code: "42601" });
  // Its Parse failed: the connection must not believe it prepared (it would send no Parse and
  // the server would answer 26000, "prepared statement does not exist").
  await t.rejects(
    run(client, cellStatement("cell_bad", "SELEC 1", [])),
    { code: "42601" },
    "parsed again, and refused for the same reason",
  );
  t.same((await client.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
});

t.test("a name already standing for another text is refused before anything is sent", async (t) => {
  const client = await connect(t, await testDatabase(t));
  await run(client, cellStatement("cell_same", "SELECT 'first'", []));
  const replies = counted(client, REPLIES);
  await t.rejects(
    run(client, cellStatement("cell_same", "SELECT 'second'", [])),
    /Prepared statements must be unique/,
  );
  t.same((await run(client, cellStatement("cell_same", "SELECT 'first'", []))).rows, [["first"]]);
  t.equal(replies.readyForQuery, 1, "the refused call reached no server");
});

t.test("the gateway's pool runs a cell statement as a CellQuery", async (t) => {
  const url = await testDatabase(t);
  const pool = createPool(url, 1);
  t.teardown(() => pool.end());
  const client = await pool.connect();
  const replies = counted(client as unknown as pg.Client, REPLIES);
  client.release();
  const result = await pool.query(
    cellStatement("cell_pool", "SELECT json_build_object('n', $1::int)", ["7"]),
  );
  t.same(result.rows, [['{"n" : 7}']], "the json cell as the server wrote it, not parsed");
  t.equal(replies.rowDescription, 0, "no row description: a CellQuery, not a pg.Query");
  await t.rejects(pool.query(cellStatement("cell_pool_err", "SELECT 1 / 0", [])), { code: "22012" });
  t.same(
    (await pool.query(cellStatement("cell_pool", "SELECT json_build_object('n', $1::int)", ["8"]))).rows,
    [['{"n" : 8}']],
  );
});

for (const prepared of [true, false]) {
  t.test(`the gateway's route calls with preparedStatements ${prepared}`, async (t) => {
    // One connection: the statement after the requests runs in the session that served them.
    const gw = await testGateway(t, "tpl_example", { poolSize: 1, preparedStatements: prepared });
    const as = caller("member1", []);
    // A route its function answers (raw SQL in its answer: generator/routes/kinds/readViews.ts).
    const first = await gw.request({ method: "GET", url: "/api/v1/project/1", as });
    t.equal(first.statusCode, 200);
    t.match(first.json(), { data: { id: 1 } });
    const again = await gw.request({ method: "GET", url: "/api/v1/project/1", as });
    t.equal(again.body, first.body, "the same answer from the second call");
    const held = await gw.pool.query<{ name: string }>(
      "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%\"GET /api/v1/project/:id\"%'",
    );
    t.equal(held.rows.length, prepared ? 1 : 0, prepared ? "one named statement" : "nothing prepared");
  });
}
