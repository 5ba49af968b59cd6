// PAGED keyset pages (`after`) and total modes (`$count`: exact, planned, estimated) in the route
// function (generator/routes/kinds/paged.ts, pagedKeyset.ts). Keyset pages must give exactly the
// rows offset pages give, in the same order, for every sort the route offers (NULLs first or
// last as ORDER BY puts them, ties broken by the primary key, key and tiebreak in the same or
// opposite directions); a cursor is checked against the request and its values are bound, never
// SQL.
// Schemas: nulls.schema.json (ranks 2, NULL, 1, NULL, 2, 3 for ids 1-6), features.schema.json, the
// Restura fixture (a planned total from pg_class) and a scratch one (a primary key only admins see).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { decodedCursor } from "../../gateway/routes/cursor.ts";
import { buildModel } from "../../generator/model/index.ts";
import { fastCursorKeys } from "../../generator/routes/kinds/fastCursor.ts";
import type { StandardRoute } from "../../generator/schema/types.ts";
import { column, id, standardRoute, table } from "../harness/app.ts";
import { FEATURES_SCHEMA, FEATURES_SEED, RESTURA_FIXTURE, RESTURA_SEED, routeDatabase } from "./helpers.ts";

const NULLS_SCHEMA = path.join(import.meta.dirname, "nulls.schema.json");
const NULLS_SEED = fs.readFileSync(path.join(import.meta.dirname, "nulls.seed.sql"), "utf8");
const user = { role: "user", scopes: [] };

interface Page {
  data: { id: number }[];
  total: number;
  next?: string | null;
  totalMode?: string;
}

t.test("keyset pages equal offset pages", async (t) => {
  const db = await routeDatabase(t, { schemaFile: NULLS_SCHEMA, seed: NULLS_SEED });
  const page = async (route: string, params: Record<string, unknown>) =>
    (await db.body(`GET /api/v1${route}`, params, user)) as Page;

  /** Every page by cursor, from `after: ""` until `next` is null; checks each page's shape. */
  const walk = async (route: string, params: Record<string, unknown>, perPage: number) => {
    const ids: number[] = [];
    let after = "";
    for (let n = 0; n < 20; n++) {
      const body = await page(route, { ...params, perPage, after });
      t.equal(body.total, 6, "the total counts every match, whatever the cursor");
      ids.push(...body.data.map((r) => r.id));
      if (body.data.length < perPage) {
        t.equal(body.next, null, "a short page has no next cursor");
        return ids;
      }
      t.type(body.next, "string", "a full page has a next cursor");
      after = body.next as string;
    }
    throw new Error("no end after 20 pages");
  };

  const sorts: Record<string, unknown>[] = [
    {},
    { sortOrder: "DESC" },
    { sortOrder: "NONE" },
    { sortBy: "rank" },
    { sortBy: "rank", sortOrder: "DESC" },
    { sortBy: "label", sortOrder: "DESC" },
    { sortBy: "id" },
    { sortBy: "id", sortOrder: "DESC" },
  ];
  for (const route of ["/item/by-rank", "/item/by-rank-desc"]) {
    for (const sort of sorts) {
      const expected = (await page(route, { ...sort, perPage: 100 })).data.map((r) => r.id);
      t.equal(expected.length, 6);
      for (const perPage of [1, 2, 3, 4, 6]) {
        t.same(await walk(route, sort, perPage), expected, `${route} ${JSON.stringify(sort)} by ${perPage}`);
      }
    }
  }

  t.test("a filter applies to every page; the cursor is bound to its sort", async (t) => {
    const filter = { column: "rank", op: "notnull" };
    const first = await page("/item/by-rank", { filter, perPage: 2, after: "" });
    t.same(
      first.data.map((r) => r.id),
      [3, 1],
    );
    t.equal(first.total, 4);
    const second = await page("/item/by-rank", { filter, perPage: 2, after: first.next });
    t.same(
      second.data.map((r) => r.id),
      [5, 6],
    );
    const error = (params: Record<string, unknown>) => db.error("GET /api/v1/item/by-rank", params, user);
    const mismatch = "A0400: after is not a cursor of this route for this sortBy and sortOrder";
    t.equal(await error({ after: first.next, sortOrder: "DESC" }), mismatch, "another sortOrder");
    t.equal(await error({ after: first.next, sortBy: "label" }), mismatch, "another sortBy");
    t.equal(await error({ after: "not base64 at all!" }), mismatch, "not a cursor");
    t.equal(await error({ after: Buffer.from("[1,2]").toString("base64url") }), mismatch, "not an object");
    t.equal(
      await error({ after: "", sortOrder: "RAND" }),
      "A0400: after cannot be combined with sortOrder RAND",
    );
    t.equal(await error({ after: "", page: 2 }), "A0400: after cannot be combined with page");
  });

  t.test("cursor values are bound and cast, never SQL", async (t) => {
    const forged = (keys: unknown[], s = "", o = "ASC") =>
      Buffer.from(JSON.stringify({ s, o, k: keys })).toString("base64url");
    // Own order (rank ASC, id ASC): a hand-made cursor only chooses where the page starts.
    const start = await page("/item/by-rank", { after: forged([1, 3]), perPage: 10 });
    t.same(
      start.data.map((r) => r.id),
      [1, 5, 6, 2, 4],
    );
    const injected = await db.call(
      "GET /api/v1/item/by-rank",
      { after: forged(["1) OR true; DROP TABLE item; --", 1]) },
      user,
    );
    t.match(injected, { ok: false, code: "A0400" }, "a value that is not an integer is refused");
    const text = await page("/item/by-rank", {
      sortBy: "label",
      after: forged(["c' OR 'x'='x", 1], "label"),
      perPage: 10,
    });
    t.same(
      text.data.map((r) => r.id),
      [4, 5, 6],
      'a text value is compared as a value: the labels after "c\' OR ..."',
    );
    t.equal((await db.su.query("SELECT count(*)::int AS n FROM item")).rows[0].n, 6, "the table is intact");
    t.match(
      await db.call("GET /api/v1/item/by-rank", { after: forged([1]) }, user),
      { ok: false, code: "A0400" },
      "a cursor with too few keys",
    );
  });

  t.test("a grouped route cannot page by cursor", async (t) => {
    t.equal(
      await db.error("GET /api/v1/item/per-group", { after: "" }, user),
      "A0400: after: this route cannot page by cursor (the route is grouped)",
    );
  });
});

