// ONE and ARRAY reads the gateway answers with its own statement (gateway/routes/readStatement.ts,
// generator/routes/kinds/readViews.ts): which routes, what it sets of the caller before the read
// (nothing where no policy or mask reads it), and the route function's answer, byte for byte, on
// real Postgres, in UTC whatever the session's zone, across a live migration.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { rebuildApiLayer } from "../../db/apiLayer.ts";
import type { AuthResult } from "../../gateway/auth/types.ts";
import { type CellStatement, isCellStatement } from "../../gateway/cellQuery.ts";
import type { ApiError } from "../../gateway/errors.ts";
import { createPool } from "../../gateway/pool.ts";
import type { StatementRunner } from "../../gateway/readPool.ts";
import { compileStandardRoute, type RouteRequest } from "../../gateway/routes/standard.ts";
import { buildModel } from "../../generator/model/index.ts";
import { viewsRead } from "../../generator/routes/kinds/readViews.ts";
import type { Schema, StandardRoute } from "../../generator/schema/types.ts";
import { scratchApp } from "../harness/app.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { COMPANY1_SAMPLES, loadExampleSchema, recordingRunner } from "./helpers.ts";

const fixture = (): Schema => readAppSchema(path.dirname(RESTURA_FIXTURE)).schema as Schema;

/** The GET ONE and ARRAY routes of `schema` the gateway reads itself. */
function ownReads(schema: Schema): string[] {
  const model = buildModel(schema);
  return model.routes.filter((r) => viewsRead(model, r) !== undefined).map((r) => r.key);
}

/** What the context statement sets before a route's read ("none": the statement runs alone). */
function contextOf(schema: Schema, key: string): { whole: boolean; keys: readonly string[] } | "none" {
  const model = buildModel(schema);
  const modelRoute = model.routes.find((r) => r.key === key);
  if (!modelRoute) throw new Error(`no route ${key}`);
  const read = viewsRead(model, modelRoute);
  if (!read) throw new Error(`${key}: the function's`);
  return read.context ?? "none";
}

// Routes of the shapes the fixture lacks: a path parameter (number), a text parameter, a
// subquery, both kinds under one route; the fixture's own tables, no rule of their own.
const EXTRA_ROUTES = [
  {
    name: "A user by id",
    description: "ONE by a number parameter",
    method: "GET",
    path: "/test/user/:id",
    type: "ONE",
    table: "user",
    roles: [],
    scopes: [],
    request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }],
    joins: [],
    where: [{ tableName: "user", columnName: "id", operator: "=", value: "$id" }],
    assignments: [],
    response: [
      { name: "id", selector: "user.id" },
      { name: "firstName", selector: "user.firstName" },
      { name: "createdOn", selector: "user.createdOn" },
      { name: "metadata", selector: "user.metadata" },
    ],
  },
  {
    name: "A company's users by first name, with their orders",
    description: "ARRAY by a number and a text parameter, with a subquery",
    method: "GET",
    path: "/test/company/:companyId/users",
    type: "ARRAY",
    table: "user",
    roles: [],
    scopes: [],
    request: [
      { name: "companyId", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] },
      { name: "firstName", required: false, validator: [{ type: "TYPE_CHECK", value: "string" }] },
    ],
    joins: [],
    where: [
      { tableName: "user", columnName: "companyId", operator: "=", value: "$companyId" },
      { tableName: "user", columnName: "firstName", operator: "=", value: "$firstName", conjunction: "AND" },
    ],
    assignments: [],
    response: [
      { name: "id", selector: "user.id" },
      { name: "lastLoginOn", selector: "user.lastLoginOn" },
      {
        name: "orders",
        subquery: {
          table: "order",
          joins: [],
          where: [{ tableName: "order", columnName: "userId", operator: "=", value: '"user"."id"' }],
          properties: [
            { name: "id", selector: "order.id" },
            { name: "amount", selector: "order.amount" },
            { name: "createdOn", selector: "order.createdOn" },
          ],
        },
      },
    ],
  },
];

