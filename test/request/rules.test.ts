// Validators, required, unknown parameters, path parameters, all problems at once.

import t from "tap";
import { compileRequest, readsBody, validationError } from "../../gateway/request/index.ts";
import { body, compile, custom, details, outcome, param, params, query, standard } from "./helpers.ts";

t.test("MIN / MAX on numbers are value bounds", async (t) => {
  const v = query(param("n", "number", { min: 1, max: 100 }));
  t.same(params(v({ n: "1" })), { n: 1 });
  t.same(params(v({ n: "100" })), { n: 100 });
  t.same(details(v({ n: "0" })), { n: "must be at least 1" });
  t.same(details(v({ n: "0.5" })), { n: "must be at least 1" });
  t.same(details(v({ n: "100.01" })), { n: "must be at most 100" });
  const money = body("POST", param("budget", "number", { min: 0, max: 9999999999.99 }));
  t.same(details(money({ budget: 1e10 })), { budget: "must be at most 9999999999.99" });
  t.same(details(money({ budget: -0.01 })), { budget: "must be at least 0" });
});

t.test("MIN / MAX on strings count characters (code points)", async (t) => {
  const v = query(param("s", "string", { min: 2, max: 5 }));
  t.same(details(v({ s: "a" })), { s: "must have at least 2 characters" });
  t.same(details(v({ s: "abcdef" })), { s: "must have at most 5 characters" });
  t.same(params(v({ s: "😀😀😀😀😀" })), { s: "😀😀😀😀😀" }, "5 emoji are 5 characters (10 UTF-16 units)");
  t.same(details(v({ s: "😀" })), { s: "must have at least 2 characters" }, "one emoji is one character");
  t.same(details(v({ s: "😀😀😀😀😀😀" })), { s: "must have at most 5 characters" });
  const one = query(param("s", "string", { min: 1, max: 1 }));
  t.same(details(one({ s: "" })), { s: "must have at least 1 character" });
  t.same(details(one({ s: "ab" })), { s: "must have at most 1 character" });
  const long = body("POST", param("title", "string", { max: 200 }));
  t.same(details(long({ title: "x".repeat(201) })), { title: "must have at most 200 characters" });
  t.same(params(long({ title: "x".repeat(200) })), { title: "x".repeat(200) });
});

t.test("ONE_OF message lists the options", async (t) => {
  const v = query(param("status", "string", { oneOf: ["planning", "active", "on_hold"] }));
  t.same(details(v({ status: "done" })), { status: "must be one of: planning, active, on_hold" });
});

t.test("validators run in order: type, ONE_OF, MIN, MAX; the first failure is reported", async (t) => {
  const v = body("POST", param("s", "string", { oneOf: ["a", "abcdef"], max: 3 }));
  t.same(details(v({ s: 1 })), { s: "must be a string" });
  t.same(details(v({ s: "b" })), { s: "must be one of: a, abcdef" });
  t.same(details(v({ s: "abcdef" })), { s: "must have at most 3 characters" });
});

t.test("required", async (t) => {
  const v = query(param("a", "string", { required: true }), param("b", "number"));
  t.same(details(v({})), { a: "is required" });
  t.same(params(v({ a: "" })), { a: "" }, "an empty value is present");
  t.same(params(v({ a: "x" })), { a: "x" }, "optional absent ones are omitted");
  const r = v({ a: "x" });
  t.ok(r.ok && !("b" in r.params), "no key for an absent optional parameter");
});

t.test("undeclared parameters are a VALIDATION_ERROR", async (t) => {
  const v = query(param("a", "string"));
  t.same(outcome(v({ a: "x", b: "y", "c[]": "z" })), {
    ok: false,
    status: 422,
    code: "VALIDATION_ERROR",
    message: "Request validation failed",
    details: { b: "unknown parameter", "c[]": "unknown parameter" },
  });
  const none = body("POST");
  t.same(details(none({ x: 1 })), { x: "unknown parameter" });
  t.same(details(none(JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}'))), {
    ["__proto__"]: "unknown parameter",
    constructor: "unknown parameter",
  });
  t.equal(({} as Record<string, unknown>).polluted, undefined, "no prototype pollution");
  const r = none(JSON.parse('{"__proto__": 1}'));
  t.ok(
    !r.ok && r.error.details && Object.hasOwn(r.error.details, "__proto__"),
    "__proto__ is reported as an own key",
  );
});

t.test("inherited keys are not parameters", async (t) => {
  const v = query(param("constructor", "string"), param("toString", "number"));
  t.same(params(v({})), {}, "Object.prototype's members are not values");
  t.same(params(v({ constructor: "c", toString: "1" })), { constructor: "c", toString: 1 });
});

t.test("all problems are reported at once", async (t) => {
  const v = body(
    "POST",
    param("title", "string", { required: true, min: 1 }),
    param("priority", "string", { oneOf: ["low", "high"] }),
    param("hours", "number", { min: 0, max: 1000 }),
    param("assigneeId", "number"),
    param("dueDate", "string", { isNullable: true }),
  );
  t.same(details(v({ priority: "mid", hours: 1001, assigneeId: null, dueDate: null, extra: true })), {
    title: "is required",
    priority: "must be one of: low, high",
    hours: "must be at most 1000",
    assigneeId: "must not be null",
    extra: "unknown parameter",
  });
});

