// Client input that used to end as a 500 (issue 10 item 6), with real tokens against the example
// app: globals of the wrong type in a token, unpaired surrogates, JSON nested thousands deep, NUL
// in a custom route's input, impossible dates and integers reaching a handler's SQL. Also the
// 415 for a body that is not JSON (issue 8 item 10a), the cap on echoed unknown keys and random
// request ids (issue 10 item 8). Each answer is a 4xx envelope without Postgres text, and changes
// nothing.

import t, { type Test } from "tap";
import { INVALID_VALUE_MESSAGE } from "../../gateway/errors.ts";
import { MAX_JSON_DEPTH } from "../../gateway/http/jsonBody.ts";
import { NUL_MESSAGE, SURROGATE_MESSAGE } from "../../gateway/request/text.ts";
import { multipart, PNG, uploadSetting } from "../custom/helpers.ts";
import { type Claims, JWT_SECRET, testGateway, token } from "../harness/gateway.ts";
import { USERS } from "./helpers.ts";

const { uploadTmpDir } = uploadSetting(t, JWT_SECRET);

const MIA: Claims = { ...USERS.member1, scopes: ["tasks:write"] };
const MARK: Claims = { ...USERS.manager1, scopes: ["tasks:write"] };
const TOO_DEEP = `JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`;
/** Words of Postgres's error texts: none may reach a client. */
const LEAKS =
  /invalid input|syntax for|for type|out of range for|date\/time field|low surrogate must|escape sequence|0x00|\b22[0-9P]\d\d\b|SQLSTATE/i;

type Body = { error?: { code?: string; message?: string; details?: Record<string, string> } };