// A route in its own order by primary key, seen by every caller, answers a cursor request in that
// order from static statements before any other check, when the gateway passes the cursor decoded
// (`$after`, pagedKeyset.ts keysetFastPath, gateway/routes/cursor.ts); whatever those do not fit
// goes on to the general path, which decodes `after` itself. Both must answer as one path would.
t.test("the own order by primary key: cursor pages up front, refusals as before", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
  const ROUTE = "GET /api/v1/member/paged";
  const definition = (
    await db.su.query(`SELECT pg_get_functiondef(format('api.%I', $1::text)::regproc) AS d`, [ROUTE])
  ).rows[0].d as string;
  t.match(definition, "IF $1 ? '$after' THEN", "the route has the fast path");
  const model = buildModel(db.schema);
  const route = db.schema.endpoints.flatMap((g) => g.routes).find((r) => r.path === "/member/paged");
  t.equal(fastCursorKeys(model, model.routeOf(route as StandardRoute)), 1, "the gateway decodes its cursors");
  /** The general path's answer, checked byte for byte against the fast path's where the gateway takes it. */
  const page = async (params: Record<string, unknown>) => {
    const general = await db.call(ROUTE, params, admin);
    if (!general.ok) throw new Error(`${ROUTE} failed: ${general.message}`);
    const decoded = decodedCursor(params.after, 1);
    if (decoded !== undefined) {
      const fast = await db.call(ROUTE, { ...params, $after: decoded }, admin);
      t.equal(
        fast.ok && fast.text,
        general.text,
        `the fast path answers ${JSON.stringify(params)} as the general one`,
      );
    }
    return general.body as Page;
  };
  const all = (await page({ perPage: 100 })).data.map((r) => r.id);
  t.ok(all.length >= 3);
  for (const perPage of [1, 2, 3]) {
    const ids: number[] = [];
    let after: string | null | undefined = "";
    for (let n = 0; n < 10 && typeof after === "string"; n++) {
      const body = await page({ perPage, after });
      t.equal(body.total, all.length);
      ids.push(...body.data.map((r) => r.id));
      after = body.next;
    }
    t.same(ids, all, `cursor pages of ${perPage} give the offset pages' rows`);
  }
  const first = await page({ perPage: 1, after: "" });
  t.same(
    await page({ perPage: 1, after: first.next, sortBy: "" }),
    await page({ perPage: 1, after: first.next }),
    "an explicit empty sortBy answers the same",
  );
  /** The general path's refusal; the same where the gateway passes the cursor decoded. */
  const error = async (params: Record<string, unknown>) => {
    const refused = await db.error(ROUTE, params, admin);
    const decoded = decodedCursor(params.after, 1);
    if (decoded !== undefined) {
      t.equal(await db.error(ROUTE, { ...params, $after: decoded }, admin), refused, "the same with $after");
    }
    return refused;
  };
  const mismatch = "A0400: after is not a cursor of this route for this sortBy and sortOrder";
  const forged = (keys: unknown[], s = "", o = "ASC") =>
    Buffer.from(JSON.stringify({ s, o, k: keys })).toString("base64url");
  t.equal(await error({ after: first.next, page: 2 }), "A0400: after cannot be combined with page");
  t.equal(await error({ after: first.next, perPage: 0 }), "A0400: page and perPage must be at least 1");
  t.equal(await error({ after: forged([1], "", "DESC") }), mismatch, "a cursor of another sortOrder");
  t.equal(await error({ after: forged([1], "name") }), mismatch, "a cursor of another sortBy");
  t.equal(await error({ after: forged([1, 2]) }), mismatch, "too many keys");
  t.equal(await error({ after: "not base64 at all!" }), mismatch, "not a cursor");
  t.match(await db.call(ROUTE, { after: forged(["1) OR true; --"]) }, admin), { ok: false, code: "A0400" });
  t.equal(await error({ after: "", $count: "all" }), "A0400: count must be one of exact, planned, estimated");

  // A planned total from pg_class: the Restura fixture's users, a whole table.
  const restura = await routeDatabase(t, {
    schemaFile: RESTURA_FIXTURE,
    template: "tpl_restura",
    seed: RESTURA_SEED,
  });
  const user = { role: "user", scopes: ["read:user"], userId: 1, companyId: 1 };
  const USERS = "GET /api/v1/user/paged";
  await restura.su.query('ANALYZE "user"');
  const exactFirst = (await restura.body(USERS, { perPage: 1, after: "" }, user)) as Page;
  const plannedParams = { perPage: 1, after: exactFirst.next, $count: "planned" };
  const planned = (await restura.body(USERS, plannedParams, user)) as Page;
  const fastPlanned = await restura.call(
    USERS,
    { ...plannedParams, $after: decodedCursor(exactFirst.next, 1) },
    user,
  );
  t.same(fastPlanned.ok && fastPlanned.body, planned, "the fast path's planned total and page");
  const offset = (await restura.body(USERS, { perPage: 1, page: 2 }, user)) as Page;
  t.same(planned.data, offset.data, "the page after the cursor");
  t.equal(planned.totalMode, "planned");
  t.equal(planned.total, offset.total, "the table's size as the planner knows it");
  t.equal(
    await restura.error(USERS, { perPage: 1, after: exactFirst.next, page: 2, $count: "planned" }, user),
    "A0400: after cannot be combined with page",
  );
});

