// `req.db` statements as named prepared statements (gateway/custom/preparedTexts.ts): planned once
// per connection from a text's second run on, never for one-off or non-data texts, at most 100
// per connection, and a statement Postgres can no longer run (its view changed columns, or handler
// SQL deallocated it) costs no request when it is the transaction's first.

import t, { type Test } from "tap";
import type { CallerDb } from "../../gateway/custom/types.ts";
import { connect } from "../harness/db.ts";
import { oneConnectionCaller } from "./helpers.ts";

async function onePool(t: Test, preparedStatements?: boolean) {
  const { url, pool, session } = await oneConnectionCaller(
    t,
    preparedStatements === undefined ? {} : { preparedStatements },
  );
  /** One request: `work` on a session, committed. */
  const request = async <T>(work: (db: ReturnType<typeof session>) => Promise<T>): Promise<T> => {
    const db = session();
    try {
      return await work(db);
    } finally {
      await db.end(true);
    }
  };
  return { url, pool, request };
}

let probe = 0;
/** The connection's prepared req.db statements, by a text never run before (so itself unnamed). */
async function prepared(db: CallerDb): Promise<string[]> {
  const { rows } = await db.query<{ statement: string }>(
    `SELECT statement FROM pg_catalog.pg_prepared_statements WHERE name LIKE 'req\\_db\\_%' ORDER BY 1 /* ${++probe} */`,
  );
  return rows.map((r) => r.statement);
}

/** The connection's backend, by a text never run before. */
async function backend(db: CallerDb): Promise<number | undefined> {
  return (await db.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid /* ${++probe} */`)).rows[0]?.pid;
}

/** Handler SQL deallocating the connection's req.db texts (not the opening statement). */
async function dropText(db: CallerDb): Promise<void> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM pg_catalog.pg_prepared_statements WHERE name LIKE 'req\\_db\\_%' /* ${++probe} */`,
  );
  for (const r of rows) await db.query(`DEALLOCATE "${r.name}"`);
}

/** Handler SQL deallocating everything the connection holds, the opening statement too. */
async function dropAll(db: CallerDb): Promise<void> {
  await db.query("DEALLOCATE ALL");
}

t.test("a text runs unnamed the first time, prepared from its second run on", async (t) => {
  const { request } = await onePool(t);
  const text = 'SELECT count(*)::int AS n FROM task WHERE "projectId" = $1';
  const first = await request(async (db) => ({
    rows: (await db.query(text, [1000])).rows,
    held: await prepared(db),
  }));
  t.same(first.held, [], "one run: nothing prepared");
  const second = await request(async (db) => ({
    rows: (await db.query(text, [1000])).rows,
    held: await prepared(db),
  }));
  t.same(second.rows, first.rows, "the same answer");
  t.same(second.held, [text], "the second run prepared it on the connection");
  const third = await request(async (db) => ({
    rows: (await db.query(text, [1000])).rows,
    held: await prepared(db),
  }));
  t.same(third.rows, first.rows, "the prepared statement answers as the unnamed one did");
  t.same(third.held, [text], "prepared once, not again");
});

t.test("PG_PREPARED_STATEMENTS=0 (a pooler without them): every text runs unnamed", async (t) => {
  const { request } = await onePool(t, false);
  const text = "SELECT count(*)::int AS n FROM task";
  for (let i = 0; i < 3; i++) {
    const held = await request(async (db) => {
      await db.query(text);
      return prepared(db);
    });
    t.same(held, [], `run ${i + 1}: nothing prepared`);
  }
});

t.test("statements that are not data statements are never prepared", async (t) => {
  const { request } = await onePool(t);
  for (let i = 0; i < 3; i++) {
    const held = await request(async (db) => {
      await db.query("SHOW search_path");
      return prepared(db);
    });
    t.same(held, [], `run ${i + 1}: SHOW is not kept`);
  }
});

t.test("a connection keeps at most 100 texts; past that new texts run unnamed", async (t) => {
  const { request } = await onePool(t);
  const texts = Array.from({ length: 105 }, (_, i) => `SELECT ${i} AS n`);
  for (let run = 0; run < 2; run++) {
    await request(async (db) => {
      for (const [i, text] of texts.entries()) t.same((await db.query(text)).rows, [{ n: i }]);
    });
  }
  const held = await request((db) => prepared(db));
  t.equal(held.length, 100, "100 of the 105 texts are prepared");
});

