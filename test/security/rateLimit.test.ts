// Rate limits (docs/schema.md "Rate limits", gateway/http/rateLimit.ts) over HTTP: the example's
// login allows 10 attempts a minute per address and per submitted username; the 11th is 429 with
// Retry-After in the standard envelope, whatever the password; the window resets. Addresses are
// set per request (fastify inject's remoteAddress). And the loader's checks of `rateLimit`.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readRateLimitConfig } from "../../gateway/http/rateLimit.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import { exampleAppWithStubs } from "../harness/app.ts";
import { JWT_SECRET, type TestGateway, testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { REPO } from "../harness/templates.ts";

process.env.JWT_SECRET = JWT_SECRET;
const EXAMPLE = path.join(REPO, "example");
const exampleSchema = JSON.parse(fs.readFileSync(path.join(EXAMPLE, "api.schema.json"), "utf8"));
const MIA = "mia.member@acme.test";

function login(gw: TestGateway, username: string, password: string, ip: string) {
  return gw.app.inject({
    method: "POST",
    url: "/api/v1/user/login",
    payload: { username, password },
    remoteAddress: ip,
  });
}

t.test("login: the 11th attempt in a minute is 429, per address and per username", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  for (let i = 1; i <= 10; i++) {
    const res = await login(gw, MIA, `wrong-${i}`, "10.0.0.1");
    t.equal(res.statusCode, 401, `attempt ${i}: a wrong password is 401`);
  }
  const eleventh = await login(gw, MIA, "wrong-11", "10.0.0.1");
  t.equal(eleventh.statusCode, 429);
  t.same(JSON.parse(eleventh.body), {
    error: { code: "TOO_MANY_REQUESTS", message: eleventh.json().error.message },
  });
  t.match(eleventh.json().error.message, /^Too many requests: try again in \d+ s$/);
  const retry = Number(eleventh.headers["retry-after"]);
  t.ok(retry >= 1 && retry <= 60, `Retry-After ${eleventh.headers["retry-after"]} seconds`);

  const right = await login(gw, MIA, "password123", "10.0.0.1");
  t.equal(right.statusCode, 429, "the right password after the limit is still 429: no brute force");
  t.ok(right.headers["retry-after"], "with Retry-After");

  const otherUser = await login(gw, "alice.admin@acme.test", "password123", "10.0.0.1");
  t.equal(otherUser.statusCode, 429, "another username from the same address: limited per address");
  const otherAddress = await login(gw, MIA, "password123", "10.0.0.2");
  t.equal(otherAddress.statusCode, 429, "the same username from another address: limited per username");
  const miaUpper = await login(gw, " MIA.Member@ACME.test ", "password123", "10.0.0.3");
  t.equal(miaUpper.statusCode, 429, "the username in another case and with spaces is the same account");

  const fresh = await login(gw, "mark.manager@acme.test", "password123", "10.0.0.4");
  t.not(fresh.statusCode, 429, "another username from another address is not limited");
  const { rows } = await gw.su.query(`SELECT "lastLoginOn" FROM public."user" WHERE "email" = $1`, [MIA]);
  t.same(rows, [{ lastLoginOn: null }], "Mia never logged in: the right password was never checked");
});

t.test("refresh-token: limited per address", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const codes: number[] = [];
  for (let i = 0; i < 31; i++) {
    const res = await gw.app.inject({
      method: "POST",
      url: "/api/v1/user/refresh-token",
      payload: { refreshToken: `not-a-real-token-${i}-${"x".repeat(20)}` },
      remoteAddress: "10.0.1.1",
    });
    codes.push(res.statusCode);
  }
  t.same(codes.slice(0, 30), Array(30).fill(401), "30 bad refresh tokens are 401");
  t.equal(codes[30], 429, "the 31st is 429");
});

/** The example's schema with a 1-second, 2-request login limit; stub handlers. */
function shortWindowApp(t: Parameters<typeof exampleAppWithStubs>[0]) {
  const schema = structuredClone(exampleSchema);
  const route = schema.endpoints[0].routes.find((r: { path: string }) => r.path === "/user/login");
  route.rateLimit = { max: 2, timeWindow: "1 second", keys: ["ip", "body.username"] };
  const company = schema.endpoints[0].routes.find((r: { path: string }) => r.path === "/company/public/:id");
  company.rateLimit = { max: 2, timeWindow: "1 minute", keys: ["ip", "params.id"] };
  const app = exampleAppWithStubs(t, schema, EXAMPLE);
  return app;
}

t.test("the window resets", async (t) => {
  const gw = await testGatewayForApp(t, shortWindowApp(t).dir);
  const codes = async (n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await login(gw, MIA, "x", "10.0.2.1")).statusCode);
    return out;
  };
  t.same(await codes(3), [200, 200, 429], "two allowed, the third refused");
  await new Promise((resolve) => setTimeout(resolve, 1200));
  t.same(await codes(3), [200, 200, 429], "after the window: allowed again");
});

