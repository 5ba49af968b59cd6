// JSON bodies (POST / PUT / PATCH): no coercion, null handling, the body's shape.

import t from "tap";
import { body, compile, custom, details, outcome, param, params, standard } from "./helpers.ts";

t.test("the body must be a JSON object", async (t) => {
  const v = body("POST", param("a", "string"));
  const bad = {
    ok: false,
    status: 400,
    code: "BAD_REQUEST",
    message: "request body must be a JSON object",
  };
  for (const b of [null, [], [{ a: "x" }], "a", 12, true]) t.same(outcome(v(b)), bad, JSON.stringify(b));
  t.same(params(v(undefined)), {}, "no body at all: no parameters");
  t.same(params(v({})), {});
});

t.test("PUT and PATCH read the body too", async (t) => {
  for (const method of ["PUT", "PATCH"] as const) {
    const v = body(method, param("a", "number", { required: true }));
    t.same(params(v({ a: 1 })), { a: 1 }, method);
    t.same(details(v({})), { a: "is required" }, method);
  }
});

t.test("body values are not coerced", async (t) => {
  const v = body(
    "POST",
    param("n", "number"),
    param("b", "boolean"),
    param("s", "string"),
    param("o", "object"),
  );
  t.same(params(v({ n: 1.5, b: false, s: "x", o: { deep: [1] } })), {
    n: 1.5,
    b: false,
    s: "x",
    o: { deep: [1] },
  });
  t.same(details(v({ n: "1", b: "true", s: 12, o: "{}" })), {
    n: "must be a number",
    b: "must be a boolean",
    s: "must be a string",
    o: "must be an object",
  });
  t.same(details(v({ o: [] })), { o: "must be an object" }, "an array is not an object");
  t.same(details(v({ s: ["x"] })), { s: "must be a string" });
  t.same(details(v({ n: 9007199254740992 })), { n: "is out of range" }, "precision already lost");
  t.same(details(v({ n: 1e300 })), { n: "is out of range" });
  t.same(params(v({ n: 0.1 })), { n: 0.1 });
});

t.test("body arrays", async (t) => {
  const v = body("POST", param("ids", "number[]", { max: 3 }), param("objs", "object[]"));
  t.same(params(v({ ids: [1, 2], objs: [{}, { a: 1 }] })), { ids: [1, 2], objs: [{}, { a: 1 }] });
  t.same(params(v({ ids: [] })), { ids: [] });
  t.same(details(v({ ids: 1 })), { ids: "must be an array of numbers" });
  t.same(details(v({ ids: "1" })), { ids: "must be an array of numbers" });
  t.same(details(v({ ids: [1, "2"] })), { ids: "item 1 must be a number" });
  t.same(details(v({ ids: [1, null] })), { ids: "item 1 must be a number" });
  t.same(details(v({ ids: [1, 2, 3, 4] })), { ids: "must have at most 3 items" });
  t.same(details(v({ objs: [null] })), { objs: "item 0 must be an object" });
  t.same(details(v({ objs: { a: 1 } })), { objs: "must be an array of objects" });
  t.same(details(v({ "ids[]": [1] })), { "ids[]": "unknown parameter" }, "no name[] in a body");
});

t.test("null only when isNullable", async (t) => {
  const v = body(
    "PATCH",
    param("nullable", "string", { isNullable: true, max: 3 }),
    param("plain", "string"),
    param("requiredNullable", "number", { required: true, isNullable: true, min: 5 }),
  );
  t.same(params(v({ nullable: null, requiredNullable: null })), { nullable: null, requiredNullable: null });
  t.same(details(v({ plain: null, requiredNullable: 5 })), { plain: "must not be null" });
  t.same(details(v({ nullable: "abcd" })), {
    nullable: "must have at most 3 characters",
    requiredNullable: "is required",
  });
  const explicitFalse = body("POST", param("x", "number", { isNullable: false }));
  t.same(details(explicitFalse({ x: null })), { x: "must not be null" });
});

t.test("ONE_OF in a body compares exactly", async (t) => {
  const v = body("POST", param("n", "number", { oneOf: [1, 2] }), param("u", undefined, { oneOf: ["1", 2] }));
  t.same(params(v({ n: 2, u: "1" })), { n: 2, u: "1" });
  t.same(details(v({ n: "2" })), { n: "must be a number" });
  t.same(details(v({ u: 1 })), { u: "must be one of: 1, 2" });
  t.same(details(v({ u: "2" })), { u: "must be one of: 1, 2" });
});

t.test("without TYPE_CHECK any JSON value passes; MIN/MAX apply by the value's type", async (t) => {
  const v = body("POST", param("x", undefined, { min: 2, max: 3 }));
  t.same(params(v({ x: 2 })), { x: 2 });
  t.same(params(v({ x: "ab" })), { x: "ab" });
  t.same(params(v({ x: [1, 2, 3] })), { x: [1, 2, 3] });
  t.same(params(v({ x: true })), { x: true });
  t.same(params(v({ x: { a: 1 } })), { x: { a: 1 } });
  t.same(details(v({ x: 4 })), { x: "must be at most 3" });
  t.same(details(v({ x: "a" })), { x: "must have at least 2 characters" });
  t.same(details(v({ x: [1] })), { x: "must have at least 2 items" });
});

t.test("query-string keys on a body route", async (t) => {
  const v = compile(standard({ method: "POST", type: "ONE", request: [param("a", "string")] }));
  t.same(details(v({ query: { a: "x", debug: "1" }, body: { a: "y" } })), {
    a: "must be sent in the request body",
    debug: "unknown parameter",
  });
});

t.test("upload routes: multipart fields are text, coerced like a query string", async (t) => {
  const v = compile(
    custom({
      path: "/task/:id/attachments",
      type: "CUSTOM_ARRAY",
      fileUploadType: "MULTIPLE",
      request: [
        param("id", "number", { required: true, min: 1 }),
        param("note", "string", { max: 5 }),
        param("n", "number"),
      ],
    }),
  );
  t.same(params(v({ params: { id: "7" }, body: { note: "hi", n: "3" } })), { id: 7, note: "hi", n: 3 });
  t.same(details(v({ params: { id: "7" }, body: { n: "x" } })), { n: "must be a number" });
  t.same(params(v({ params: { id: "7" } })), { id: 7 }, "no fields");
});
