// PAGED requests with a filter or sort run their query through `EXECUTE ... USING`: the same
// answers with other values, and nothing left in the session that the caller could replace (no
// prepared statement, no session setting), so a statement the caller prepares under any name is
// never run by the function (it runs as api_owner). The database audit (test/security) tries the
// same against every function.

import t from "tap";
import { FEATURES_SCHEMA, FEATURES_SEED, routeDatabase } from "./helpers.ts";

const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
const ROUTE = "GET /api/v1/member/paged";

t.test("filter and sort shapes answer with every value, and leave no session state", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const ids = async (value: string) =>
    (
      (await db.body(ROUTE, { filter: { column: "score", op: "gte", value } }, admin)) as {
        data: { id: number }[];
      }
    ).data.map((r) => r.id);
  const first = await ids("20");
  t.not((await ids("0")).length, first.length, "another value gives another answer");
  t.same(await ids("20"), first);
  await db.body(ROUTE, { sortBy: "score", sortOrder: "DESC" }, admin);
  const prepared = await db.gw.query(`SELECT name FROM pg_prepared_statements`);
  t.same(prepared.rows, [], "no prepared statement");
  const settings = await db.gw.query(
    `SELECT name FROM pg_settings WHERE name LIKE 'api.%' AND name <> 'api.ctx' AND setting <> ''`,
  );
  t.same(settings.rows, [], "no api.* session setting");
});

t.test("a statement the caller prepared is never run", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const filter = { column: "score", op: "gte", value: "20" };
  const honest = await db.body(ROUTE, { filter }, admin);
  // Every name the old per-shape cache used was derivable from the function's source; here,
  // a few plausible ones and every setting it read.
  const { rows } = await db.su.query(
    `SELECT prosrc FROM pg_proc WHERE proname = $1 AND pronamespace = 'api'::regnamespace`,
    [ROUTE],
  );
  t.notMatch(rows[0].prosrc, /PREPARE|current_setting\('api\.q/, "the function prepares nothing");
  for (const name of ["q_forged", "api_q", "forged"]) {
    await db.gw.query(
      `PREPARE ${name}(jsonb, jsonb, text[]) AS SELECT json_build_object('forged', current_user)`,
    );
  }
  await db.gw.query(`SELECT set_config('api.q_count', '0', false)`);
  t.same(await db.body(ROUTE, { filter }, admin), honest);
});

t.test(
  "a single condition (static statement) answers as the same condition run through EXECUTE",
  async (t) => {
    const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
    // `{and: [c]}` is the same filter, but only a single condition takes the static statement.
    const values: Record<string, string[]> = {
      id: ["2", "3"],
      name: ["Ann", "b", "_d"],
      code: ["AAA", "D\\D"],
      joinedOn: ["2023-05-01", "2024-01-01"],
      lastSeen: ["2024-01-02T03:04:05.123456Z"],
      score: ["10", "20"],
      ratio: ["0.5", "3.75"],
      active: ["true"],
      profile: ['{"city": "Oslo"}'],
      salary: ["100.00", "5000"],
      note: ["back\\slash"],
      uid: ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],
      teamName: ["Red"],
    };
    const ops = ["eq", "ne", "gt", "gte", "lt", "lte", "has", "sw", "ew"];
    let compared = 0;
    for (const [column, list] of Object.entries(values)) {
      const conditions: unknown[] = [
        { column, op: "null" },
        { column, op: "notnull" },
        { column, op: "in", value: list },
        ...ops.flatMap((op) => list.map((value) => ({ column, op, value }))),
      ];
      for (const condition of conditions) {
        for (const params of [{ filter: condition }, { filter: condition, perPage: 2, page: 2 }]) {
          const single = await db.call(ROUTE, params, admin);
          const wrapped = await db.call(ROUTE, { ...params, filter: { and: [condition] } }, admin);
          t.same(single, wrapped, JSON.stringify(params));
          compared++;
        }
      }
    }
    t.ok(compared > 200, `${compared} requests compared`);
  },
);
