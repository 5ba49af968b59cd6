// Errors over HTTP (docs/errors.md): unknown routes and methods, malformed queries, a route function
// that fails unexpectedly (500 with the generic message and no Postgres text), the database
// unreachable (503 on routes and /ready, /health still 200), deprecation headers, and the request
// id header on errors.

import net from "node:net";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { CAST_FAILURE_MESSAGE, TOO_LONG_MESSAGE } from "../../gateway/errors.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import { JWT_SECRET, testGateway, token } from "../harness/gateway.ts";
import { RESTURA_FIXTURE } from "../harness/templates.ts";
import {
  caller,
  EXAMPLE_DIR,
  getStandardRoutes,
  JSON_CONTENT_TYPE,
  loadExampleSchema,
  sampleUrl,
  USERS,
} from "./helpers.ts";

const schema = loadExampleSchema();
const member = caller("member1", ["tasks:write"]);
const admin = caller("admin1", ["billing:read", "tasks:write"]);
const GENERIC_500 = { error: { code: "SERVER_ERROR", message: "An unexpected error occurred" } };

/** A TCP port on loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test("example app", async (t) => {
  const gw = await testGateway(t, "tpl_example");

  t.test("unknown route: 404 envelope, nothing sent to the database", async (t) => {
    for (const url of [
      "/",
      "/api",
      "/api/v1",
      "/api/v1/nope",
      "/api/v2/tag",
      "/api/v1/tag/extra",
      "/api/v1/tags",
      "/api/v1/TAG",
      "/api/v1/user/me/nope",
      "/API/V1/TAG",
    ]) {
      const before = gw.statements();
      const res = await gw.request({ method: "GET", url, as: member });
      t.equal(res.statusCode, 404, `${url}: 404`);
      t.equal(res.headers["content-type"], JSON_CONTENT_TYPE, `${url}: JSON`);
      t.same(JSON.parse(res.body), { error: { code: "NOT_FOUND", message: "Route not found" } }, url);
      t.equal(gw.statements(), before, `${url}: no statement`);
    }
  });

  t.test("wrong method on an existing path: 405 envelope with Allow", async (t) => {
    for (const [method, url, allow] of [
      ["PUT", "/api/v1/tag", "GET, HEAD"],
      ["DELETE", "/api/v1/invoice", "GET, HEAD"],
      // PATCH and DELETE /task/:id take `overdue` as their id: the router would run them.
      ["POST", "/api/v1/task/overdue", "DELETE, GET, HEAD, PATCH"],
      ["PATCH", "/api/v1/company/me", "GET, HEAD"],
      ["DELETE", "/api/v1/user", "GET, HEAD"],
    ] as const) {
      const before = gw.statements();
      const res = await gw.request({ method, url, as: admin, payload: {} });
      t.equal(res.statusCode, 405, `${method} ${url}: 405`);
      t.equal(res.headers.allow, allow, `${method} ${url}: Allow`);
      t.same(JSON.parse(res.body), {
        error: { code: "METHOD_NOT_ALLOWED", message: `This path allows only ${allow}` },
      });
      t.type(res.headers["x-request-id"], "string", "x-request-id");
      t.equal(gw.statements(), before, "no statement");
    }
  });

  t.test("malformed queries: 400 or 422 envelopes, from the gateway", async (t) => {
    const cases: [string, number, string, Record<string, string>?][] = [
      ["/api/v1/project?filter=(", 400, "BAD_REQUEST"],
      ["/api/v1/project?filter=(name,eq,a", 400, "BAD_REQUEST"],
      ["/api/v1/project?filter=(name,EQ,a)", 400, "BAD_REQUEST"],
      ["/api/v1/project?filter=name=a", 400, "BAD_REQUEST"],
      ["/api/v1/project?filter=(nope,eq,a)", 400, "BAD_REQUEST"],
      ["/api/v1/project?page=abc", 422, "VALIDATION_ERROR", { page: "must be an integer" }],
      ["/api/v1/project?page=0", 422, "VALIDATION_ERROR"],
      ["/api/v1/project?perPage=101", 422, "VALIDATION_ERROR"],
      ["/api/v1/project?sortOrder=sideways", 422, "VALIDATION_ERROR"],
      ["/api/v1/project?page=1&page=2", 422, "VALIDATION_ERROR", { page: "must be a single value" }],
      ["/api/v1/project?nope=1", 422, "VALIDATION_ERROR", { nope: "unknown parameter" }],
      ["/api/v1/tag?page=1", 422, "VALIDATION_ERROR", { page: "unknown parameter" }],
      ["/api/v1/user/search", 422, "VALIDATION_ERROR"],
      ["/api/v1/task/search?q=a", 422, "VALIDATION_ERROR"],
      ["/api/v1/task/by-priority", 422, "VALIDATION_ERROR"],
      ["/api/v1/project/abc", 422, "VALIDATION_ERROR", { id: "must be a number" }],
      ["/api/v1/project/0", 422, "VALIDATION_ERROR"],
      ["/api/v1/project/1?id=2", 422, "VALIDATION_ERROR"],
    ];
    for (const [url, status, code, details] of cases) {
      const before = gw.statements();
      const res = await gw.request({ method: "GET", url, as: admin });
      const body = JSON.parse(res.body) as { error: { code: string; message: string; details?: unknown } };
      t.equal(res.statusCode, status, `${url}: ${status}`);
      t.equal(body.error.code, code, `${url}: ${code}`);
      t.type(body.error.message, "string");
      if (code === "BAD_REQUEST") t.match(body.error.message, /at position \d+/, `${url}: says where`);
      if (code === "VALIDATION_ERROR") t.type(body.error.details, "object", `${url}: details per parameter`);
      if (details) t.same(body.error.details, details, `${url}: details`);
      t.equal(gw.statements(), before, `${url}: answered by the gateway, no statement`);
      t.type(res.headers["x-request-id"], "string", `${url}: x-request-id`);
    }
  });

  t.test("a route function that fails unexpectedly: 500, generic, no Postgres text", async (t) => {
    const fn = `api."GET /api/v1/tag"`;
    const { rows } = await gw.su.query<{ sig: string }>(
      `SELECT '${fn}(jsonb, jsonb)'::regprocedure::text AS sig`,
    );
    t.ok(rows[0]?.sig, "the route function exists");
    const replace = (body: string) =>
      gw.su.query(`CREATE OR REPLACE FUNCTION ${fn}(params jsonb, ctx jsonb) RETURNS json
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $fn$ ${body} $fn$`);
    const original = await gw.su.query<{ def: string }>(
      `SELECT pg_get_functiondef('${fn}(jsonb, jsonb)'::regprocedure) AS def`,
    );
    t.teardown(() => gw.su.query(original.rows[0]?.def as string));

    const leaks = [
      /division/i,
      /zero/i,
      /22012/,
      /plpgsql/i,
      /api\./,
      /SELECT/i,
      /\$2b\$/,
      /secret/i,
      /stack/i,
    ];
    const failures: [string, string][] = [
      ["division_by_zero", "BEGIN RETURN json_build_object('data', 1 / 0); END"],
      [
        "an error whose text holds data",
        `BEGIN RAISE EXCEPTION 'secret: %', (SELECT "passwordHash" FROM public."user" LIMIT 1); END`,
      ],
      ["a constraint-like SQLSTATE", "BEGIN RAISE EXCEPTION 'bad' USING ERRCODE = 'P0001'; END"],
      // Only row security's WITH CHECK is the client's 403; elsewhere 42501 is a missing grant.
      [
        "insufficient_privilege, not from row security",
        "BEGIN RAISE EXCEPTION 'no grant' USING ERRCODE = '42501'; END",
      ],
    ];
    for (const [what, body] of failures) {
      await replace(body);
      const res = await gw.request({ method: "GET", url: "/api/v1/tag", as: member });
      t.equal(res.statusCode, 500, `${what}: 500`);
      t.equal(res.headers["content-type"], JSON_CONTENT_TYPE);
      t.same(JSON.parse(res.body), GENERIC_500, `${what}: the generic envelope, nothing else`);
      for (const leak of leaks) t.notMatch(res.body, leak, `${what}: no ${leak}`);
      t.type(res.headers["x-request-id"], "string", `${what}: x-request-id, to find it in the log`);
    }
    // A request value's fault, raised by the function's statements: the status its SQLSTATE
    // says, and our fixed message, never Postgres's text (which quotes the value).
    const valueFaults: [string, string, number, string, string][] = [
      [
        "a value that does not cast",
        "BEGIN RETURN json_build_object('data', 'abc'::bigint); END",
        400,
        "BAD_REQUEST",
        CAST_FAILURE_MESSAGE,
      ],
      [
        "a value too long for its column",
        "BEGIN RAISE EXCEPTION 'value too long' USING ERRCODE = '22001'; END",
        422,
        "VALIDATION_ERROR",
        TOO_LONG_MESSAGE,
      ],
    ];
    for (const [what, body, status, code, message] of valueFaults) {
      await replace(body);
      const res = await gw.request({ method: "GET", url: "/api/v1/tag", as: member });
      t.equal(res.statusCode, status, `${what}: ${status}`);
      t.same(JSON.parse(res.body), { error: { code, message } }, `${what}: our message`);
      t.notMatch(res.body, /abc|bigint|22P02|22001/, `${what}: no Postgres text`);
    }
    const other = await gw.request({ method: "GET", url: "/api/v1/user", as: member });
    t.equal(other.statusCode, 200, "other routes keep working");
    await gw.su.query(original.rows[0]?.def as string);
    const back = await gw.request({ method: "GET", url: "/api/v1/tag", as: member });
    t.equal(back.statusCode, 200, "the route works again once its function is restored");
  });

  t.test("/health and /ready with the database up", async (t) => {
    const health = await gw.request({ method: "GET", url: "/health" });
    t.equal(health.statusCode, 200);
    t.same(JSON.parse(health.body), { status: "ok" });
    const ready = await gw.request({ method: "GET", url: "/ready" });
    t.equal(ready.statusCode, 200);
    t.same(JSON.parse(ready.body), { status: "ready" });
  });

  t.test("deprecation headers: only on the deprecated route", async (t) => {
    const routes = getStandardRoutes(schema);
    for (const r of routes) {
      const res = await gw.request({ method: "GET", url: sampleUrl(r), as: admin });
      t.equal(res.statusCode, 200, `${r.name}: 200`);
      if (r.route.deprecation) {
        t.equal(res.headers.deprecation, "true", `${r.name}: Deprecation`);
        t.equal(res.headers.sunset, new Date(r.route.deprecation.date).toISOString(), `${r.name}: Sunset`);
        t.match(res.headers.sunset, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, "ISO 8601");
      } else {
        t.equal(res.headers.deprecation, undefined, `${r.name}: no Deprecation`);
        t.equal(res.headers.sunset, undefined, `${r.name}: no Sunset`);
        t.equal(res.headers.link, undefined, `${r.name}: no Link`);
      }
    }
    const res = await gw.request({ method: "GET", url: "/api/v1/task/assigned-to-me", as: member });
    t.equal(res.headers.deprecation, "true");
    t.equal(res.headers.sunset, "2027-06-30T00:00:00.000Z");
    t.equal(res.headers.link, '</api/v1/task/mine>; rel="alternate"', "Link to the alternate route");
  });

  t.test("x-request-id on errors, a different one per request", async (t) => {
    const ids = new Set<string>();
    for (const [url, as, status] of [
      ["/api/v1/user/me", undefined, 401],
      ["/api/v1/invoice", member, 403],
      ["/api/v1/project?page=x", member, 422],
      ["/api/v1/project?filter=(", member, 400],
      ["/api/v1/project/4", member, 404],
      ["/api/v1/project/4", member, 404],
    ] as const) {
      const res = await gw.request({ method: "GET", url, ...(as ? { as } : {}) });
      t.equal(res.statusCode, status, `${url}: ${status}`);
      const id = res.headers["x-request-id"];
      t.type(id, "string", `${url}: x-request-id`);
      ids.add(String(id));
    }
    t.equal(ids.size, 6, "each request its own id");
  });

  t.test("an empty filter parameter is no filter", async (t) => {
    const plain = await gw.request({ method: "GET", url: "/api/v1/project", as: member });
    const before = gw.statements();
    const empty = await gw.request({ method: "GET", url: "/api/v1/project?filter=", as: member });
    t.equal(empty.statusCode, 200, "200");
    t.equal(empty.body, plain.body, "the same answer as without a filter");
    t.equal(gw.statements() - before, 1, "one statement");
  });

  t.test("x-request-id on a 404 for an unknown route", async (t) => {
    const res = await gw.request({ method: "GET", url: "/api/v1/nope", as: member });
    t.equal(res.statusCode, 404);
    t.type(res.headers["x-request-id"], "string");
  });

  t.test("malformed URL: the error envelope", async (t) => {
    for (const url of [
      "/api/v1/project/%",
      "/api/v1/project/%E0%A4%A",
      `/api/v1/project/${"1".repeat(200)}`,
    ]) {
      const res = await gw.request({ method: "GET", url, as: member });
      t.equal(res.statusCode, 400, `${url.slice(0, 40)}: 400`);
      const body = JSON.parse(res.body) as { error?: { code?: string; message?: string } };
      t.same(Object.keys(body), ["error"], "the envelope");
      t.equal(body.error?.code, "BAD_REQUEST");
      t.type(res.headers["x-request-id"], "string");
    }
  });

  t.test("an error answer of a deprecated route carries the deprecation headers too", async (t) => {
    const res = await gw.request({ method: "GET", url: "/api/v1/task/assigned-to-me" });
    t.equal(res.statusCode, 401);
    t.equal(res.headers.deprecation, "true");
    t.equal(res.headers.sunset, "2027-06-30T00:00:00.000Z");
  });
});

t.test("Restura fixture: deprecation headers", async (t) => {
  const gw = await testGateway(t, "tpl_restura");
  const loaded = readAppSchema(path.dirname(RESTURA_FIXTURE));
  if (!loaded.schema) throw new Error("the Restura fixture does not load");
  const route = getStandardRoutes(loaded.schema).find((r) => r.fullPath === "/api/v1/user/my-user");
  const as = { role: "admin", scopes: [], userId: 1, companyId: 1 };

  const res = await gw.request({ method: "GET", url: "/api/v1/user/my-user", as });
  t.equal(res.statusCode, 200, "a deprecated route still works");
  t.equal(res.headers.deprecation, "true", "Deprecation: true");
  t.equal(res.headers.sunset, new Date(route?.route.deprecation?.date as string).toISOString(), "Sunset");
  t.equal(res.headers.sunset, "2025-12-22T20:50:59.010Z", "the fixture's date");
  t.match(res.headers.sunset, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, "ISO 8601");
  t.equal(res.headers.link, undefined, "no alternate, no Link");

  for (const r of getStandardRoutes(loaded.schema)) {
    if (r.route.deprecation) continue;
    const other = await gw.request({
      method: "GET",
      url: r.fullPath === "/api/v1/user/before" ? `${r.fullPath}?date=2024-04-01T00:00:00Z` : r.fullPath,
      as: { role: "user", scopes: ["read:user"], userId: 2, companyId: 1 },
    });
    t.equal(other.statusCode, 200, `${r.name}: 200`);
    t.equal(other.headers.deprecation, undefined, `${r.name}: no Deprecation`);
    t.equal(other.headers.sunset, undefined, `${r.name}: no Sunset`);
  }
});

t.test("database unreachable: 503 on routes and /ready, /health still 200", async (t) => {
  const port = await closedPort();
  const pool = createPool(`postgres://api_gateway:x@127.0.0.1:${port}/nowhere`, 2);
  const loaded = readAppSchema(EXAMPLE_DIR);
  if (!loaded.schema) throw new Error("example schema does not load");
  const authenticate = builtInAuthenticator(
    readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
    loaded.schema.globalParams,
  );
  const app = buildGateway({
    schema: loaded.schema,
    pool,
    authenticate,
    config: { maxPerPage: 100, bodyLimit: 1024 * 1024, logLevel: "silent" },
    allowMissingHandlers: true,
  });
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await pool.end();
  });
  const auth = { authorization: `Bearer ${token({ ...USERS.member1, scopes: ["tasks:write"] })}` };

  for (const url of ["/api/v1/tag", "/api/v1/project?filter=(name,has,a)", "/api/v1/project/1"]) {
    const res = await app.inject({ method: "GET", url, headers: auth });
    t.equal(res.statusCode, 503, `${url}: 503`);
    t.same(
      JSON.parse(res.body),
      { error: { code: "SERVICE_UNAVAILABLE", message: "Service temporarily unavailable" } },
      `${url}: envelope`,
    );
    t.notMatch(res.body, /ECONNREFUSED|127\.0\.0\.1|connect/i, "no connection details");
    t.type(res.headers["x-request-id"], "string", "x-request-id");
  }
  const anonymous = await app.inject({ method: "GET", url: "/api/v1/user/me" });
  t.equal(anonymous.statusCode, 401, "the gateway's own checks still answer without the database");

  const ready = await app.inject({ method: "GET", url: "/ready" });
  t.equal(ready.statusCode, 503, "/ready: 503");
  t.same(JSON.parse(ready.body), { error: { code: "SERVICE_UNAVAILABLE", message: "Database unreachable" } });
  const health = await app.inject({ method: "GET", url: "/health" });
  t.equal(health.statusCode, 200, "/health: 200 (liveness does not depend on the database)");
  t.same(JSON.parse(health.body), { status: "ok" });
});
