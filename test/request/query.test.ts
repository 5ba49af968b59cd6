// Query-string coercion (GET / DELETE): numbers, booleans, strings, objects, arrays.

import t from "tap";
import { compile, details, outcome, param, params, query, standard } from "./helpers.ts";

t.test("number: decimal or integer text, finite, exact", async (t) => {
  const v = query(param("n", "number"));
  const ok: [string, number][] = [
    ["0", 0],
    ["12", 12],
    ["-12", -12],
    ["3.25", 3.25],
    ["-0.5", -0.5],
    ["007", 7],
    ["1e3", 1000],
    ["2.5E-3", 0.0025],
    ["9007199254740991", 9007199254740991],
  ];
  for (const [text, value] of ok) t.same(params(v({ n: text })), { n: value }, text);
  for (const text of [
    "",
    " 12",
    "12 ",
    "+12",
    "0x1F",
    "1_000",
    "1,5",
    ".5",
    "5.",
    "abc",
    "Infinity",
    "NaN",
    "1e",
    "--1",
    "12abc",
  ]) {
    t.same(details(v({ n: text })), { n: "must be a number" }, JSON.stringify(text));
  }
  for (const text of ["1e999", "-1e999", "9007199254740993", "12345678901234567890"]) {
    t.same(details(v({ n: text })), { n: "is out of range" }, text);
  }
  const r = v({ n: "12" });
  t.equal(r.ok && r.params.n, 12, "a number, not the text");
});

t.test("boolean: true and false only", async (t) => {
  const v = query(param("b", "boolean"));
  t.same(params(v({ b: "true" })), { b: true });
  t.same(params(v({ b: "false" })), { b: false });
  for (const text of ["1", "0", "TRUE", "True", "yes", "", "on", " true"]) {
    t.same(details(v({ b: text })), { b: "must be true or false" }, JSON.stringify(text));
  }
});

t.test("string: taken as written, empty included", async (t) => {
  const v = query(param("s", "string"));
  for (const text of ["", "hello", " spaced ", "12", "true", "null", "ü€😀"]) {
    t.same(params(v({ s: text })), { s: text }, JSON.stringify(text));
  }
});

t.test("no null in a query string: the text null is a string", async (t) => {
  const v = query(param("s", "string", { isNullable: true }), param("n", "number", { isNullable: true }));
  t.same(params(v({ s: "null" })), { s: "null" });
  t.same(details(v({ n: "null" })), { n: "must be a number" });
});

t.test("object cannot come from a query string", async (t) => {
  const v = query(param("o", "object"));
  t.same(details(v({ o: "{}" })), { o: "must be an object, which a query string cannot carry" });
  t.same(details(v({ o: "[object Object]" })), { o: "must be an object, which a query string cannot carry" });
  t.same(params(v({})), {}, "absent is fine when optional");
});

t.test("a repeated key for a single-valued parameter", async (t) => {
  const v = query(param("n", "number"), param("s", "string"), param("u"));
  t.same(details(v({ n: ["1", "2"], s: ["a", "b"], u: ["x", "y"] })), {
    n: "must be a single value",
    s: "must be a single value",
    u: "must be a single value",
  });
});

t.test("arrays from repeated keys or name[]", async (t) => {
  const v = query(param("ids", "number[]"), param("tags", "string[]"), param("flags", "boolean[]"));
  t.same(params(v({ ids: ["1", "2", "3"] })), { ids: [1, 2, 3] }, "a=1&a=2&a=3");
  t.same(params(v({ "ids[]": ["1", "2"] })), { ids: [1, 2] }, "a[]=1&a[]=2");
  t.same(params(v({ ids: "5" })), { ids: [5] }, "one value is a one-item array");
  t.same(params(v({ "ids[]": "5" })), { ids: [5] });
  t.same(params(v({ ids: "1", "ids[]": ["2", "3"] })), { ids: [1, 2, 3] }, "both forms concatenate");
  t.same(params(v({ tags: ["a,b", ""] })), { tags: ["a,b", ""] }, "no comma splitting");
  t.same(params(v({ flags: ["true", "false"] })), { flags: [true, false] });
  t.same(details(v({ ids: ["1", "x", "y"] })), { ids: "item 1 must be a number" });
  t.same(details(v({ "ids[]": ["1", "1e999"] })), { ids: "item 1 is out of range" });
  t.same(details(v({ flags: "1" })), { flags: "item 0 must be true or false" });
});