t.test("a standard GET route with a limit: HEAD requests count too", async (t) => {
  const gw = await testGatewayForApp(t, shortWindowApp(t).dir);
  const call = (method: "GET" | "HEAD", id: number) =>
    gw.app.inject({ method, url: `/api/v1/company/public/${id}`, remoteAddress: "10.0.3.1" });
  t.equal((await call("GET", 1)).statusCode, 404, "no seed here: not found, counted");
  t.equal((await call("HEAD", 1)).statusCode, 404, "HEAD is counted on the same counters");
  const third = await call("GET", 1);
  t.equal(third.statusCode, 429);
  t.equal(third.json().error.code, "TOO_MANY_REQUESTS");
  t.equal((await call("GET", 2)).statusCode, 429, "the address is over its limit for any id");
});

t.test("RATE_LIMIT_MAX / RATE_LIMIT_WINDOW", async (t) => {
  t.same(readRateLimitConfig({}), {});
  t.same(readRateLimitConfig({ RATE_LIMIT_MAX: "100" }), {
    defaultLimit: { max: 100, timeWindow: 60_000, keys: ["ip"] },
  });
  t.same(
    readRateLimitConfig({ RATE_LIMIT_MAX: "5", RATE_LIMIT_WINDOW: "10 seconds" }).defaultLimit?.timeWindow,
    10_000,
  );
  t.throws(() => readRateLimitConfig({ RATE_LIMIT_MAX: "many" }), /RATE_LIMIT_MAX must be a whole number/);
  t.throws(
    () => readRateLimitConfig({ RATE_LIMIT_MAX: "5", RATE_LIMIT_WINDOW: "soon" }),
    /RATE_LIMIT_WINDOW/,
  );
  t.throws(() => readRateLimitConfig({ RATE_LIMIT_WINDOW: "1 minute" }), /without RATE_LIMIT_MAX/);
});

t.test("the loader checks rateLimit, with JSON paths", async (t) => {
  const index = exampleSchema.endpoints[0].routes.findIndex(
    (r: { path: string }) => r.path === "/user/login",
  );
  const at = `endpoints[0].routes[${index}].rateLimit`;
  const errors = (limit: unknown) => {
    const s = structuredClone(exampleSchema);
    s.endpoints[0].routes[index].rateLimit = limit;
    return loadSchema(s).errors;
  };
  t.same(errors({ max: 10, timeWindow: "1 minute", keys: ["ip", "body.username"] }), []);
  t.same(errors({ max: 10, timeWindow: 500, keys: ["ip"] }), [], "milliseconds");
  t.same(errors({ max: 0, timeWindow: "1 minute", keys: ["ip"] }), [
    { path: `${at}.max`, message: "expected a whole number from 1 to 1000000, got 0" },
  ]);
  t.match(errors({ max: 1, timeWindow: "a while", keys: ["ip"] }), [
    { path: `${at}.timeWindow`, message: /expected a duration like "1 minute"/ },
  ]);
  t.match(errors({ max: 1, timeWindow: "2 days", keys: ["ip"] }), [
    { path: `${at}.timeWindow`, message: "expected a duration from 1 millisecond to 1 day" },
  ]);
  t.match(errors({ max: 1, timeWindow: "1 minute", keys: [] }), [
    { path: `${at}.keys`, message: /non-empty/ },
  ]);
  t.match(errors({ max: 1, timeWindow: "1 minute", keys: ["ip", "ip"] }), [
    { path: `${at}.keys[1]`, message: `key "ip" is listed more than once` },
  ]);
  t.match(errors({ max: 1, timeWindow: "1 minute", keys: ["cookie.sid"] }), [
    { path: `${at}.keys[0]`, message: /expected "ip", "body.<field>"/ },
  ]);
  t.match(errors({ max: 1, timeWindow: "1 minute", keys: ["params.id"] }), [
    { path: `${at}.keys[0]`, message: /"id" is not a parameter of the path \/user\/login/ },
  ]);
  t.match(errors({ max: 1, timeWindow: "1 minute", keys: ["ip"], burst: 3 }), [
    { path: `${at}.burst`, message: /unknown property "burst"/ },
  ]);
  t.match(errors({ max: "10", timeWindow: "1 minute", keys: ["ip"] }), [
    { path: `${at}.max`, message: /expected an integer/ },
  ]);
  // On a route with declared parameters, body fields must be among them.
  const refresh = exampleSchema.endpoints[0].routes.findIndex(
    (r: { path: string }) => r.path === "/user/refresh-token",
  );
  const s = structuredClone(exampleSchema);
  s.endpoints[0].routes[refresh].rateLimit = { max: 1, timeWindow: "1 minute", keys: ["body.refreshTokn"] };
  t.match(loadSchema(s).errors, [
    {
      path: `endpoints[0].routes[${refresh}].rateLimit.keys[0]`,
      message: /"refreshTokn" is not a request parameter of this route \(did you mean "refreshToken"\?\)/,
    },
  ]);
});
