// What the HTTP server answers before (or instead of) a route: Node's own parser errors (400,
// 431) and a request body that never finishes (408) in the error envelope, over a real socket;
// and the refusal of credentials written to the log with the request id while the client gets
// only the 401 (issue 8 item 7, issue 10 items 5 and 8).

import jwt from "jsonwebtoken";
import t, { type Test } from "tap";
import { customAuthenticator } from "../../gateway/auth/custom.ts";
import { loadExampleSchema } from "./helpers.ts";
import { OFFLINE_SECRET, offlineGateway, parseRaw, rawExchange } from "./offline.ts";

const JSON_TYPE = "application/json; charset=utf-8";

async function listening(t: Test, config: Parameters<typeof offlineGateway>[0] = {}) {
  const gw = await offlineGateway(config);
  t.teardown(gw.close);
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const port = (gw.app.server.address() as { port: number }).port;
  return { gw, port };
}

t.test("Node's own 400 and 431 answers are in the envelope", async (t) => {
  const { port } = await listening(t);
  const cases: [string, string, number, string, string][] = [
    [
      "a malformed Content-Length",
      "POST /api/v1/tag HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      400,
      "BAD_REQUEST",
      "Malformed HTTP request",
    ],
    [
      "an unknown method",
      "FROB /api/v1/tag HTTP/1.1\r\nHost: x\r\n\r\n",
      400,
      "BAD_REQUEST",
      "Unknown HTTP method",
    ],
    [
      "a header without a colon",
      "GET /api/v1/tag HTTP/1.1\r\nHost x\r\n\r\n",
      400,
      "BAD_REQUEST",
      "Malformed HTTP request",
    ],
    [
      "headers over the size limit",
      `GET /api/v1/tag HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      "HEADERS_TOO_LARGE",
      "Request headers are too large",
    ],
  ];
  for (const [what, request, status, code, message] of cases) {
    const answer = parseRaw(await rawExchange(port, [request]));
    t.equal(answer.status, status, `${what}: ${status}`);
    t.equal(answer.headers["content-type"], JSON_TYPE, `${what}: JSON`);
    t.equal(answer.headers.connection, "close", `${what}: the connection is closed`);
    t.same(answer.body, { error: { code, message } }, `${what}: the envelope`);
  }
});

t.test("methods the router has no route for: the envelope, 405 with Allow on a known path", async (t) => {
  const { port } = await listening(t);
  for (const method of ["PURGE", "PROPFIND", "TRACE", "OPTIONS"]) {
    const answer = parseRaw(
      await rawExchange(port, [`${method} /api/v1/tag HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]),
    );
    t.equal(answer.status, 405, `${method}: 405`);
    t.equal(answer.headers.allow, "GET, HEAD", `${method}: Allow`);
    t.same(answer.body, {
      error: { code: "METHOD_NOT_ALLOWED", message: "This path allows only GET, HEAD" },
    });
  }
  const unknown = parseRaw(
    await rawExchange(port, ["PURGE /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"]),
  );
  t.equal(unknown.status, 404, "an unknown path stays 404");
  const connect = parseRaw(
    await rawExchange(port, ["CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n"]),
  );
  t.equal(connect.status, 405, "CONNECT: 405, not a silently dropped connection");
  t.same(connect.body, { error: { code: "METHOD_NOT_ALLOWED", message: "CONNECT is not supported" } });
});

t.test("a body that does not arrive within REQUEST_TIMEOUT_MS: 408 in the envelope", async (t) => {
  const { port } = await listening(t, { requestTimeoutMs: 400 });
  const started = Date.now();
  const head =
    "POST /api/v1/task HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n";
  // One byte every 100 ms: the connection is never idle, but the request never completes.
  const bytes = `{"title": "${"x".repeat(60)}`.split("");
  const answer = parseRaw(await rawExchange(port, [head, ...bytes], 100));
  const took = Date.now() - started;
  t.equal(answer.status, 408, "408");
  t.same(answer.body, {
    error: { code: "REQUEST_TIMEOUT", message: "The request was not received in time" },
  });
  t.ok(took >= 400 && took < 3000, `answered after the timeout, not at the end of the body (${took} ms)`);
});

