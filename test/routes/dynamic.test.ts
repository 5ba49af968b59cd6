// PAGED requests with a filter or sort run a query text built from the route's column map
// (`$3[n]` placeholders for the client's values) through api.execute_cached: the same answers
// with other values, and the only thing left in the session is that text's prepared statement,
// named by its digest. A statement the caller prepares under that name (or any other) never runs
// in its place: the function runs a prepared statement only when it holds exactly its text. The
// database audit (test/security) tries the same against every function.

import t from "tap";
import { MAX_CACHED_BYTES } from "../../generator/routes/helpers.ts";
import {
  cachedQueryName,
  cachedQueryText,
  FEATURES_SCHEMA,
  FEATURES_SEED,
  routeDatabase,
} from "./helpers.ts";

const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
const ROUTE = "GET /api/v1/member/paged";

/** A filter of two conditions on one column. */
const scoreAtLeast = (value: string) => ({
  and: [
    { column: "score", op: "gte", value },
    { column: "score", op: "lte", value: "1000000" },
  ],
});

/** `filter` and `n` more conditions that match every row: a long text, the same answer. */
const withConditions = (filter: { and: object[] }, n: number) => ({
  and: [
    ...filter.and,
    ...Array.from({ length: n }, (_, i) => ({ column: "score", op: "gte", value: String(i - n) })),
  ],
});