t.test("which reads the gateway answers itself, and what it sets first", async (t) => {
  const example = loadExampleSchema();
  t.same(
    ownReads(example),
    [
      "GET /api/v1/company/public/:id",
      "GET /api/v1/user/search",
      "GET /api/v1/task/mine",
      "GET /api/v1/task/assigned-to-me",
      "GET /api/v1/task/search",
      "GET /api/v1/task/by-priority",
      "GET /api/v1/task/unassigned",
      "GET /api/v1/task/large",
      "GET /api/v1/task/late-for-project",
      "GET /api/v1/task/:id",
      "GET /api/v1/invoice",
    ],
    "the example: its GET ONE and ARRAY routes without raw SQL or a column rule in the answer",
  );
  t.same(
    contextOf(example, "GET /api/v1/company/public/:id"),
    { whole: false, keys: ["role", "scopes", "companyId"] },
    "the company's policy reads companyId; its billingEmail mask role and scopes",
  );
  t.same(
    contextOf(example, "GET /api/v1/task/assigned-to-me"),
    { whole: false, keys: ["companyId"] },
    "tables without a column rule: the key their policies read, nothing else",
  );
  t.same(
    contextOf(example, "GET /api/v1/task/:id"),
    { whole: true, keys: ["role", "scopes", "companyId", "userId"] },
    "a policy with raw SQL (comment, task_tag): every key and the whole context",
  );
  for (const key of ["GET /api/v1/user/me", "GET /api/v1/project/:id", "GET /api/v1/task/stats"]) {
    t.notOk(ownReads(example).includes(key), `${key}: raw SQL or a column rule in its answer: the function`);
  }

  const restura = ownReads(fixture());
  t.same(
    restura,
    [
      "GET /api/v1/user/me",
      "GET /api/v1/user/all",
      "GET /api/v1/order/all",
      "GET /api/v1/user/with-orders",
      "GET /api/v1/item/all",
      "GET /api/v1/user/my-user",
    ],
    "the Restura fixture: its GET ONE and ARRAY routes without raw SQL",
  );
  for (const key of restura) t.equal(contextOf(fixture(), key), "none", `${key}: nothing to set`);
  t.notOk(restura.includes("PATCH /api/v1/user/me"), "never a write");
  t.notOk(restura.includes("GET /api/v1/user/before"), "raw SQL (may read the caller any way)");

  // Each rule that makes the read set the caller first: with it removed, the read would run
  // without the caller's settings, and a policy would match no row, or a mask hide every value.
  const user = (schema: Schema) =>
    schema.database.find((table) => table.name === "user") as Schema["database"][0];
  const withPolicy = fixture();
  user(withPolicy).policies.push({
    name: "same_company",
    roles: [],
    scopes: [],
    where: [{ tableName: "user", columnName: "companyId", operator: "=", value: "#companyId" }],
  });
  t.same(contextOf(withPolicy, "GET /api/v1/user/me"), { whole: false, keys: ["companyId"] }, "a policy");
  const withTableRule = fixture();
  user(withTableRule).roles = ["admin"];
  t.same(
    contextOf(withTableRule, "GET /api/v1/user/me"),
    { whole: false, keys: ["role"] },
    "a table rule on roles: the role",
  );
  // The view masks it wherever the query names it (a where, a join), so even one the answer
  // leaves out makes the read set role and scopes.
  const withUnreadColumnRule = fixture();
  const birthDate = user(withUnreadColumnRule).columns.find((c) => c.name === "birthDate");
  if (birthDate) birthDate.roles = ["admin"];
  t.same(
    contextOf(withUnreadColumnRule, "GET /api/v1/user/me"),
    { whole: false, keys: ["role", "scopes"] },
    "a column rule on the table",
  );
  const orders = fixture();
  const order = orders.database.find((table) => table.name === "order");
  if (order) order.roles = ["admin"];
  t.same(
    contextOf(orders, "GET /api/v1/user/with-orders"),
    { whole: false, keys: ["role"] },
    "a rule on a table only a subquery reads",
  );
  const withColumnRule = fixture();
  const phone = user(withColumnRule).columns.find((c) => c.name === "phone");
  if (phone) phone.scopes = ["read:phone"];
  t.notOk(
    ownReads(withColumnRule).includes("GET /api/v1/user/me"),
    "a column rule on a column its answer holds: the function, which builds the object per caller",
  );
});

