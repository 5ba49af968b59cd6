// The handler contract over HTTP (docs/handlers.md, issue 5), on a scratch copy of the example app with
// extra probe routes: the naming rule and loading (files per version, `action`, missing file or
// method reported), a handler that throws or never answers, sendError and CUSTOM_PAGED
// envelopes, and `req.db` running as the caller (row policies, column rules, route calls).

import fs from "node:fs";
import path from "node:path";
import t, { type Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { buildGateway, MissingHandlersError } from "../../gateway/server.ts";
import { handlerMethodName } from "../../generator/schema/handlers.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { exampleAppWithStubs } from "../harness/app.ts";
import { testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { REPO } from "../harness/templates.ts";

const MIA = { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 };
const EXAMPLE = path.join(REPO, "example");
const exampleSchema = JSON.parse(fs.readFileSync(path.join(EXAMPLE, "api.schema.json"), "utf8"));

const probe = (method: string, p: string, extra: Record<string, unknown> = {}) => ({
  name: `probe ${method} ${p}`,
  description: "test probe",
  method,
  path: p,
  type: "CUSTOM_ONE",
  roles: [],
  scopes: [],
  request: [],
  responseType: "boolean",
  ...extra,
});

const MEMBERS = { roles: ["admin", "manager", "member"] };

/** The example's schema plus probe routes (v1 and a v2 group), its migrations and handlers. */
function probeApp(t: Parameters<typeof exampleAppWithStubs>[0]) {
  const schema = structuredClone(exampleSchema);
  schema.endpoints[0].routes.push(
    probe("GET", "/probe/throws"),
    probe("GET", "/probe/hangs"),
    probe("GET", "/probe/returns"),
    probe("GET", "/probe/error"),
    probe("GET", "/probe/api-error"),
    probe("GET", "/probe/twice"),
    probe("GET", "/probe/sent"),
    probe("GET", "/probe/users", MEMBERS),
    probe("GET", "/probe/tasks", { ...MEMBERS, type: "CUSTOM_PAGED", responseType: "number" }),
    probe("GET", "/probe/no-total", { type: "CUSTOM_PAGED", responseType: "number" }),
    probe("POST", "/probe/:id/done", {
      ...MEMBERS,
      request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }],
    }),
    probe("POST", "/probe/refresh-token", { action: "renamed" }),
    probe("GET", "/probe/alone-users", MEMBERS),
    probe("POST", "/probe/:id/alone-done", {
      ...MEMBERS,
      request: [{ name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] }],
    }),
    probe("GET", "/probe/alone-misuse", MEMBERS),
    probe("GET", "/probe/alone-late", MEMBERS),
  );
  schema.endpoints.push({
    name: "V2",
    description: "version 2",
    baseUrl: "/api/v2",
    routes: [probe("GET", "/probe/ping")],
  });
  const app = exampleAppWithStubs(t, schema, EXAMPLE);
  fs.writeFileSync(
    path.join(app.dir, "src/api/v1/probe.api.v1.ts"),
    `export default class Probe {
  getProbeThrows() { throw new Error("secret internal detail: relation pg_shadow"); }
  getProbeHangs() { return new Promise(() => {}); }
  async getProbeReturns(req, res) { setTimeout(() => res.sendData("late but fine"), 50); }
  getProbeError(req, res) { res.sendError("CONFLICT", "Already done", { id: "is taken" }); }
  getProbeApiError(req, res) { return req.db.call("GET", "/api/v1/task/:id", { id: 9 }); }
  getProbeTwice(req, res) { res.sendData(1); res.sendData(2); }
  getProbeSent(req, res) {
    const seen = { before: res.sent, members: Object.keys(res), in: ["sent", "sendData", "run"].filter((k) => k in res) };
    res.sendData(seen); // serialized after the handler returns, so "after" lands in the answer
    seen.after = res.sent;
  }
  async getProbeUsers(req, res) {
    const r = await req.db.query('SELECT "id", "companyId", "lastLoginOn" FROM "user" ORDER BY "id"');
    res.sendData(r.rows);
  }
  async getProbeTasks(req, res) {
    const total = await req.db.query('SELECT count(*)::int AS n FROM "task"');
    const page = await req.db.query('SELECT "id" FROM "task" ORDER BY "id" LIMIT $1 OFFSET $2',
      [req.data.perPage, (req.data.page - 1) * req.data.perPage]);
    res.sendData(page.rows.map((r) => Number(r.id)), total.rows[0].n);
  }
  getProbeNoTotal(req, res) { res.sendData([]); }
  async postProbeDone(req, res) {
    const data = await req.db.call("PATCH", "/api/v1/task/:id", { id: req.data.id, done: true });
    res.sendData(data);
  }
  renamed(req, res) { res.sendData("renamed"); }
  async getProbeAloneUsers(req, res) {
    const r = await req.db.queryAlone('SELECT "id", "companyId", "lastLoginOn" FROM "user" ORDER BY "id"');
    res.sendData(r.rows);
  }
  async postProbeAloneDone(req, res) {
    // A write through a route function, so the commit shows: the handler then answers an error.
    await req.db.queryAlone(
      \`SELECT api."PATCH /api/v1/task/:id"(jsonb_build_object('id', $1::bigint, 'done', true),
        current_setting('api.ctx')::jsonb)\`, [req.data.id]);
    res.sendError("CONFLICT", "answered after the commit");
  }
  async getProbeAloneMisuse(req, res) {
    const messages = [];
    await req.db.queryAlone("SELECT 1");
    for (const use of [() => req.db.query("SELECT 1"), () => req.db.queryAlone("SELECT 1"),
      () => req.db.call("GET", "/api/v1/task/:id", { id: 1 })]) {
      await use().then(() => messages.push("ran"), (e) => messages.push(e.message));
    }
    res.sendData(messages);
  }
  async getProbeAloneLate(req, res) {
    await req.db.query("SELECT 1");
    res.sendData(await req.db.queryAlone("SELECT 1").then(() => "ran", (e) => e.message));
  }
}
`,
  );
  fs.mkdirSync(path.join(app.dir, "src/api/v2"), { recursive: true });
  fs.writeFileSync(
    path.join(app.dir, "src/api/v2/probe.api.v2.ts"),
    `export default class ProbeV2 { getProbePing(req, res) { res.sendData("pong v2"); } }\n`,
  );
  return app;
}

