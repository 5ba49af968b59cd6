// CORS (issue 8 item 9): off by default; CORS_ORIGINS lists the origins a browser page may call
// from (or `*`). Preflights over inject: an allowed origin gets the headers, another does not.
// Also the gateway settings of that issue: CORS_ORIGINS and the timeouts, read at start-up.

import t from "tap";
import { readGatewayConfig } from "../../gateway/config.ts";
import { offlineGateway } from "./offline.ts";

const APP = "https://app.example.com";
const preflight = (origin: string, url = "/api/v1/task") => ({
  method: "OPTIONS" as const,
  url,
  headers: {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization, content-type",
  },
});

t.test("off by default: no CORS headers, a preflight is a 405", async (t) => {
  const gw = await offlineGateway();
  t.teardown(gw.close);
  const res = await gw.app.inject(preflight(APP));
  t.equal(res.headers["access-control-allow-origin"], undefined, "no Access-Control-Allow-Origin");
  t.equal(res.headers["access-control-allow-methods"], undefined);
  t.equal(res.statusCode, 405, "OPTIONS is not a method of the route");
  const get = await gw.app.inject({ method: "GET", url: "/health", headers: { origin: APP } });
  t.equal(get.headers["access-control-allow-origin"], undefined, "nor on ordinary answers");
});

t.test("a list of origins", async (t) => {
  const gw = await offlineGateway({ corsOrigins: [APP, "http://localhost:5173"] });
  t.teardown(gw.close);
  for (const origin of [APP, "http://localhost:5173"]) {
    const res = await gw.app.inject(preflight(origin));
    t.equal(res.statusCode, 204, `${origin}: 204`);
    t.equal(res.headers["access-control-allow-origin"], origin, `${origin}: allowed`);
    t.match(res.headers.vary, /Origin/, "Vary: Origin (the answer depends on it)");
    t.match(res.headers["access-control-allow-methods"], /POST/);
    t.match(res.headers["access-control-allow-headers"], /authorization/);
    t.match(res.headers["access-control-allow-headers"], /content-type/);
    t.equal(res.headers["access-control-max-age"], "600");
    t.equal(res.headers["access-control-allow-credentials"], undefined, "no credentials mode");
  }
  for (const origin of [
    "https://evil.example.com",
    "https://app.example.com.evil.com",
    "http://app.example.com",
    "null",
  ]) {
    const res = await gw.app.inject(preflight(origin));
    t.equal(res.headers["access-control-allow-origin"], undefined, `${origin}: not allowed`);
  }
  const get = await gw.app.inject({ method: "GET", url: "/health", headers: { origin: APP } });
  t.equal(get.headers["access-control-allow-origin"], APP, "an actual request gets it too");
  t.match(
    get.headers["access-control-expose-headers"],
    /x-request-id/,
    "the request id is readable by scripts",
  );
  const denied = await gw.app.inject({ method: "GET", url: "/api/v1/project", headers: { origin: APP } });
  t.equal(denied.statusCode, 401);
  t.equal(denied.headers["access-control-allow-origin"], APP, "error answers too, so the page can read them");
  const unknown = await gw.app.inject(preflight(APP, "/api/v1/nope"));
  t.equal(unknown.headers["access-control-allow-origin"], APP, "preflights do not reveal which paths exist");
});

t.test("*: any origin", async (t) => {
  const gw = await offlineGateway({ corsOrigins: "*" });
  t.teardown(gw.close);
  const res = await gw.app.inject(preflight("https://anywhere.example"));
  t.equal(res.statusCode, 204);
  t.equal(res.headers["access-control-allow-origin"], "*");
});

t.test("CORS_ORIGINS and the timeouts are read at start-up", async (t) => {
  const base = readGatewayConfig({});
  t.equal(base.corsOrigins, undefined, "CORS off by default");
  t.same(
    [base.requestTimeoutMs, base.connectionTimeoutMs, base.keepAliveTimeoutMs],
    [60_000, 120_000, 72_000],
    "timeouts by default",
  );
  t.equal(readGatewayConfig({ CORS_ORIGINS: " * " }).corsOrigins, "*");
  t.same(readGatewayConfig({ CORS_ORIGINS: `${APP}, http://localhost:5173` }).corsOrigins, [
    APP,
    "http://localhost:5173",
  ]);
  for (const bad of [
    `${APP}/`,
    `${APP}/path`,
    "app.example.com",
    "ftp://x.example",
    `${APP},`,
    "*,https://a.b",
  ]) {
    t.throws(() => readGatewayConfig({ CORS_ORIGINS: bad }), {
      message: /^CORS_ORIGINS must be \* or a comma-separated list/,
    });
  }
  const set = readGatewayConfig({
    REQUEST_TIMEOUT_MS: "5000",
    CONNECTION_TIMEOUT_MS: "30000",
    KEEP_ALIVE_TIMEOUT_MS: "4000",
  });
  t.same([set.requestTimeoutMs, set.connectionTimeoutMs, set.keepAliveTimeoutMs], [5000, 30_000, 4000]);
  for (const name of ["REQUEST_TIMEOUT_MS", "CONNECTION_TIMEOUT_MS", "KEEP_ALIVE_TIMEOUT_MS"]) {
    for (const bad of ["0", "999", "abc", "3600001"]) {
      t.throws(() => readGatewayConfig({ [name]: bad }), {
        message: `${name} must be a whole number from 1000 to 3600000 (got "${bad}")`,
      });
    }
  }
  t.throws(() => readGatewayConfig({ CONNECTION_TIMEOUT_MS: "10000" }), {
    message: /^CONNECTION_TIMEOUT_MS \(10000\) must be greater than HANDLER_TIMEOUT_MS \(10000\)/,
  });
});