type Outcome = { status: number; headers: Record<string, string>; body: string } | { error: string };
type StandardRun = ReturnType<typeof compileStandardRoute>;

/** A route's answer, or its refusal as `CODE: message`. */
async function outcome(
  route: StandardRun,
  db: StatementRunner,
  as: AuthResult,
  request: RouteRequest,
): Promise<Outcome> {
  try {
    return (await route(db, as, request)) as Outcome;
  } catch (error) {
    const e = error as ApiError;
    return { error: `${e.code}: ${e.message}` };
  }
}

const auth = (role: string | null, globals: Record<string, unknown> = {}): AuthResult =>
  (role === null
    ? { anonymous: true, reason: "missing" }
    : { user: { role, scopes: [], globals } }) as AuthResult;

const SEED = fs.readFileSync(path.join(import.meta.dirname, "../routes/restura.seed.sql"), "utf8");

t.test("through Postgres: the function's answers, byte for byte, from one statement", async (t) => {
  const app = scratchApp(t);
  const schema = JSON.parse(fs.readFileSync(RESTURA_FIXTURE, "utf8"));
  schema.endpoints[0].routes.push(...EXTRA_ROUTES);
  fs.writeFileSync(path.join(app.dir, "restura.schema.json"), JSON.stringify(schema));
  const gw = await testGatewayForApp(t, app.dir, SEED, { allowMissingHandlers: true });
  const loaded = readAppSchema(app.dir).schema as Schema;
  const model = buildModel(loaded);
  const sent: CellStatement[] = [];
  const db = recordingRunner(gw.pool, (config) => {
    if (isCellStatement(config)) sent.push(config);
  });
  const options = { maxPerPage: 100, globalParams: loaded.globalParams };
  const both = (key: string) => {
    const modelRoute = model.routes.find((r) => r.key === key);
    if (!modelRoute) throw new Error(`no route ${key}`);
    return {
      fn: compileStandardRoute(modelRoute, options),
      own: compileStandardRoute(modelRoute, { ...options, model }),
      route: modelRoute.route as StandardRoute,
    };
  };
  const run = (route: StandardRun, as: AuthResult, request: RouteRequest) => outcome(route, db, as, request);
  const callers = [
    auth("admin", { userId: 1, companyId: 1 }),
    auth("user", { userId: 2, companyId: 1 }),
    auth("user", { userId: 3, companyId: 2 }),
    auth("user", { userId: 99, companyId: 1 }),
    auth("user", {}),
    auth("guest", { userId: 1 }),
    auth(null),
  ];
  const requests: Record<string, Record<string, unknown>[]> = {
    "GET /api/v1/test/user/:id": [{ id: "1" }, { id: "3" }, { id: "99" }],
    "GET /api/v1/test/company/:companyId/users": [
      { companyId: "1" },
      { companyId: "1", firstName: "Peter" },
      { companyId: "2", firstName: "Nobody" },
    ],
  };
  let own = 0;
  for (const key of ownReads(loaded)) {
    const { fn, own: served, route } = both(key);
    for (const as of callers) {
      for (const params of requests[key] ?? [{}]) {
        const request: RouteRequest = {
          query: {},
          params: params as Record<string, string>,
          body: undefined,
        };
        const expected = await run(fn, as, request);
        sent.length = 0;
        const got = await run(served, as, request);
        const label = `${key} ${JSON.stringify(params)} as ${JSON.stringify(as)}`;
        t.same(got, expected, label);
        // A caller the route rule refuses never reaches a statement.
        if (sent.length > 0) {
          t.equal(sent.length, 1, `${label}: one statement`);
          t.notMatch(sent[0]?.text ?? "", /"api"\."GET /, `${label}: not the route function`);
          own++;
        } else t.match(got, { error: /^(UNAUTHORIZED|FORBIDDEN)/ }, `${label}: refused first`);
      }
    }
    t.ok(route.type === "ONE" || route.type === "ARRAY", key);
  }
  t.ok(own >= 30, `${own} requests answered by the gateway's statement`);
  // 404 as the function words it, and the answers' timestamps in UTC.
  const { own: byId } = both("GET /api/v1/test/user/:id");
  t.same(await run(byId, callers[0] as AuthResult, { query: {}, params: { id: "99" }, body: undefined }), {
    error: "NOT_FOUND: No user matches the request",
  });
  const found = await run(byId, callers[0] as AuthResult, {
    query: {},
    params: { id: "3" },
    body: undefined,
  });
  t.match(found, { body: /"createdOn" : "2024-06-10T09:15:00\.5\+00:00"/ });
});

// The example's reads run after a context statement (its tables' policies read the caller's
// company; company's mask reads role and scopes; the raw SQL policies of comment and task_tag read
// everything): each of them, for callers of both companies, every role, with and without scopes,
// and anonymous, answers as its function does, from the gateway's batch.
t.test("the example: every own read answers as its function, for every caller", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const schema = loadExampleSchema();
  const model = buildModel(schema);
  const options = { maxPerPage: 100, globalParams: schema.globalParams };
  const ran: string[] = [];
  const db = recordingRunner(gw.pool, (config) =>
    ran.push(
      /"api"\."GET /.test(config.text)
        ? "function"
        : isCellStatement(config) && config.before
          ? "own, after the context"
          : "own",
    ),
  );
  const run = (route: StandardRun, as: AuthResult, request: RouteRequest) => outcome(route, db, as, request);
  const callers = [
    auth("admin", { companyId: 1, userId: 1 }),
    auth("manager", { companyId: 1, userId: 2 }),
    auth("member", { companyId: 1, userId: 3 }),
    auth("admin", { companyId: 2, userId: 4 }),
    auth("member", { companyId: 2, userId: 6 }),
    auth("member", {}),
    auth(null),
  ];
  // The callers' scopes: none, then every scope of the schema (invoice needs billing:read).
  const scoped = (as: AuthResult, scopes: string[]): AuthResult =>
    "user" in as ? { user: { ...as.user, scopes } } : as;
  // Other rows than COMPANY1_SAMPLES's: another company's, none.
  const more: Record<string, { path?: Record<string, string>; query?: string }[]> = {
    "GET /api/v1/company/public/:id": [{ path: { id: "2" } }, { path: { id: "999" } }],
    "GET /api/v1/task/:id": [{ path: { id: "1" } }, { path: { id: "30" } }, { path: { id: "999" } }],
    "GET /api/v1/user/search": [{ query: "q=a" }],
  };
  const query = (qs: string) => {
    const parsed = new URLSearchParams(qs);
    const out: Record<string, string | string[]> = {};
    for (const key of new Set(parsed.keys())) {
      const all = parsed.getAll(key);
      out[key] = all.length === 1 ? (all[0] as string) : all;
    }
    return out;
  };
  let answered = 0;
  for (const key of ownReads(schema)) {
    const modelRoute = model.routes.find((r) => r.key === key);
    if (!modelRoute) throw new Error(`no route ${key}`);
    const fn = compileStandardRoute(modelRoute, options);
    const own = compileStandardRoute(modelRoute, { ...options, model });
    const samples = [COMPANY1_SAMPLES[key] ?? {}, ...(more[key] ?? [])];
    for (const base of callers) {
      for (const scopes of [[], ["billing:read", "tasks:write"]]) {
        const as = scoped(base, scopes);
        for (const sample of samples) {
          const request: RouteRequest = {
            query: query(sample.query ?? ""),
            params: sample.path ?? {},
            body: undefined,
          };
          const label = `${key} ${JSON.stringify(sample)} as ${JSON.stringify(as)}`;
          const expected = await run(fn, as, request);
          ran.length = 0;
          const got = await run(own, as, request);
          t.same(got, expected, label);
          if ("status" in expected || /NOT_FOUND/.test(expected.error)) {
            t.same(ran, ["own, after the context"], `${label}: the gateway's batch answered`);
            answered++;
          }
        }
      }
    }
  }
  t.ok(answered >= 150, `${answered} requests answered by the gateway's batch`);
});