type Db = Awaited<ReturnType<typeof routeDatabase>>;
const cached = async (db: Db) =>
  (await db.gw.query(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`)).rows as {
    name: string;
    statement: string;
  }[];

t.test("filter and sort shapes answer with every value, and keep only their query texts", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const ids = async (value: string) =>
    ((await db.body(ROUTE, { filter: scoreAtLeast(value) }, admin)) as { data: { id: number }[] }).data.map(
      (r) => r.id,
    );
  const first = await ids("20");
  t.not((await ids("0")).length, first.length, "another value gives another answer");
  t.same(await ids("20"), first, "the cached statement answers as the first call");
  await db.body(ROUTE, { sortBy: "score", sortOrder: "DESC" }, admin);
  const prepared = await cached(db);
  t.equal(prepared.length, 2, "one statement per query text (a filter shape, a sort), not per value");
  for (const p of prepared) {
    const text = cachedQueryText(p.statement);
    t.equal(p.name, cachedQueryName(p.statement), "named by its text's digest");
    t.notMatch(text, /'20'|'0'/, "no client value in the text");
  }
  const settings = await db.gw.query(
    `SELECT name FROM pg_settings WHERE name LIKE 'api.%' AND name <> 'api.ctx' AND setting <> ''`,
  );
  t.same(settings.rows, [], "no api.* session setting");
});

t.test("a statement the caller prepared is never run", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const forge = async (name: string) => {
    await db.gw.query(`DEALLOCATE ${name}`).catch(() => {});
    await db.gw.query(
      `PREPARE ${name}(jsonb, jsonb, text[], text[], bigint, text) AS SELECT json_build_object('forged', current_user)`,
    );
  };
  // The name the function used, now with another text: dropped unrun, its own text prepared again.
  const filter = scoreAtLeast("20");
  const honest = await db.body(ROUTE, { filter }, admin);
  const [used] = await cached(db);
  if (!used) throw new Error("the filtered request cached no statement");
  await forge(used.name);
  t.same(await db.body(ROUTE, { filter }, admin), honest, "its name, with another text");
  t.same(await cached(db), [used], "the forged statement replaced by the function's own text");
  // A name forged before the function's first call in the session (learnt from another database).
  const other = { sortBy: "score", sortOrder: "DESC" };
  const elsewhere = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const expected = await elsewhere.body(ROUTE, other, admin);
  const [name] = (await cached(elsewhere)).map((p) => p.name);
  if (!name) throw new Error("the sorted request cached no statement");
  await forge(name);
  for (const plausible of ["q_forged", "api_q", "forged"]) await forge(plausible);
  t.same(await db.body(ROUTE, other, admin), expected, "a name forged in advance");
});

t.test(
  "the texts kept are bounded: the least used give way, a longer text is planned per call",
  async (t) => {
    const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
    const filter = scoreAtLeast("20");
    const expected = await db.body(ROUTE, { filter }, admin);
    const [own] = await cached(db);
    if (!own) throw new Error("the filtered request cached no statement");
    // Statements of ours whose texts leave one byte too few for this one: the cap counts bytes.
    await db.gw.query("DEALLOCATE ALL");
    const header = "PREPARE api_q_filler0 AS SELECT ''::text".length;
    const half = Math.floor((MAX_CACHED_BYTES - own.statement.length + 1) / 2);
    await db.gw.query(`PREPARE api_q_filler0 AS SELECT '${"x".repeat(half - header)}'::text`);
    await db.gw.query(
      `PREPARE api_q_filler1 AS SELECT '${"x".repeat(MAX_CACHED_BYTES - own.statement.length + 1 - half - header)}'::text`,
    );
    await db.gw.query("EXECUTE api_q_filler1");
    t.same(await db.body(ROUTE, { filter }, admin), expected);
    t.same(
      (await cached(db)).map((p) => p.name).sort(),
      [own.name, "api_q_filler1"].sort(),
      "the unused statement gave way, the used one stayed",
    );
    // A text longer than the whole cap: 300 conditions, each in the page and the count.
    const long = withConditions(filter, 300);
    const before = await cached(db);
    t.same(await db.body(ROUTE, { filter: long }, admin), await db.body(ROUTE, { filter }, admin));
    t.same(await cached(db), before, "a text over the cap is not prepared, nothing given way");
  },
);

t.test(
  "planned and estimated totals read prepared count statements, forged or over the cap alike",
  async (t) => {
    const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
    type Page = { data: unknown[]; total: number; totalMode?: string };
    const filter = scoreAtLeast("20");
    const exact = (await db.body(ROUTE, { filter }, admin)) as Page;
    const estimated = (await db.body(ROUTE, { filter, $count: "estimated" }, admin)) as Page;
    t.same(
      [estimated.total, estimated.totalMode],
      [exact.total, "exact"],
      "estimated: counted below the threshold",
    );
    const planned = (await db.body(ROUTE, { filter, $count: "planned" }, admin)) as Page;
    t.equal(planned.totalMode, "planned");
    t.ok(Number.isInteger(planned.total) && planned.total >= 0, `planned: an estimate (${planned.total})`);
    const texts = (await cached(db)).map((p) => cachedQueryText(p.statement));
    t.ok(
      texts.some((s) => s.startsWith("SELECT to_json(count(*)) FROM (SELECT 1, ")),
      "the estimated count ran as a prepared statement",
    );
    const countText = texts.find((s) => s.startsWith("SELECT 1, "));
    t.ok(
      countText,
      "the planned total's count query is a prepared statement (its plan read by EXPLAIN EXECUTE)",
    );

    // Its name, now with another text: dropped unrun (unexplained), its own text prepared again.
    const [countStatement] = (await cached(db)).filter((p) => cachedQueryText(p.statement) === countText);
    if (!countStatement) throw new Error("no count statement");
    await db.gw.query(`DEALLOCATE ${countStatement.name}`);
    await db.gw.query(
      `PREPARE ${countStatement.name}(jsonb, jsonb, text[], text[], bigint, text) AS SELECT 1 FROM generate_series(1, 123456)`,
    );
    t.same(
      await db.body(ROUTE, { filter, $count: "planned" }, admin),
      planned,
      "a forged count statement is not explained",
    );

    // Over the cap (700 conditions: the count query alone is longer than the cap): planned per
    // call, still an estimate, nothing kept.
    const long = withConditions(filter, 700);
    const before = await cached(db);
    const over = (await db.body(ROUTE, { filter: long, $count: "planned" }, admin)) as Page;
    t.equal(over.totalMode, "planned");
    t.ok(Number.isInteger(over.total) && over.total >= 0, `over the cap: an estimate (${over.total})`);
    t.same(await cached(db), before, "a text over the cap is not prepared");
  },
);

t.test("a filter of one comparison is the text api.filter_sql writes for it", async (t) => {
  // The route function writes such a filter itself (paged.ts filterStatement); the same condition
  // must be the same text, so that it is the same prepared statement whichever path wrote it.
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const { rows } = await db.su.query<{ map: string }>(
    `SELECT substring(prosrc from '_api_columns := ''((?:[^'']|'''')*)''::jsonb') AS map
     FROM pg_proc WHERE proname = $1`,
    [ROUTE],
  );
  const map = rows[0]?.map.replaceAll("''", "'");
  if (!map) throw new Error("no column map in the route function");
  const nodes = [
    { column: "name", op: "eq", value: "Ann" },
    { column: "score", op: "gt", value: "10" },
    { column: "joinedOn", op: "lte", value: "2024-01-01" },
    { column: "active", op: "ne", value: "true" },
    { column: "profile", op: "eq", value: '{"city": "Rome"}' },
    { column: "t.name", op: "lt", value: "Blue" },
  ];
  for (const node of nodes) {
    await db.gw.query("DEALLOCATE ALL");
    await db.body(ROUTE, { filter: node }, admin);
    const [prepared] = await cached(db);
    if (!prepared) throw new Error("the filtered request cached no statement");
    const written = await db.su.query<{ clause: string }>(
      `SELECT (api.filter_sql($1::jsonb, $2::jsonb, '{}', 0)).clause`,
      [JSON.stringify(node), map],
    );
    const clause = written.rows[0]?.clause as string;
    t.ok(
      cachedQueryText(prepared.statement).includes(`AND ${clause}`),
      `${node.column} ${node.op}: ${clause}`,
    );
  }
});