t.test("path parameters are request parameters, coerced from text", async (t) => {
  const v = compile(
    standard({
      path: "/task/:id",
      type: "ONE",
      request: [param("id", "number", { required: true, min: 1 })],
    }),
  );
  t.same(params(v({ params: { id: "42" } })), { id: 42 });
  t.same(details(v({ params: { id: "abc" } })), { id: "must be a number" });
  t.same(details(v({ params: { id: "0" } })), { id: "must be at least 1" });
  t.same(details(v({ params: { id: "1 OR 1=1" } })), { id: "must be a number" });
});

t.test("a path parameter repeated in the query or body must agree with the path", async (t) => {
  const get = compile(
    standard({ path: "/task/:id", type: "ONE", request: [param("id", "number", { required: true })] }),
  );
  t.same(params(get({ params: { id: "5" }, query: { id: "5" } })), { id: 5 });
  t.same(params(get({ params: { id: "5" }, query: { id: "5.0" } })), { id: 5 }, "the same number");
  t.same(details(get({ params: { id: "5" }, query: { id: "6" } })), {
    id: "does not match the value in the path",
  });
  t.same(details(get({ params: { id: "5" }, query: { id: "x" } })), {
    id: "does not match the value in the path",
  });
  t.same(
    details(get({ params: { id: "x" }, query: { id: "5" } })),
    { id: "must be a number" },
    "the path's own error",
  );
  const patch = compile(
    standard({
      method: "PATCH",
      path: "/task/:id",
      type: "ONE",
      request: [param("id", "number", { required: true }), param("title", "string")],
    }),
  );
  t.same(params(patch({ params: { id: "5" }, body: { id: 5, title: "t" } })), { id: 5, title: "t" });
  t.same(details(patch({ params: { id: "5" }, body: { id: 6 } })), {
    id: "does not match the value in the path",
  });
  t.same(
    details(patch({ params: { id: "5" }, body: { id: "5" } })),
    { id: "does not match the value in the path" },
    "body is not coerced",
  );
  t.same(details(patch({ params: { id: "5" }, body: { id: null } })), {
    id: "does not match the value in the path",
  });
  t.same(params(patch({ params: { id: "5" }, body: { title: "t" } })), { id: 5, title: "t" }, "path only");
});

t.test("string path parameters keep their text", async (t) => {
  const v = compile(
    standard({ path: "/user/:slug", type: "ONE", request: [param("slug", "string", { max: 10 })] }),
  );
  t.same(params(v({ params: { slug: "o'brien" } })), { slug: "o'brien" });
  t.same(details(v({ params: { slug: "x".repeat(11) } })), { slug: "must have at most 10 characters" });
});

t.test("injection-looking values stay plain values", async (t) => {
  const v = query(param("q", "string"), param("ids", "string[]"));
  const nasty = [
    '\'; DROP TABLE "user"; --',
    "1 OR 1=1",
    "$1",
    "#userId",
    '"user"."password"',
    "%_\\",
    "<script>alert(1)</script>",
    "\u0000nul",
    "$" + "{process.exit()}",
  ];
  for (const s of nasty) t.same(params(v({ q: s })), { q: s }, JSON.stringify(s));
  t.same(params(v({ ids: nasty })), { ids: nasty });
  const n = query(param("n", "number"));
  for (const s of ["1; DROP TABLE x", "1 OR 1=1", "1--", "(1)"])
    t.same(details(n({ n: s })), { n: "must be a number" });
  const b = body("POST", param("o", "object"));
  const obj = { $where: "1", __proto__x: 1, sql: "' OR ''='" };
  t.same(params(b({ o: obj })), { o: obj }, "objects pass through untouched");
});

t.test("the output is a fresh object each time", async (t) => {
  const v = query(param("a", "string"));
  const one = v({ a: "1" });
  const two = v({ a: "2" });
  t.ok(one.ok && two.ok && one.params !== two.params);
  t.same(params(one), { a: "1" });
});

t.test("custom routes with request lists validate like standard ones", async (t) => {
  const v = compile(custom({ request: [param("username", "string", { required: true })] }));
  t.same(params(v({ body: { username: "u" } })), { username: "u" });
  t.same(details(v({ body: {} })), { username: "is required" });
});

t.test("requestType routes go through the seam", async (t) => {
  const route = custom({ requestType: "LoginRequest" });
  t.throws(
    () => compileRequest(route, { maxPerPage: 100 }),
    /requestType "LoginRequest" needs a type validator/,
  );
  let seen: unknown;
  const validate = compileRequest(route, {
    maxPerPage: 100,
    requestType: (r) => {
      seen = r.requestType;
      return (input) => ({ ok: true, params: input.body as Record<string, unknown> });
    },
  });
  t.equal(seen, "LoginRequest");
  t.same(validate({ query: {}, params: {}, body: { a: 1 } }), { ok: true, params: { a: 1 } });
});

t.test("validationError builds a 422 without disturbing stack traces elsewhere", async (t) => {
  const before = Error.stackTraceLimit;
  const err = validationError({ a: "is required" });
  t.equal(err.status, 422);
  t.equal(err.code, "VALIDATION_ERROR");
  t.same(err.details, { a: "is required" });
  t.equal(Error.stackTraceLimit, before);
});

t.test("readsBody: POST, PUT and PATCH", async (t) => {
  t.same(
    (["GET", "POST", "PUT", "PATCH", "DELETE"] as const).map((method) => readsBody(standard({ method }))),
    [false, true, true, true, false],
  );
});
