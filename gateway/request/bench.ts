// Micro-benchmark of request validation: `node --import tsx gateway/request/bench.ts [iterations]`.
// Prints ns per validation for typical inputs (valid and invalid). Not part of the tests.

import type { RequestParam, StandardRoute } from "../../generator/schema/types.ts";
import { compileRequest, type RequestInput } from "./index.ts";

const p = (
  name: string,
  type: string,
  extra: Partial<RequestParam> = {},
  more: RequestParam["validator"] = [],
) => ({
  name,
  required: false,
  validator: [{ type: "TYPE_CHECK" as const, value: type }, ...more],
  ...extra,
});

const route = (overrides: Partial<StandardRoute>): StandardRoute => ({
  name: "bench",
  description: "",
  method: "GET",
  path: "/x",
  type: "ONE",
  roles: [],
  scopes: [],
  request: [],
  table: "x",
  joins: [],
  where: [],
  assignments: [],
  response: [],
  ...overrides,
});

const byId = route({
  path: "/task/:id",
  request: [p("id", "number", { required: true }, [{ type: "MIN", value: 1 }])],
});
const pagedRoute = route({ type: "PAGED", path: "/task" });
const patch = route({
  method: "PATCH",
  path: "/task/:id",
  request: [
    p("id", "number", { required: true }, [{ type: "MIN", value: 1 }]),
    p("title", "string", {}, [
      { type: "MIN", value: 1 },
      { type: "MAX", value: 200 },
    ]),
    p("description", "string", { isNullable: true }, [{ type: "MAX", value: 10000 }]),
    p("priority", "string", {}, [{ type: "ONE_OF", value: ["low", "medium", "high", "urgent"] }]),
    p("estimateHours", "number", { isNullable: true }, [
      { type: "MIN", value: 0 },
      { type: "MAX", value: 1000 },
    ]),
    p("done", "boolean"),
  ],
});

const cases: [string, StandardRoute, RequestInput][] = [
  ["GET by id (path)", byId, { query: {}, params: { id: "42" }, body: undefined }],
  ["GET paged, no query", pagedRoute, { query: {}, params: {}, body: undefined }],
  [
    "GET paged, full query",
    pagedRoute,
    {
      query: { page: "3", perPage: "50", filter: "(a,b)", sortBy: "title", sortOrder: "desc" },
      params: {},
      body: undefined,
    },
  ],
  [
    "PATCH 6 params",
    patch,
    {
      query: {},
      params: { id: "42" },
      body: {
        title: "Write the report",
        description: null,
        priority: "high",
        estimateHours: 2.5,
        done: false,
      },
    },
  ],
  [
    "PATCH invalid (422)",
    patch,
    { query: {}, params: { id: "42" }, body: { title: "", priority: "x", extra: 1 } },
  ],
];

const iterations = Number(process.argv[2] ?? 1e6);
for (const [label, r, input] of cases) {
  const validate = compileRequest(r, { maxPerPage: 100 });
  for (let i = 0; i < 10_000; i++) validate(input); // warm up
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (validate(input).ok) sink++;
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  console.log(
    `${label.padEnd(24)} ${ns.toFixed(1).padStart(8)} ns/op  (${sink === iterations ? "ok" : "rejected"})`,
  );
}