// A migration that makes a read's tables read the caller (a row policy on the caller's company):
// the statement the running gateway compiled sets nothing first, so its guard, named after what
// it sets, is not in the new layer, and the function answers, setting what the policy reads.
t.test("a layer whose policies read more of the caller sends the read to the function", async (t) => {
  const app = scratchApp(t);
  fs.copyFileSync(RESTURA_FIXTURE, path.join(app.dir, "restura.schema.json"));
  const gw = await testGatewayForApp(t, app.dir, SEED, { allowMissingHandlers: true });
  const before = readAppSchema(app.dir).schema as Schema;
  const model = buildModel(before);
  const modelRoute = model.routes.find((r) => r.key === "GET /api/v1/user/me");
  if (!modelRoute) throw new Error("no route");
  const me = compileStandardRoute(modelRoute, {
    maxPerPage: 100,
    globalParams: before.globalParams,
    model,
    warn: () => {},
  });
  const sent: string[] = [];
  const db = recordingRunner(gw.pool, (config) => sent.push(config.text));
  const as = auth("user", { userId: 2, companyId: 1 });
  const request: RouteRequest = { query: {}, params: {}, body: undefined };
  const first = await me(db, as, request);
  t.equal(first.status, 200);

  const after = structuredClone(before);
  const user = after.database.find((table) => table.name === "user") as Schema["database"][0];
  user.policies.push({
    name: "same_company",
    roles: [],
    scopes: [],
    where: [{ tableName: "user", columnName: "companyId", operator: "=", value: "#companyId" }],
  });
  await rebuildApiLayer(gw.su, after);
  sent.length = 0;
  t.same(await me(db, as, request), first, "the caller's own row, as before");
  t.match(
    sent,
    [/SELECT _api_r\.j/, /"api"\."GET \/api\/v1\/user\/me"/],
    "its statement failed, then the function",
  );
});