const seed = fs.readFileSync(path.join(EXAMPLE, "seed.sql"), "utf8");

/** A probe listing users through req.db, as Mia (Acme): Acme's users only, hidden columns null. */
async function seesAcmeUsers(
  t: Test,
  gw: Awaited<ReturnType<typeof testGatewayForApp>>,
  url: string,
  rowsMessage: string,
): Promise<void> {
  const users = await gw.request({ method: "GET", url, as: MIA });
  t.equal(users.statusCode, 200, users.body);
  const rows = JSON.parse(users.body).data as { id: string; lastLoginOn: unknown }[];
  t.same(
    rows.map((r) => Number(r.id)),
    [1, 2, 3, 7],
    rowsMessage,
  );
  t.ok(
    // (passwordHash is private: not in the view at all, test/security/privateColumns.test.ts.)
    rows.every((r) => r.lastLoginOn === null),
    "hidden columns are null",
  );
}

t.test("the naming rule", async (t) => {
  const cases: [string, string, string][] = [
    ["POST", "/user/login", "postUserLogin"],
    ["GET", "/user/me", "getUserMe"],
    ["POST", "/user/me/avatar", "postUserMeAvatar"],
    ["PATCH", "/order/status", "patchOrderStatus"],
    ["POST", "/user/refresh-token", "postUserRefreshToken"],
    ["POST", "/task/:id/attachments", "postTaskAttachments"],
  ];
  for (const [method, p, name] of cases) t.equal(handlerMethodName(method, p), name, `${method} ${p}`);
});