t.test("a primary key hidden from the caller: no cursor pages, on any path", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-keyset-hidden-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const schemaFile = path.join(dir, "api.schema.json");
  fs.writeFileSync(
    schemaFile,
    JSON.stringify({
      database: [table("note", [{ ...id(), roles: ["admin"] }, column("title", "TEXT")])],
      endpoints: [
        {
          name: "V1",
          description: "",
          baseUrl: "/api/v1",
          routes: [standardRoute("GET", "/note", "note", ["id", "title"], { type: "PAGED" })],
        },
      ],
      customTypes: [],
      globalParams: [],
      roles: ["admin", "member"],
      scopes: [],
    }),
  );
  const db = await routeDatabase(t, {
    schemaFile,
    seed: `INSERT INTO note (id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c')`,
  });
  const admin = { role: "admin", scopes: [] };
  const member = { role: "member", scopes: [] };
  const first = (await db.body("GET /api/v1/note", { perPage: 1, after: "" }, admin)) as Page;
  t.same(((await db.body("GET /api/v1/note", { perPage: 1, after: first.next }, admin)) as Page).data, [
    { id: 2, title: "b" },
  ]);
  const hidden = "A0400: after: this route's primary key is hidden from you";
  t.equal(await db.error("GET /api/v1/note", { perPage: 1, after: "" }, member), hidden);
  t.equal(await db.error("GET /api/v1/note", { perPage: 1, after: first.next }, member), hidden);
});