t.test("a prepared statement whose view changed columns", async (t) => {
  const { url, request } = await onePool(t);
  const su = await connect(t, url);
  await su.query("CREATE VIEW api.probe AS SELECT 1 AS a");
  const text = "SELECT * FROM probe";
  await request((db) => db.query(text));
  const before = await request(async (db) => {
    await db.query(text);
    return { held: await prepared(db), pid: await backend(db) };
  });
  t.same(before.held, [text], "prepared on the connection");

  await su.query("CREATE OR REPLACE VIEW api.probe AS SELECT 1 AS a, 2 AS b");
  const after = await request(async (db) => ({ rows: (await db.query(text)).rows, pid: await backend(db) }));
  t.same(
    after.rows,
    [{ a: 1, b: 2 }],
    "as the transaction's first statement it runs again, with the new column",
  );
  t.not(after.pid, before.pid, "on a new connection: the one holding the old plan was dropped");

  await request((db) => db.query(text));
  await su.query("CREATE OR REPLACE VIEW api.probe AS SELECT 1 AS a, 2 AS b, 3 AS c");
  const failedOn = await request(async (db) => {
    const current = await backend(db);
    await t.rejects(db.query(text), { code: "0A000" }, "later in a transaction it fails");
    return current;
  });
  const next = await request(async (db) => ({ rows: (await db.query(text)).rows, pid: await backend(db) }));
  t.not(next.pid, failedOn, "that connection was dropped at the end of its request");
  t.same(next.rows, [{ a: 1, b: 2, c: 3 }], "and the next request reads the view as it is");
});

t.test("statements that handler SQL deallocated cost no request", async (t) => {
  const { request } = await onePool(t);
  const text = `SELECT count(*)::int AS n FROM "task"`;
  const expected = await request((db) => db.query(text));
  await request((db) => db.query(text));
  const names = async (db: CallerDb) =>
    (
      await db.query<{ name: string }>(
        `SELECT name FROM pg_catalog.pg_prepared_statements ORDER BY 1 /* ${++probe} */`,
      )
    ).rows.map((r) => r.name);
  const held = await request(names);
  t.equal(held.filter((n) => n.startsWith("api_open_")).length, 1, "the opening statement is held");
  t.equal(held.filter((n) => n.startsWith("req_db_")).length, 1, "and the handler's text");

  // The handler's text alone (the next request's first query finds it gone), then everything,
  // the opening statement too (the next request's opening finds it gone).
  for (const [what, drop] of [
    ["the first query runs again (26000), on a fresh transaction", dropText],
    ["the opening runs again, with its first query", dropAll],
  ] as const) {
    await request((db) => db.query(text));
    const lostOn = await request(async (db) => {
      await drop(db);
      return backend(db);
    });
    const next = await request(async (db) => ({ rows: (await db.query(text)).rows, pid: await backend(db) }));
    t.same(next.rows, expected.rows, what);
    t.not(next.pid, lostOn, "on another connection: the one that lost it was dropped");
  }

  // Later in a transaction the query fails, and its connection is dropped at the end.
  await request((db) => db.query(text));
  const failedOn = await request(async (db) => {
    const pid = await backend(db);
    await dropText(db);
    await t.rejects(db.query(text), { code: "26000" }, "later in a transaction it fails");
    return pid;
  });
  t.not(await request(backend), failedOn, "that connection was dropped at the end of its request");
});

t.test("queryAlone: texts prepared as query's are, a lost statement costs no request", async (t) => {
  const { request } = await onePool(t);
  const text = 'SELECT count(*)::int AS n FROM task WHERE "projectId" = $1 /* alone */';
  const alone = () => request((db) => db.queryAlone<{ n: number }>(text, [1000]));
  const expected = await alone();
  t.same(await request(prepared), [], "one run: nothing prepared");
  await alone();
  t.same(await request(prepared), [text], "the second run prepared it on the connection");
  for (const [what, drop] of [
    ["its text dropped: it runs again, unnamed, on a fresh connection", dropText],
    ["everything dropped: the opening runs again, with it", dropAll],
  ] as const) {
    await alone();
    const lostOn = await request(async (db) => {
      await drop(db);
      return backend(db);
    });
    const next = await request(async (db) => (await db.queryAlone<{ n: number }>(text, [1000])).rows);
    t.same(next, expected.rows, what);
    t.not(await request(backend), lostOn, "the connection that lost it was dropped");
  }

  const unnamed = await onePool(t, false);
  for (let i = 0; i < 3; i++) await unnamed.request((db) => db.queryAlone(text, [1000]));
  t.same(await unnamed.request(prepared), [], "PG_PREPARED_STATEMENTS=0: never prepared");
});