t.test("handlers load per version and by action; errors, timeouts and envelopes", async (t) => {
  const app = probeApp(t);
  const gw = await testGatewayForApp(t, app.dir, seed, { handlerTimeoutMs: 300 });
  const get = async (url: string, as?: typeof MIA) => {
    const res = await gw.request({ method: "GET", url, ...(as ? { as } : {}) });
    return { status: res.statusCode, body: JSON.parse(res.body), id: res.headers["x-request-id"] };
  };

  const v2 = await get("/api/v2/probe/ping");
  t.same(
    [v2.status, v2.body],
    [200, { data: "pong v2" }],
    "src/api/v2/probe.api.v2.ts for the /api/v2 group",
  );
  const renamed = await gw.request({ method: "POST", url: "/api/v1/probe/refresh-token", payload: {} });
  t.same(JSON.parse(renamed.body), { data: "renamed" }, "`action` overrides the method name");

  const thrown = await get("/api/v1/probe/throws");
  t.equal(thrown.status, 500);
  t.same(thrown.body, { error: { code: "SERVER_ERROR", message: "An unexpected error occurred" } });
  t.notMatch(JSON.stringify(thrown.body), /secret|pg_shadow|stack/);

  const started = Date.now();
  const hung = await get("/api/v1/probe/hangs");
  t.equal(hung.status, 500);
  t.same(hung.body, { error: { code: "SERVER_ERROR", message: "An unexpected error occurred" } });
  t.ok(Date.now() - started >= 290, "answered after the timeout");

  t.same(
    (await get("/api/v1/probe/returns")).body,
    { data: "late but fine" },
    "an answer after returning counts",
  );
  t.same(await get("/api/v1/probe/error").then((r) => [r.status, r.body]), [
    409,
    { error: { code: "CONFLICT", message: "Already done", details: { id: "is taken" } } },
  ]);
  const apiError = await get("/api/v1/probe/api-error");
  t.equal(apiError.status, 401, "an ApiError from req.db.call answers with its own envelope");
  t.same((await get("/api/v1/probe/twice")).body, { data: 1 }, "the first answer wins");
  t.same(
    (await get("/api/v1/probe/sent")).body,
    { data: { before: false, members: [], in: ["sent", "sendData"], after: true } },
    "res.sent turns true with the answer; res shows the handler nothing but its contract",
  );
  t.equal((await get("/api/v1/probe/no-total")).status, 500, "CUSTOM_PAGED without a total");

  const paged = await get("/api/v1/probe/tasks?perPage=3&page=2", MIA);
  t.same(
    paged,
    { status: 200, body: { data: [4, 5, 6], total: 8 }, id: paged.id },
    "{data, total}, Acme's 8 tasks",
  );
  const badPage = await get("/api/v1/probe/tasks?perPage=1000", MIA);
  t.equal(badPage.status, 422, "paged parameters validated for CUSTOM_PAGED");
});

t.test("req.db runs as the caller: row policies and column rules hold", async (t) => {
  const app = probeApp(t);
  const gw = await testGatewayForApp(t, app.dir, seed);
  await seesAcmeUsers(
    t,
    gw,
    "/api/v1/probe/users",
    "only Acme's users: another company's rows are invisible",
  );

  const globex = await gw.request({
    method: "GET",
    url: "/api/v1/probe/users",
    as: { ...MIA, companyId: 2, userId: 6 },
  });
  t.same(
    (JSON.parse(globex.body).data as { id: string }[]).map((r) => Number(r.id)),
    [4, 5, 6],
  );

  const done = await gw.request({ method: "POST", url: "/api/v1/probe/1/done", payload: {}, as: MIA });
  t.equal(done.statusCode, 200, done.body);
  t.equal(JSON.parse(done.body).data.done, true, "req.db.call ran the route function and committed");
  t.equal((await gw.su.query(`SELECT done FROM task WHERE id = 1`)).rows[0].done, true);

  const other = await gw.request({ method: "POST", url: "/api/v1/probe/9/done", payload: {}, as: MIA });
  t.equal(other.statusCode, 404, "another company's task: the route function's 404");
  t.equal((await gw.su.query(`SELECT done FROM task WHERE id = 9`)).rows[0].done, false);

  const noScope = await gw.request({
    method: "POST",
    url: "/api/v1/probe/1/done",
    payload: {},
    as: { ...MIA, scopes: [] },
  });
  t.equal(noScope.statusCode, 403, "req.db.call applies the called route's check");
});