t.test("timestamps in UTC whatever zone the session is in", async (t) => {
  const app = scratchApp(t);
  fs.copyFileSync(RESTURA_FIXTURE, path.join(app.dir, "restura.schema.json"));
  const gw = await testGatewayForApp(t, app.dir, SEED, { allowMissingHandlers: true });
  const database = (await gw.su.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db;
  // New sessions of this database start in Kathmandu (+05:45).
  await gw.su.query(`ALTER DATABASE "${database}" SET timezone = 'Asia/Kathmandu'`);
  const url = new URL(`postgres://api_gateway@localhost/${database}`);
  const poolUrl = new URL(
    (gw.pool as unknown as { options: { connectionString: string } }).options.connectionString,
  );
  url.password = poolUrl.password;
  url.host = poolUrl.host;
  url.search = poolUrl.search;
  const pool = createPool(url.toString(), 1);
  t.teardown(() => pool.end());
  const loaded = readAppSchema(app.dir).schema as Schema;
  const model = buildModel(loaded);
  const modelRoute = model.routes.find((r) => r.key === "GET /api/v1/user/me");
  if (!modelRoute) throw new Error("no route");
  const options = { maxPerPage: 100, globalParams: loaded.globalParams };
  const fn = compileStandardRoute(modelRoute, options);
  const own = compileStandardRoute(modelRoute, { ...options, model });
  const me = auth("user", { userId: 3, companyId: 2 });
  const request: RouteRequest = { query: {}, params: {}, body: undefined };
  const zone = async () =>
    (await pool.query<{ z: string }>("SELECT current_setting('TimeZone') AS z")).rows[0]?.z;
  t.equal(await zone(), "Asia/Kathmandu", "the session starts in the database's zone");
  const expected = await fn(pool, me, request);
  t.match(expected.body, /"createdOn" : "2024-06-10T09:15:00\.5\+00:00"/, "the function: UTC");
  t.same(await own(pool, me, request), expected, "the gateway's statement: the same");
  t.equal(await zone(), "UTC", "the session was set to UTC once");
  // A handler's session SET on the same connection: the next read sets UTC again.
  await pool.query("SET TimeZone = 'Asia/Tokyo'");
  t.same(await own(pool, me, request), expected, "after a handler's SET TimeZone");
  t.equal(await zone(), "UTC");
  await gw.su.query(`ALTER DATABASE "${database}" RESET timezone`);
});

// A migration while the gateway runs: its own statements were compiled from the schema it started
// with, the route functions are rebuilt with the layer. A statement whose guard the new layer
// lacks (generator/routes/guards.ts) hands its route to the function, which answers as the new
// layer says; a read the migration left as it was keeps the gateway's statement.
t.test(
  "after a layer rebuilt from another schema, the changed routes answer as their functions",
  async (t) => {
    const app = scratchApp(t);
    fs.copyFileSync(RESTURA_FIXTURE, path.join(app.dir, "restura.schema.json"));
    const gw = await testGatewayForApp(t, app.dir, SEED, { allowMissingHandlers: true });
    const before = readAppSchema(app.dir).schema as Schema;
    const model = buildModel(before);
    const warned: string[] = [];
    const options = { maxPerPage: 100, globalParams: before.globalParams, model };
    const compiled = (key: string) => {
      const modelRoute = model.routes.find((r) => r.key === key);
      if (!modelRoute) throw new Error(`no route ${key}`);
      return compileStandardRoute(modelRoute, { ...options, warn: () => warned.push(key) });
    };
    const me = compiled("GET /api/v1/user/me");
    const all = compiled("GET /api/v1/user/all");
    const paged = compiled("GET /api/v1/user/paged");
    const sent: string[] = [];
    const db = recordingRunner(gw.pool, (config) => sent.push(config.text));
    const as = auth("user", { userId: 2, companyId: 1 });
    const get = (query: Record<string, string>) => ({ query, params: {}, body: undefined });
    const filtered = get({ filter: "(lastName,sw,G)", sortBy: "id", sortOrder: "DESC" });
    const body = async (route: typeof me, request: RouteRequest) =>
      JSON.parse((await route(db, as, request)).body) as { data: Record<string, unknown> | unknown[] };
    t.ok("phone" in ((await body(me, get({}))).data as object), "before: the phone");
    t.ok("phone" in (((await body(paged, filtered)).data as object[])[0] ?? {}), "on the page too");

    // The new layer: `phone` leaves both answers; GET /user/all is as it was.
    const after = structuredClone(before);
    for (const group of after.endpoints) {
      for (const route of group.routes) {
        const key = `${route.method} ${group.baseUrl}${route.path}`;
        if ((key === "GET /api/v1/user/me" || key === "GET /api/v1/user/paged") && "response" in route) {
          route.response = route.response.filter((p) => p.name !== "phone");
        }
      }
    }
    await rebuildApiLayer(gw.su, after);
    sent.length = 0;
    const meAfter = (await body(me, get({}))).data as object;
    t.notOk("phone" in meAfter, "GET /user/me answers as the new layer's function");
    t.ok("firstName" in meAfter);
    t.match(
      sent,
      [/SELECT _api_r\.j/, /"api"\."GET \/api\/v1\/user\/me"/],
      "its statement failed, then the function",
    );
    const page = (await body(paged, filtered)).data as Record<string, unknown>[];
    t.notOk("phone" in (page[0] ?? {}), "the filtered page answers as the new layer's function");
    t.same(warned, ["GET /api/v1/user/me", "GET /api/v1/user/paged"], "each told once");
    sent.length = 0;
    await body(me, get({}));
    t.match(sent, [/"api"\."GET \/api\/v1\/user\/me"/], "the route stays with its function");
    sent.length = 0;
    t.ok(((await body(all, get({}))).data as unknown[]).length > 0);
    t.match(sent, [/SELECT _api_r\.j/], "an unchanged read keeps the gateway's statement");

    // A cursor page in the own order (keysetStatement.ts) carries the schema's page guard too.
    const keyset = compiled("GET /api/v1/user/paged");
    sent.length = 0;
    const first = (await body(keyset, get({ after: "", perPage: "2" }))).data as Record<string, unknown>[];
    t.ok(
      first.length > 0 && !("phone" in (first[0] ?? {})),
      "a cursor page answers as the new layer's function",
    );
    t.match(
      sent,
      [/SELECT _api_r\.j/, /"api"\."GET \/api\/v1\/user\/paged"/],
      "its statement failed, then the function",
    );
  },
);