t.test("name[] is only a key for array parameters", async (t) => {
  const v = query(param("n", "number"));
  t.same(details(v({ "n[]": "1" })), { "n[]": "unknown parameter" });
});

t.test("object[] cannot come from a query string", async (t) => {
  const v = query(param("objs", "object[]"));
  t.same(details(v({ objs: "{}" })), { objs: "item 0 must be an object, which a query string cannot carry" });
});

t.test("array validators: ONE_OF per item, MIN/MAX on the item count", async (t) => {
  const v = query(param("p", "string[]", { required: true, oneOf: ["low", "high"], min: 1, max: 2 }));
  t.same(params(v({ p: ["low", "high"] })), { p: ["low", "high"] });
  t.same(details(v({ p: ["low", "mid"] })), { p: "item 1 must be one of: low, high" });
  t.same(details(v({ p: ["low", "low", "high"] })), { p: "must have at most 2 items" });
  t.same(details(v({})), { p: "is required" });
  const one = query(param("p", "number[]", { min: 1, max: 1 }));
  t.same(details(one({ p: ["1", "2"] })), { p: "must have at most 1 item" });
  const two = query(param("p", "number[]", { min: 2 }));
  t.same(details(two({ p: "1" })), { p: "must have at least 2 items" });
});

t.test("ONE_OF compares with the coerced value", async (t) => {
  const n = query(param("n", "number", { oneOf: [1, 2, 3] }));
  t.same(params(n({ n: "2" })), { n: 2 });
  t.same(params(n({ n: "2.0" })), { n: 2 }, "the number 2, however written");
  t.same(details(n({ n: "4" })), { n: "must be one of: 1, 2, 3" });
  const s = query(param("s", "string", { oneOf: ["a", "b"] }));
  t.same(details(s({ s: "A" })), { s: "must be one of: a, b" }, "case-sensitive");
  const b = query(param("b", "boolean", { oneOf: [true] }));
  t.same(params(b({ b: "true" })), { b: true });
  t.same(details(b({ b: "false" })), { b: "must be one of: true" });
});

t.test("without TYPE_CHECK: text, or the ONE_OF option written the same way", async (t) => {
  const any = query(param("a"));
  t.same(params(any({ a: "12" })), { a: "12" }, "stays text");
  const mixed = query(param("m", undefined, { oneOf: [1, "two", true] }));
  t.same(params(mixed({ m: "1" })), { m: 1 });
  t.same(params(mixed({ m: "two" })), { m: "two" });
  t.same(params(mixed({ m: "true" })), { m: true });
  t.same(details(mixed({ m: "01" })), { m: "must be one of: 1, two, true" });
  const bounded = query(param("x", undefined, { min: 2, max: 3 }));
  t.same(params(bounded({ x: "abc" })), { x: "abc" }, "text length");
  t.same(details(bounded({ x: "abcd" })), { x: "must have at most 3 characters" });
});

t.test("DELETE reads the query string and ignores a body", async (t) => {
  const v = compile(
    standard({ method: "DELETE", type: "ONE", request: [param("n", "number", { required: true })] }),
  );
  t.same(params(v({ query: { n: "3" }, body: { n: 4, other: 1 } })), { n: 3 });
  t.same(outcome(v({ body: { n: 4 } })), {
    ok: false,
    status: 422,
    code: "VALIDATION_ERROR",
    message: "Request validation failed",
    details: { n: "is required" },
  });
});
