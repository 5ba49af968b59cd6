// PAGED requests with a filter or sort run as prepared statements: one per shape and connection,
// reused across calls with other values, bounded per session, and the same answers as before.

import t from "tap";
import { MAX_PREPARED_SHAPES } from "../../generator/routes/kinds/paged.ts";
import { FEATURES_SCHEMA, FEATURES_SEED, routeDatabase } from "./helpers.ts";

const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
const ROUTE = "GET /api/v1/member/paged";

t.test("a filter shape is prepared once per connection and reused with other values", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const ids = async (value: string) =>
    (
      (await db.body(ROUTE, { filter: { column: "score", op: "gte", value } }, admin)) as {
        data: { id: number }[];
      }
    ).data.map((r) => r.id);
  const prepared = async () =>
    (await db.gw.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'q\\_%'`))
      .rows[0].n;

  t.equal(await prepared(), 0);
  const first = await ids("20");
  t.equal(await prepared(), 1, "the first call prepares its shape");
  t.not((await ids("0")).length, first.length, "another value gives another answer from the same statement");
  t.same(await ids("20"), first);
  t.equal(await prepared(), 1, "same shape, other values: no new statement");
  await db.body(ROUTE, { filter: { column: "score", op: "lt", value: "20" } }, admin);
  t.equal(await prepared(), 2, "another operator is another shape");
  await db.body(ROUTE, { sortBy: "score", sortOrder: "DESC" }, admin);
  t.equal(await prepared(), 3, "a sort is a shape too");
});

t.test("past the bound, shapes run unprepared and still answer", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  await db.gw.query(`SELECT set_config('api.q_count', $1, false)`, [String(MAX_PREPARED_SHAPES)]);
  const body = await db.body(ROUTE, { filter: { column: "score", op: "gte", value: "20" } }, admin);
  t.ok((body as { total: number }).total > 0);
  const n = (await db.gw.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).rows[0].n;
  t.equal(n, 0, "nothing was prepared");
});
