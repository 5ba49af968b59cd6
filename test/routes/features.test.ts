// Route functions on a schema made to reach every feature (features.schema.json, seeded with
// features.seed.sql): where operators and value forms, raw SQL mentions, joins, subqueries at any
// depth, column and table permissions, ONE's 404 and 409, wide objects, long names.

import t from "tap";
import { type Ctx, exact, FEATURES_SCHEMA, FEATURES_SEED, routeDatabase } from "./helpers.ts";

const admin = { role: "admin", scopes: ["finance", "reports"], teamId: 1, nick: "100%" };
const member = { role: "member", scopes: [], teamId: 1, nick: "_" };
const CAST = "A0400: A request value does not match the type of the column it is compared with";

t.test("features", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const ids = async (route: string, params: unknown, ctx: Ctx = admin) =>
    ((await db.body(route, params, ctx)) as { data: { id: number }[] }).data.map((r) => r.id);

  t.test("ONE with joins and a subquery, all columns visible", async (t) => {
    exact(t, await db.body("GET /api/v1/member/:id", { id: 1 }, admin), {
      data: {
        id: 1,
        name: "Ann",
        code: "AAA",
        joinedOn: "2023-05-01",
        lastSeen: "2024-01-02T03:04:05.123456+00:00",
        score: 10,
        ratio: 0.5,
        active: true,
        profile: { city: "Oslo", level: 3 },
        salary: 5000,
        note: null,
        teamName: "Red",
        teamSecret: "red-secret",
        mentorName: null,
        tags: [
          { tag: "ops", weight: 5 },
          { tag: "lead", weight: 2 },
        ],
      },
    });
  });

  t.test("ONE: hidden columns (joined table's too) are left out", async (t) => {
    exact(t, await db.body("GET /api/v1/member/:id", { id: 2 }, member), {
      data: {
        id: 2,
        name: "Bob 50% off",
        code: "B%B",
        joinedOn: "2024-02-29",
        lastSeen: null,
        score: 20,
        ratio: 1.25,
        active: true,
        profile: { city: "Rome" },
        note: "likes 100%",
        teamName: "Red",
        mentorName: "Ann",
        tags: [{ tag: "ops", weight: 1 }],
      },
    });
  });

  t.test("ONE: none is A0404, several A0409", async (t) => {
    t.equal(
      await db.error("GET /api/v1/member/by-team", { teamId: 3 }, member),
      "A0404: No member matches the request",
    );
    t.equal(
      await db.error("GET /api/v1/member/by-team", { teamId: 1 }, member),
      "A0409: More than one member matches the request",
    );
    t.equal(
      await db.error("GET /api/v1/member/:id", { id: 99 }, admin),
      "A0404: No member matches the request",
    );
  });

  t.test("AND binds tighter than OR", async (t) => {
    // active IS TRUE AND score >= $minScore OR joinedOn < $since AND note IS NOT NULL
    t.same(await ids("GET /api/v1/member/where", { minScore: 20, since: "2023-01-01" }), [2, 4]);
    t.same(await ids("GET /api/v1/member/where", { minScore: 100, since: "2024-03-01" }), [2, 4]);
    t.same(await ids("GET /api/v1/member/where", { minScore: 100, since: "2030-01-01" }), [2, 3, 4]);
    t.same(await ids("GET /api/v1/member/where", {}), [], "absent parameters compare as NULL");
  });

  t.test("every where operator", async (t) => {
    const ops = (params: Record<string, unknown>, ctx: Ctx = admin) =>
      ids("GET /api/v1/member/ops", params, ctx);
    // scores: 1:10 2:20 3:30 4:20 5:-5
    t.same(await ops({ op: "eq", n: 20 }), [2, 4], "=");
    t.same(await ops({ op: "ne", n: 20 }), [1, 3, 5], "!=");
    t.same(await ops({ op: "lt", n: 20 }), [1, 5], "<");
    t.same(await ops({ op: "gt", n: 20 }), [3], ">");
    t.same(await ops({ op: "lte", n: 20 }), [1, 2, 4, 5], "<=");
    t.same(await ops({ op: "gte", n: 20 }), [2, 3, 4], ">=");
    // names: Ann, "Bob 50% off", Cy_d, Dee\x, eve
    t.same(await ops({ op: "like", s: "E" }), [4, 5], "LIKE is case-insensitive contains");
    t.same(await ops({ op: "notlike", s: "E" }), [1, 2, 3], "NOT LIKE");
    t.same(await ops({ op: "sw", s: "b" }), [2], "STARTS WITH");
    t.same(await ops({ op: "ew", s: "X" }), [4], "ENDS WITH");
    t.same(await ops({ op: "like", s: "%" }), [2], "% matches itself only");
    t.same(await ops({ op: "like", s: "_" }), [3], "_ matches itself only");
    t.same(await ops({ op: "like", s: "\\" }), [4], "\\ matches itself only");
    t.same(await ops({ op: "sw", s: "%" }), [], "STARTS WITH %");
    t.same(await ops({ op: "ew", s: "_d" }), [3], "ENDS WITH _d");
    t.same(await ops({ op: "in", ids: [1, 3, 99] }), [1, 3], "IN $param");
    t.same(await ops({ op: "in", ids: [] }), [], "IN an empty list");
    t.same(await ops({ op: "notin", ids: [1, 3] }), [2, 4, 5], "NOT IN $param");
    t.same(await ops({ op: "notin" }), [1, 2, 3, 4, 5], "NOT IN an absent list");
    t.same(await ops({ op: "instr", names: ["AAA", "E"] }), [1, 5], "IN text values on a char(3) column");
    t.same(await ops({ op: "inlist" }), [1, 3], "IN literals");
    t.same(await ops({ op: "notinlist" }), [2, 4, 5], "NOT IN numbers");
    t.same(await ops({ op: "isnull" }), [1, 5], "IS NULL");
    t.same(await ops({ op: "isfalse" }), [3, 5], "IS FALSE");
    t.same(await ops({ op: "isnottrue" }), [3, 5], "IS NOT TRUE");
    t.same(await ops({ op: "likelit" }), [2], "LIKE '50%': the literal's % is literal too");
    t.same(await ops({ op: "likeglobal" }), [2], "LIKE #nick = 100%");
    t.same(await ops({ op: "likeglobal" }, member), [3], "LIKE #nick = _");
    t.same(await ops({ op: "likenum" }), [2, 4], "LIKE 2 on an integer column");
    t.same(await ops({ op: "global" }), [1, 2, 3], "= #teamId");
    t.same(await ops({ op: "global" }, { ...member, teamId: 2 }), [4, 5]);
    t.same(await ops({ op: "column" }), [], "= a column reference");
    t.same(await ops({ op: "date" }), [2, 3, 5], ">= a date literal");
    t.same(await ops({ op: "uuid", s: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" }), [1], "uuid");
    t.same(await ops({ op: "json", obj: { city: "Rome" } }), [2], "a JSON column = an object parameter");
    t.equal(await db.error("GET /api/v1/member/ops", { op: "uuid", s: "nope" }, admin), CAST);
    t.equal(await db.error("GET /api/v1/member/ops", { op: "eq", n: "1 OR 1=1" }, admin), CAST);
    t.equal(await db.error("GET /api/v1/member/ops", { op: "in", ids: ["1", "x"] }, admin), CAST);
    t.equal(await db.error("GET /api/v1/member/ops", { op: "in", ids: "1" }, admin), CAST);
  });

  t.test("raw SQL: $param / #global mentions, typed when compared with a column", async (t) => {
    exact(t, await db.body("GET /api/v1/member/raw", { since: "2023-06-01", label: "L" }, admin), {
      data: [
        { id: 2, label: "L: Bob 50% off", teamSize: 3, literal: "it's" },
        { id: 3, label: "L: Cy_d", teamSize: 3, literal: "it's" },
      ],
    });
    t.same(
      await ids("GET /api/v1/member/raw", { since: "2000-01-01", label: "x" }, { ...admin, teamId: 2 }),
      [4, 5],
    );
    t.equal(await db.error("GET /api/v1/member/raw", { since: "soon", label: "x" }, admin), CAST);
    exact(
      t,
      await db.body(
        "GET /api/v1/member/raw",
        { since: "2024-07-01", label: "'); DROP TABLE member; --" },
        admin,
      ),
      { data: [{ id: 3, label: "'); DROP TABLE member; --: Cy_d", teamSize: 3, literal: "it's" }] },
    );
  });

  t.test("raw SQL naming a table reads its API view, never a temporary table", async (t) => {
    // api_gateway has no TEMPORARY privilege (the layer revokes it); granted here to show that
    // even a temporary table would not be picked up.
    const { rows } = await db.su.query("SELECT current_database() AS d");
    const database = `"${rows[0].d}"`;
    t.equal(
      (await db.gw.query(`SELECT has_database_privilege(current_database(), 'TEMPORARY') AS p`)).rows[0].p,
      false,
      "no TEMPORARY privilege",
    );
    await db.su.query(`GRANT TEMPORARY ON DATABASE ${database} TO api_gateway`);
    t.teardown(() => db.su.query(`REVOKE TEMPORARY ON DATABASE ${database} FROM api_gateway`));
    await db.gw.query(`CREATE TEMP TABLE "member" ("teamId" bigint)`);
    await db.gw.query(`INSERT INTO "member" SELECT 1 FROM generate_series(1, 100)`);
    const body = (await db.body("GET /api/v1/member/raw", { since: "2023-06-01", label: "L" }, admin)) as {
      data: { teamSize: number }[];
    };
    await db.gw.query(`DROP TABLE pg_temp."member"`);
    t.same(
      body.data.map((r) => r.teamSize),
      [3, 3],
    );
  });

  t.test("chained, RIGHT and custom joins", async (t) => {
    exact(t, await db.body("GET /api/v1/tag-link/joined", {}, member), {
      data: [
        { tag: "lead", memberName: "Ann", teamName: "Red", everyone: "Ann" },
        { tag: "ops", memberName: "Ann", teamName: "Red", everyone: "Ann" },
        { tag: "ops", memberName: "Bob 50% off", teamName: "Red", everyone: "Bob 50% off" },
        { tag: "dev", memberName: "Cy_d", teamName: "Red", everyone: "Cy_d" },
        { tag: "ops", memberName: "Cy_d", teamName: "Red", everyone: "Cy_d" },
        { tag: null, memberName: null, teamName: null, everyone: "Dee\\x" },
        { tag: null, memberName: null, teamName: null, everyone: "eve" },
      ],
    });
  });

  t.test("composite primary key: default order is the whole key", async (t) => {
    exact(t, await db.body("GET /api/v1/tag-link", {}, member), {
      data: [
        { memberId: 1, tag: "lead" },
        { memberId: 1, tag: "ops" },
        { memberId: 2, tag: "ops" },
        { memberId: 3, tag: "dev" },
        { memberId: 3, tag: "ops" },
      ],
    });
  });

  t.test("nested subqueries see every enclosing query; hidden columns left out at any depth", async (t) => {
    const tags = (member: string, list: string[]) =>
      list.map((tag) => ({ tag, memberName: member, team: "Red" }));
    const expected = (withSalary: boolean) => ({
      data: [
        {
          id: 1,
          members: [
            {
              name: "Cy_d",
              ...(withSalary ? { salary: null } : {}),
              teamName: "Red",
              tags: tags("Cy_d", ["dev", "ops"]),
            },
            {
              name: "Bob 50% off",
              ...(withSalary ? { salary: 4200.1 } : {}),
              teamName: "Red",
              tags: tags("Bob 50% off", ["ops"]),
            },
            {
              name: "Ann",
              ...(withSalary ? { salary: 5000 } : {}),
              teamName: "Red",
              tags: tags("Ann", ["lead", "ops"]),
            },
          ],
        },
        {
          id: 2,
          members: [
            { name: "eve", ...(withSalary ? { salary: null } : {}), teamName: "Blue", tags: [] },
            { name: "Dee\\x", ...(withSalary ? { salary: 100 } : {}), teamName: "Blue", tags: [] },
          ],
        },
        { id: 3, members: [] },
      ],
    });
    exact(t, await db.body("GET /api/v1/team/nested", {}, admin), expected(true));
    exact(t, await db.body("GET /api/v1/team/nested", {}, member), expected(false));
  });

  t.test("table rule: base, joined and subquery tables", async (t) => {
    const denied = "A0403: You do not have permission to access this table";
    t.equal(await db.error("GET /api/v1/vault", {}, member), denied, "base table");
    t.equal(await db.error("GET /api/v1/team/vault-join", {}, member), denied, "joined table");
    t.equal(await db.error("GET /api/v1/team", {}, member), denied, "subquery table");
    exact(t, await db.body("GET /api/v1/vault", {}, admin), {
      data: [
        { id: 1, content: "gold" },
        { id: 2, content: "silver" },
        { id: 3, content: "bronze" },
      ],
    });
    exact(t, await db.body("GET /api/v1/team", {}, admin), {
      data: [
        { id: 1, name: "Red", budget: 1000.5, vaults: [{ content: "gold" }, { content: "silver" }] },
        { id: 2, name: "Blue", budget: null, vaults: [{ content: "bronze" }] },
        { id: 3, name: "Empty", budget: 0, vaults: [] },
      ],
    });
  });

  t.test("every column hidden is A0403; one visible is enough", async (t) => {
    t.equal(
      await db.error("GET /api/v1/team/:id/secrets", { id: 1 }, member),
      "A0403: You do not have permission to access any columns in this table",
    );
    exact(
      t,
      await db.body("GET /api/v1/team/:id/secrets", { id: 1 }, { role: "member", scopes: ["finance"] }),
      {
        data: { budget: 1000.5 },
      },
    );
    exact(t, await db.body("GET /api/v1/team/:id/secrets", { id: 1 }, { role: "admin", scopes: [] }), {
      data: { secret: "red-secret" },
    });
  });

  t.test("route roles and scopes: both needed", async (t) => {
    const denied = "A0403: Insufficient permissions";
    t.equal(await db.error("GET /api/v1/team/report", {}, member), denied, "role without the scope");
    t.equal(
      await db.error("GET /api/v1/team/report", {}, { role: null, scopes: ["reports"] }),
      denied,
      "scope, no role",
    );
    t.equal(await db.error("GET /api/v1/team/report", {}, { role: "guest", scopes: ["reports"] }), denied);
    t.same(await ids("GET /api/v1/team/report", {}, { role: "member", scopes: ["reports"] }), [1, 2, 3]);
  });

  t.test("a literal holding the dollar-quote tag", async (t) => {
    exact(t, await db.body("GET /api/v1/member/dollar", {}, member), {
      data: [
        { id: 2, quote: "'$fn$'" },
        { id: 3, quote: "'$fn$'" },
        { id: 4, quote: "'$fn$'" },
      ],
    });
  });

  t.test("more than 50 properties", async (t) => {
    const full = (await db.body("GET /api/v1/member/:id/wide", { id: 1 }, admin)) as {
      data: Record<string, unknown>;
    };
    const names = Array.from({ length: 55 }, (_, i) => `p${String(i + 1).padStart(2, "0")}`);
    t.same(Object.keys(full.data), names, "all keys, in order");
    t.equal(full.data.p30, 5000);
    t.equal(full.data.p55, "Ann");
    const hidden = (await db.body("GET /api/v1/member/:id/wide", { id: 1 }, member)) as {
      data: Record<string, unknown>;
    };
    t.same(
      Object.keys(hidden.data),
      names.filter((n) => n !== "p30"),
    );
  });

  t.test("a name past 63 bytes is shortened with a hash", async (t) => {
    const name = "GET /api/v1/member/a-very-long-path-segment-that-goes-on/and-on/and-on-and-on";
    t.same(await ids(name, {}, member), [1, 2, 3, 4, 5]);
    const { rows } = await db.su.query(
      "SELECT proname FROM pg_proc WHERE pronamespace = 'api'::regnamespace AND proname LIKE 'GET /api/v1/member/a-very%'",
    );
    t.same(
      rows.map((r) => r.proname),
      ["GET /api/v1/member/a-very-long-path-segment-that-goes- b2731493"],
    );
  });

  t.test(
    "standard routes, reads and writes, get a function, owned by api_owner, executable by the gateway",
    async (t) => {
      const { rows } = await db.su.query(`
      SELECT p.proname, pg_get_userbyid(p.proowner) AS owner, p.prosecdef,
             has_function_privilege('api_gateway', p.oid, 'EXECUTE') AS gateway,
             has_function_privilege('public', p.oid, 'EXECUTE') AS public
      FROM pg_proc p WHERE p.pronamespace = 'api'::regnamespace AND (p.proname LIKE 'GET %' OR p.proname LIKE 'POST %')
      ORDER BY 1`);
      t.equal(rows.length, 19);
      t.same(
        rows.filter((r) => r.proname.startsWith("POST")).map((r) => r.proname),
        ["POST /api/v1/member"],
        "the write route has its function",
      );
      t.ok(rows.every((r) => r.owner === "api_owner" && r.prosecdef && r.gateway && !r.public));
    },
  );
});