t.test("total modes", async (t) => {
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
  const ROUTE = "GET /api/v1/member/paged";
  const page = async (params: Record<string, unknown>) => (await db.body(ROUTE, params, admin)) as Page;
  const exact = await page({ perPage: 2 });
  t.same(Object.keys(exact), ["data", "total"], "the default answer is unchanged");
  t.equal(exact.total, 4);

  const estimated = await page({ perPage: 2, $count: "estimated" });
  t.same(estimated.data, exact.data);
  t.equal(estimated.total, 4, "estimated: exact below the threshold");
  t.equal(estimated.totalMode, "exact", "and says so");

  const planned = await page({ perPage: 2, $count: "planned" });
  t.same(planned.data, exact.data, "the same page");
  t.equal(planned.totalMode, "planned");
  t.ok(Number.isInteger(planned.total) && planned.total >= 0, `an estimate (${planned.total})`);

  const filtered = await page({ $count: "planned", filter: { column: "score", op: "gte", value: "20" } });
  t.equal(filtered.totalMode, "planned");
  t.equal(filtered.data.length, 3, "the filter applies to the page");

  const explicit = await page({ perPage: 2, $count: "exact" });
  t.same(explicit, exact, "exact asked for: the plain answer");
  t.equal(
    await db.error(ROUTE, { $count: "all" }, admin),
    "A0400: count must be one of exact, planned, estimated",
  );

  // Above the threshold, estimated reads the plan: 1,500 more members on the same team.
  await db.su.query(`INSERT INTO member (id, "teamId", name, code, score, "joinedOn", ratio, active, profile)
    SELECT 1000 + g, 1, 'M' || g, 'C', 1, '2024-01-01', 0, true, '{}' FROM generate_series(1, 1500) g`);
  await db.su.query("ANALYZE member");
  const big = await page({ perPage: 2, $count: "estimated" });
  t.equal(big.totalMode, "planned", "estimated above the threshold: planned");
  t.ok(big.total > 1000 && big.total < 3000, `the planner's estimate (${big.total})`);
  t.equal((await page({ perPage: 2 })).total, 1504, "exact still counts");
});

t.test("texts without client values run their generic plan; a computed total is not counted", async (t) => {
  // With the count behind `CASE WHEN $5 IS NULL` in the same text, a custom plan folded the CASE
  // and the generic plan (which keeps the count) always looked dearer; and a custom plan sees the
  // page's LIMIT as a constant where the generic plan guesses a tenth of the rows. Either way
  // Postgres planned the text again on every call.
  const db = await routeDatabase(t, { schemaFile: FEATURES_SCHEMA, seed: FEATURES_SEED });
  const admin = { role: "admin", scopes: ["finance"], teamId: 1 };
  const ROUTE = "GET /api/v1/member/paged";
  const texts = async () =>
    (
      await db.gw.query<{ statement: string; generic: number; custom: number }>(
        `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom
           FROM pg_prepared_statements WHERE name LIKE 'api\\_q\\_%'`,
      )
    ).rows;
  const first = (await db.body(ROUTE, { perPage: 2, $count: "planned" }, admin)) as Page;
  for (let i = 0; i < 7; i++) t.same(await db.body(ROUTE, { perPage: 2, $count: "planned" }, admin), first);
  const held = await texts();
  const planned = held.find((r) => /'total', \$5/.test(r.statement));
  const estimate = held.find((r) => r !== planned);
  t.equal(held.length, 2, "two texts: the page, and the count query whose plan gives the total");
  t.notMatch(planned?.statement ?? "", /count\(\*\)/, "the page's text counts nothing");
  t.same({ generic: planned?.generic, custom: planned?.custom }, { generic: 8, custom: 0 }, "planned once");
  t.match(estimate?.statement ?? "", /AS SELECT 1, /, "the count query's text");
  t.same(
    { generic: estimate?.generic, custom: estimate?.custom },
    { generic: 8, custom: 0 },
    "the estimate is read from the count query's generic plan, made once (EXPLAIN EXECUTE)",
  );

  const sorted = { perPage: 2, sortBy: "score", sortOrder: "DESC" };
  for (let i = 0; i < 3; i++) await db.body(ROUTE, sorted, admin);
  const counted = (await texts()).find((r) => !/'total', \$5/.test(r.statement));
  t.match(counted?.statement ?? "", /'total', \(SELECT count\(\*\)/, "an exact total is counted in the text");
  t.same(
    { generic: counted?.generic, custom: counted?.custom },
    { generic: 3, custom: 0 },
    "a sort alone: planned once",
  );

  const filtered = {
    perPage: 2,
    filter: {
      and: [
        { column: "score", op: "gte", value: "1" },
        { column: "score", op: "lte", value: "99" },
      ],
    },
  };
  for (let i = 0; i < 3; i++) await db.body(ROUTE, filtered, admin);
  const withValues = (await texts()).find((r) => r.statement.includes("$3[1]"));
  t.same(
    { generic: withValues?.generic, custom: withValues?.custom },
    { generic: 0, custom: 3 },
    "a filter's values: custom plans first, as Postgres chooses",
  );
});