t.test("req.db.queryAlone: the caller's one statement, committed in the same round trip", async (t) => {
  const app = probeApp(t);
  const gw = await testGatewayForApp(t, app.dir, seed);
  await seesAcmeUsers(
    t,
    gw,
    "/api/v1/probe/alone-users",
    "only Acme's users: the context holds for the statement",
  );

  t.equal((await gw.su.query("SELECT done FROM task WHERE id = 3")).rows[0].done, false, "open before");
  const done = await gw.request({ method: "POST", url: "/api/v1/probe/3/alone-done", payload: {}, as: MIA });
  t.equal(done.statusCode, 409, "the handler's own answer");
  t.equal(
    (await gw.su.query("SELECT done FROM task WHERE id = 3")).rows[0].done,
    true,
    "committed with the statement, whatever the handler answered next",
  );
  const other = await gw.request({ method: "POST", url: "/api/v1/probe/9/alone-done", payload: {}, as: MIA });
  t.equal(
    other.statusCode,
    500,
    "another company's task: the route function refused, an error for the handler",
  );
  t.equal((await gw.su.query("SELECT done FROM task WHERE id = 9")).rows[0].done, false);

  const misuse = await gw.request({ method: "GET", url: "/api/v1/probe/alone-misuse", as: MIA });
  t.equal(misuse.statusCode, 200, misuse.body);
  const alone = "req.db.queryAlone was this request's only use of req.db: nothing may follow it";
  t.same(JSON.parse(misuse.body).data, [alone, alone, alone], "nothing may follow it");
  const late = await gw.request({ method: "GET", url: "/api/v1/probe/alone-late", as: MIA });
  t.equal(
    JSON.parse(late.body).data,
    "req.db.queryAlone must be the request's only use of req.db: its transaction is already open",
    "nor come after another use",
  );
});

t.test("missing handler files and methods are reported at start-up, naming what was expected", async (t) => {
  const app = probeApp(t);
  fs.rmSync(path.join(app.dir, "src/api/v1/report.api.v1.ts"));
  const source = fs.readFileSync(path.join(app.dir, "src/api/v1/probe.api.v1.ts"), "utf8");
  fs.writeFileSync(
    path.join(app.dir, "src/api/v1/probe.api.v1.ts"),
    source.replace("getProbeTwice(", "getProbeTwise("),
  );
  const schema = readAppSchema(app.dir).schema as Schema;
  const loaded = await loadHandlers(app.dir, schema);
  t.same(
    loaded.problems.map((p) => [p.file, p.method, p.problem]),
    [
      [
        "src/api/v1/report.api.v1.ts",
        "postReportSummary",
        "handler file src/api/v1/report.api.v1.ts is missing (expected method postReportSummary)",
      ],
      [
        "src/api/v1/probe.api.v1.ts",
        "getProbeTwice",
        "src/api/v1/probe.api.v1.ts has no method getProbeTwice",
      ],
    ],
  );
  const build = () =>
    buildGateway({
      schema,
      pool: null as never,
      authenticate: () => ({ anonymous: true, reason: "missing" }),
      config: { maxPerPage: 100, bodyLimit: 1024, logLevel: "silent" },
      handlers: loaded,
    });
  t.throws(build, MissingHandlersError);
  try {
    build();
  } catch (error) {
    t.match(
      (error as Error).message,
      /POST \/api\/v1\/report\/summary: handler file src\/api\/v1\/report\.api\.v1\.ts is missing \(expected method postReportSummary\)/,
    );
    t.match(
      (error as Error).message,
      /GET \/api\/v1\/probe\/twice: src\/api\/v1\/probe\.api\.v1\.ts has no method getProbeTwice/,
    );
  }
});

t.test("the Restura fixture serves its standard routes; its custom routes answer 501", async (t) => {
  const gw = await testGateway(t, "tpl_restura");
  const res = await gw.request({ method: "POST", url: "/api/v1/user/login", payload: {} });
  t.equal(res.statusCode, 501);
  t.same(JSON.parse(res.body), {
    error: { code: "NOT_IMPLEMENTED", message: "This route is not implemented" },
  });
  const weather = await gw.request({ method: "GET", url: "/api/v1/weather" });
  t.equal(weather.statusCode, 501);
});
