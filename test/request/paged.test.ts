// The implicit parameters of paged routes: page, perPage, filter, sortBy, sortOrder.

import t from "tap";
import { compileRequest } from "../../gateway/request/index.ts";
import { compile, custom, details, param, params, standard } from "./helpers.ts";

const paged = (maxPerPage = 100, ...request: ReturnType<typeof param>[]) =>
  compile(standard({ type: "PAGED", request }), maxPerPage);

const DEFAULTS = { page: 1, perPage: 10, sortOrder: "ASC" };

t.test("accepted without declaration; defaults applied", async (t) => {
  const v = paged();
  t.same(params(v()), DEFAULTS);
  t.same(
    params(
      v({ query: { page: "3", perPage: "25", filter: "(name,has,x)", sortBy: "name", sortOrder: "DESC" } }),
    ),
    {
      page: 3,
      perPage: 25,
      filter: "(name,has,x)",
      sortBy: "name",
      sortOrder: "DESC",
    },
  );
  t.same(
    params(v({ query: { filter: "", sortBy: "" } })),
    { ...DEFAULTS, filter: "", sortBy: "" },
    "empty text kept",
  );
  t.same(details(v({ query: { pageSize: "5" } })), { pageSize: "unknown parameter" });
});

t.test("page: integer >= 1", async (t) => {
  const v = paged();
  t.same(params(v({ query: { page: "1e2" } })), { ...DEFAULTS, page: 100 });
  for (const text of ["0", "-1"])
    t.same(details(v({ query: { page: text } })), { page: "must be at least 1" }, text);
  for (const text of ["1.5", "", "x", " 1", "0x2"]) {
    t.same(details(v({ query: { page: text } })), { page: "must be an integer" }, JSON.stringify(text));
  }
  t.same(details(v({ query: { page: "99999999999999999999" } })), { page: "is out of range" });
  t.same(details(v({ query: { page: ["1", "2"] } })), { page: "must be a single value" });
});

t.test("perPage: integer 1..maxPerPage", async (t) => {
  const v = paged();
  t.same(params(v({ query: { perPage: "100" } })), { ...DEFAULTS, perPage: 100 });
  t.same(details(v({ query: { perPage: "101" } })), { perPage: "must be at most 100" });
  t.same(details(v({ query: { perPage: "0" } })), { perPage: "must be at least 1" });
  t.same(details(v({ query: { perPage: "2.5" } })), { perPage: "must be an integer" });
  const small = paged(25);
  t.same(details(small({ query: { perPage: "26" } })), { perPage: "must be at most 25" });
  t.same(params(paged(5)()), { ...DEFAULTS, perPage: 5 }, "the default never exceeds the maximum");
});

t.test("sortOrder: ASC, DESC, NONE, RAND, case-insensitive, normalised to upper case", async (t) => {
  const v = paged();
  const cases: [string, string][] = [
    ["ASC", "ASC"],
    ["desc", "DESC"],
    ["None", "NONE"],
    ["rand", "RAND"],
  ];
  for (const [text, value] of cases) {
    t.same(params(v({ query: { sortOrder: text } })), { ...DEFAULTS, sortOrder: value }, text);
  }
  for (const text of ["", "up", "ascending", "ASC "]) {
    t.same(
      details(v({ query: { sortOrder: text } })),
      { sortOrder: "must be one of: ASC, DESC, NONE, RAND" },
      text,
    );
  }
});

t.test("all paged problems at once", async (t) => {
  const v = paged();
  t.same(details(v({ query: { page: "0", perPage: "1000", sortOrder: "sideways", filter: ["a", "b"] } })), {
    page: "must be at least 1",
    perPage: "must be at most 100",
    filter: "must be a single value",
    sortOrder: "must be one of: ASC, DESC, NONE, RAND",
  });
});

t.test("declarations of the implicit parameters are honoured too", async (t) => {
  const v = paged(
    100,
    param("page", "number", { max: 50 }),
    param("perPage", "number", { oneOf: [10, 20, 50] }),
    param("sortBy", "string", { oneOf: ["name", "createdOn"] }),
    param("sortOrder", undefined, { oneOf: ["ASC", "DESC"] }),
    param("filter", "string", { max: 5 }),
  );
  t.same(params(v({ query: { page: "50", perPage: "20", sortBy: "name", sortOrder: "desc" } })), {
    page: 50,
    perPage: 20,
    sortBy: "name",
    sortOrder: "DESC",
  });
  t.same(
    details(
      v({ query: { page: "51", perPage: "30", sortBy: "email", sortOrder: "RAND", filter: "(a,b,c)" } }),
    ),
    {
      page: "must be at most 50",
      perPage: "must be one of: 10, 20, 50",
      sortBy: "must be one of: name, createdOn",
      sortOrder: "must be one of: ASC, DESC",
      filter: "must have at most 5 characters",
    },
  );
  t.same(
    details(v({ query: { page: "0", perPage: "101" } })),
    {
      page: "must be at least 1",
      perPage: "must be at most 100",
    },
    "the implicit rules still apply first",
  );
  t.same(details(v({ query: { page: "1.5" } })), { page: "must be an integer" });
});

t.test("a declared required paged parameter has no default", async (t) => {
  const v = paged(100, param("page", "number", { required: true }));
  t.same(details(v()), { page: "is required" });
  t.same(params(v({ query: { page: "2" } })), { ...DEFAULTS, page: 2 });
});

t.test("a declaration that contradicts the implicit type does not compile", async (t) => {
  const route = (p: ReturnType<typeof param>) => standard({ type: "PAGED", path: "/p", request: [p] });
  t.throws(() => compileRequest(route(param("page", "string")), { maxPerPage: 100 }), {
    message: 'GET /p: request parameter "page" is implicit on paged routes and must be a number, not string',
  });
  t.throws(
    () => compileRequest(route(param("sortBy", "string[]")), { maxPerPage: 100 }),
    /must be a string, not string\[\]/,
  );
  t.doesNotThrow(() => compileRequest(route(param("filter", "string")), { maxPerPage: 100 }));
});

t.test("other route types have no implicit parameters", async (t) => {
  const v = compile(standard({ type: "ARRAY" }));
  t.same(details(v({ query: { page: "1" } })), { page: "unknown parameter" });
  t.same(params(v()), {});
});

t.test("CUSTOM_PAGED routes get them too, with declared ones alongside", async (t) => {
  const v = compile(
    custom({ method: "GET", type: "CUSTOM_PAGED", request: [param("q", "string", { required: true })] }),
  );
  t.same(params(v({ query: { q: "x", page: "2" } })), { ...DEFAULTS, q: "x", page: 2 });
  t.same(details(v()), { q: "is required" });
  const post = compile(custom({ method: "POST", type: "CUSTOM_PAGED" }));
  t.same(params(post({ body: { page: 2, sortOrder: "desc" } })), { ...DEFAULTS, page: 2, sortOrder: "DESC" });
  t.same(details(post({ body: { page: "2", perPage: 2.5, sortOrder: 1 } })), {
    page: "must be an integer",
    perPage: "must be an integer",
    sortOrder: "must be a string",
  });
  t.same(details(post({ body: { page: null } })), { page: "must not be null" });
});