t.test("the server's timeouts are set (Node and Fastify default to none)", async (t) => {
  const { gw } = await listening(t);
  const server = gw.app.server;
  t.equal(server.requestTimeout, 60_000, "requestTimeout");
  t.equal(server.timeout, 120_000, "connection (idle socket) timeout");
  t.equal(server.keepAliveTimeout, 72_000, "keepAliveTimeout");
  t.ok(server.headersTimeout <= server.requestTimeout, "headersTimeout within requestTimeout");
  const { gw: custom } = await listening(t, {
    requestTimeoutMs: 5000,
    connectionTimeoutMs: 30_000,
    keepAliveTimeoutMs: 4000,
  });
  t.equal(custom.app.server.requestTimeout, 5000);
  t.equal(custom.app.server.timeout, 30_000);
  t.equal(custom.app.server.keepAliveTimeout, 4000);
  t.equal(custom.app.server.headersTimeout, 5000);
});

t.test(
  "refused credentials: the reason in the log with the request id, only the 401 to the client",
  async (t) => {
    const gw = await offlineGateway();
    t.teardown(gw.close);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const claims = { role: "member", scopes: [], userId: 3, companyId: 1 };
    const cases: [string, string, string, RegExp][] = [
      [
        "expired",
        jwt.sign({ ...claims, exp: exp - 3600 }, OFFLINE_SECRET, { algorithm: "HS256" }),
        "Token expired",
        /jwt expired/,
      ],
      [
        "bad signature",
        jwt.sign({ ...claims, exp }, "another-secret-of-at-least-32-bytes!!", { algorithm: "HS256" }),
        "Invalid credentials",
        /invalid signature/,
      ],
      [
        "wrong algorithm",
        jwt.sign({ ...claims, exp }, OFFLINE_SECRET, { algorithm: "HS384" }),
        "Invalid credentials",
        /invalid algorithm/,
      ],
      ["malformed", "abc.def.ghi", "Invalid credentials", /invalid token|malformed|Unexpected token/],
      [
        "a global of the wrong type",
        jwt.sign({ ...claims, companyId: "1 OR 1=1", exp }, OFFLINE_SECRET, { algorithm: "HS256" }),
        "Invalid credentials",
        /claim "companyId" must be an integer/,
      ],
    ];
    for (const [what, token, message, detail] of cases) {
      const res = await gw.app.inject({
        method: "GET",
        url: "/api/v1/project",
        headers: { authorization: `Bearer ${token}` },
      });
      t.equal(res.statusCode, 401, `${what}: 401`);
      t.same(
        JSON.parse(res.body),
        { error: { code: "UNAUTHORIZED", message } },
        `${what}: only the 401 message`,
      );
      const id = res.headers["x-request-id"];
      const entry = gw.logs().find((l) => l.reqId === id && l.msg === "credentials refused");
      t.ok(entry, `${what}: logged with the request id`);
      const auth = entry?.auth as { reason?: string; detail?: string } | undefined;
      t.match(auth?.detail, detail, `${what}: the log says why`);
      t.notOk(JSON.stringify(entry).includes(token), `${what}: the token itself is not logged`);
    }
    const anonymous = await gw.app.inject({ method: "GET", url: "/api/v1/project" });
    t.equal(anonymous.statusCode, 401);
    t.notOk(
      gw.logs().some((l) => l.reqId === anonymous.headers["x-request-id"] && l.msg === "credentials refused"),
      "no credentials at all is not a refusal: not logged",
    );
  },
);

t.test("a custom handler's thrown reason is logged too", async (t) => {
  const schema = loadExampleSchema();
  const handler = () => {
    throw new Error("unknown app secret");
  };
  const gw = await offlineGateway({}, customAuthenticator(handler, schema.globalParams));
  t.teardown(gw.close);
  const res = await gw.app.inject({
    method: "GET",
    url: "/api/v1/project",
    headers: { "x-api-key": "nope" },
  });
  t.equal(res.statusCode, 401);
  t.same(JSON.parse(res.body), { error: { code: "UNAUTHORIZED", message: "Invalid credentials" } });
  const entry = gw
    .logs()
    .find((l) => l.reqId === res.headers["x-request-id"] && l.msg === "credentials refused");
  t.match((entry?.auth as { detail?: string })?.detail, /unknown app secret/);
});