t.test("example app", async (t) => {
  const gw = await testGateway(t, "tpl_example", { uploadTmpDir });
  const count = async () =>
    (await gw.su.query<{ n: string }>(`SELECT count(*)::text AS n FROM "task"`)).rows[0]?.n;
  const tasksBefore = await count();

  const raw = (url: string, payload: string, as = MIA, method: "POST" | "PATCH" = "POST") =>
    gw.request({ method, url, payload, headers: { "content-type": "application/json" }, as });
  const expect = (
    t: Test,
    res: { statusCode: number; body: string },
    status: number,
    code: string,
    message?: string,
  ) => {
    const body = JSON.parse(res.body) as Body;
    t.equal(res.statusCode, status, `${status}`);
    t.equal(body.error?.code, code, code);
    if (message !== undefined) t.equal(body.error?.message, message);
    t.notMatch(res.body, LEAKS, "no Postgres text");
  };

  t.test("a token whose global has the wrong type: 401, before any SQL", async (t) => {
    for (const companyId of ["1 OR 1=1", 1.5, true, "abc", "", "99999999999999999999", "1e3"]) {
      for (const [method, url, payload] of [
        ["GET", "/api/v1/project", undefined],
        ["GET", "/api/v1/project/1", undefined],
        ["GET", "/api/v1/company/me", undefined],
        ["GET", "/api/v1/user/me/session", undefined],
        ["POST", "/api/v1/task", { projectId: 1, title: "x", priority: "high" }],
      ] as const) {
        const before = gw.statements();
        const res = await gw.app.inject({
          method,
          url,
          ...(payload ? { payload } : {}),
          headers: { authorization: `Bearer ${token({ ...MIA, companyId } as never)}` },
        });
        t.equal(res.statusCode, 401, `${JSON.stringify(companyId)} ${method} ${url}: 401`);
        t.same(JSON.parse(res.body), { error: { code: "UNAUTHORIZED", message: "Invalid credentials" } });
        t.equal(gw.statements(), before, "no statement sent");
      }
    }
    // Large ids may be strings: "1" is company 1, exactly as the number.
    const asNumber = await gw.request({ method: "GET", url: "/api/v1/project", as: MIA });
    const asString = await gw.app.inject({
      method: "GET",
      url: "/api/v1/project",
      headers: { authorization: `Bearer ${token({ ...MIA, companyId: "1" } as never)}` },
    });
    t.equal(asString.statusCode, 200, "a digit string is a valid bigint global");
    t.equal(asString.body, asNumber.body, "the same rows");
  });

  t.test("unpaired surrogates in a JSON body: 400", async (t) => {
    for (const [what, payload] of [
      ["a lone high surrogate", '{"projectId": 1, "title": "a\\ud800b", "priority": "high"}'],
      ["a lone low surrogate", '{"projectId": 1, "title": "\\udc00", "priority": "high"}'],
      ["in a key", '{"projectId": 1, "title": "a", "priority": "high", "\\ud800": 1}'],
      ["in an array", '{"projectId": 1, "title": "a", "priority": "high", "x": ["\\udbff"]}'],
    ] as const) {
      t.test(what, async (t) =>
        expect(t, await raw("/api/v1/task", payload as string), 400, "BAD_REQUEST", SURROGATE_MESSAGE),
      );
    }
    const report = await raw(
      "/api/v1/report/summary",
      '{"from": "2020-01-01\\ud800", "to": "2020-12-31", "groupBy": "project"}',
      MARK,
    );
    expect(t, report, 400, "BAD_REQUEST", SURROGATE_MESSAGE);
    const pair = await raw(
      "/api/v1/task",
      '{"projectId": 1, "title": "party \\ud83c\\udf89", "priority": "high"}',
    );
    t.equal(pair.statusCode, 200, "a proper surrogate pair (an emoji) is stored");
    t.equal((JSON.parse(pair.body) as { data: { title: string } }).data.title, "party 🎉");
    await gw.su.query(`DELETE FROM "task" WHERE "title" = 'party 🎉'`);
  });

  t.test("JSON nested 5000 deep: 400 at parse time", async (t) => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    expect(t, await raw("/api/v1/task", `{"projectId": 1, "title": ${deep}}`), 400, "BAD_REQUEST", TOO_DEEP);
    expect(t, await raw("/api/v1/report/summary", `{"from": ${deep}}`, MARK), 400, "BAD_REQUEST", TOO_DEEP);
    const objects = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    expect(t, await raw("/api/v1/user/login", objects), 400, "BAD_REQUEST", TOO_DEEP);
    // Within the bound, the body reaches validation (title must be a string).
    const fine = `${"[".repeat(MAX_JSON_DEPTH - 1)}${"]".repeat(MAX_JSON_DEPTH - 1)}`;
    const ok = await raw("/api/v1/task", `{"projectId": 1, "title": ${fine}, "priority": "high"}`);
    t.equal(ok.statusCode, 422, `${MAX_JSON_DEPTH} levels: validated, not refused as too deep`);
  });

  t.test("NUL in a custom route's string input: 400", async (t) => {
    expect(
      t,
      await gw.request({
        method: "POST",
        url: "/api/v1/user/login",
        payload: { username: "mia.member@acme.test\u0000", password: "password123" },
      }),
      400,
      "BAD_REQUEST",
      NUL_MESSAGE,
    );
    expect(
      t,
      await gw.request({
        method: "POST",
        url: "/api/v1/user/refresh-token",
        payload: { refreshToken: `${"a".repeat(30)}\u0000` },
      }),
      400,
      "BAD_REQUEST",
      NUL_MESSAGE,
    );
    // A multipart field is text too.
    const form = multipart([
      { name: "files", filename: "a.png", contentType: "image/png", data: PNG },
      { name: "note", data: "a\u0000b" },
    ]);
    const upload = await gw.request({
      method: "POST",
      url: "/api/v1/task/1/attachments",
      payload: form.payload,
      headers: form.headers,
      as: MIA,
    });
    expect(t, upload, 400, "BAD_REQUEST", NUL_MESSAGE);
  });

  t.test("impossible dates and integers reaching a handler's SQL: 4xx, not 500", async (t) => {
    const report = (body: Record<string, unknown>) =>
      gw.request({ method: "POST", url: "/api/v1/report/summary", payload: body, as: MARK });
    const base = { from: "2020-01-01", to: "2030-12-31", groupBy: "project" };
    for (const [what, body] of [
      ["February 30th", { ...base, from: "2020-02-30" }],
      ["year 0", { ...base, from: "0000-01-01" }],
      ["a fractional id", { ...base, projectIds: [1.5] }],
    ] as const) {
      t.test(what, async (t) => expect(t, await report(body), 400, "BAD_REQUEST", INVALID_VALUE_MESSAGE));
    }
    const huge = await report({ ...base, projectIds: [1e20] });
    expect(t, huge, 422, "VALIDATION_ERROR");
    t.same((JSON.parse(huge.body) as Body).error?.details, { "projectIds[0]": "is out of range" });
    const inf = await gw.request({
      method: "POST",
      url: "/api/v1/report/summary",
      payload: '{"from": "2020-01-01", "to": "2030-12-31", "groupBy": "project", "projectIds": [1e999]}',
      headers: { "content-type": "application/json" },
      as: MARK,
    });
    expect(t, inf, 422, "VALIDATION_ERROR");
    const fine = await report({ ...base, projectIds: [Number.MAX_SAFE_INTEGER] });
    t.equal(fine.statusCode, 200, "the largest exact integer is a valid id (no such project: no rows)");
  });

  t.test("a body that is not JSON: 415 saying what is expected", async (t) => {
    for (const type of ["text/plain", "application/xml", "application/x-www-form-urlencoded"]) {
      const res = await gw.request({
        method: "POST",
        url: "/api/v1/task",
        payload: "title=x",
        headers: { "content-type": type },
        as: MIA,
      });
      expect(t, res, 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json");
    }
    const upload = await gw.request({
      method: "POST",
      url: "/api/v1/user/me/avatar",
      payload: "hello",
      headers: { "content-type": "text/plain" },
      as: MIA,
    });
    expect(t, upload, 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be multipart/form-data");
  });

  t.test("unknown keys: at most 20 echoed, names cut short", async (t) => {
    const many: Record<string, unknown> = { projectId: 1, title: "x", priority: "high" };
    for (let i = 0; i < 20_000; i++) many[`unknown_key_number_${i}`] = i;
    const res = await gw.request({ method: "POST", url: "/api/v1/task", payload: many, as: MIA });
    const body = JSON.parse(res.body) as Body;
    t.equal(res.statusCode, 422);
    t.equal(Object.keys(body.error?.details ?? {}).length, 20, "20 details");
    t.equal(body.error?.message, "Request validation failed: 20000 problems, the first 20 listed");
    t.ok(
      res.body.length < 2000,
      `a small answer (${res.body.length} bytes) for a ${JSON.stringify(many).length}-byte body`,
    );

    const typed = await gw.request({
      method: "POST",
      url: "/api/v1/user/login",
      payload: { username: "a", password: "b", ...Object.fromEntries(Object.entries(many).slice(3)) },
    });
    t.equal(typed.statusCode, 422, "a requestType route too");
    t.equal(Object.keys((JSON.parse(typed.body) as Body).error?.details ?? {}).length, 20);

    const longKey = "k".repeat(200_000);
    const long = await gw.request({
      method: "POST",
      url: "/api/v1/task",
      payload: { projectId: 1, title: "x", priority: "high", [longKey]: 1 },
      as: MIA,
    });
    t.same((JSON.parse(long.body) as Body).error?.details, {
      [`${"k".repeat(100)}...`]: "unknown parameter",
    });
  });

  t.test("request ids: random, or a valid incoming x-request-id", async (t) => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await gw.request({ method: "GET", url: "/api/v1/tag", as: MIA });
      const id = String(res.headers["x-request-id"]);
      t.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, "a random UUID");
      ids.add(id);
    }
    t.equal(ids.size, 5, "all different");
    const honoured = await gw.request({
      method: "GET",
      url: "/api/v1/tag",
      headers: { "x-request-id": "lb-7f3a9c01.trace:42" },
      as: MIA,
    });
    t.equal(honoured.headers["x-request-id"], "lb-7f3a9c01.trace:42", "a proxy's id is kept");
    for (const bad of ["short", "has spaces in it", "x".repeat(129), "a\u00e9bcdefgh", 'abc"}{defgh']) {
      const res = await gw.request({
        method: "GET",
        url: "/api/v1/tag",
        headers: { "x-request-id": bad },
        as: MIA,
      });
      t.not(res.headers["x-request-id"], bad, `${JSON.stringify(bad).slice(0, 20)}: replaced`);
      t.match(String(res.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
    }
  });

  t.test("nothing changed", async (t) => {
    t.equal(await count(), tasksBefore, "no task written");
  });
});
