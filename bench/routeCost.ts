// Micro-benchmark of a standard route's per-request work in Node, without the database: the
// route's `run` against a stub runner that answers at once, for the Restura fixture's
// GET /user/me (a signed-in caller, no parameters) and GET /user/paged?page=2&perPage=20.
// `node --import tsx bench/routeCost.ts [iterations]`; prints ns per request (docs/performance.md).

import path from "node:path";
import { readAppSchema } from "../app/load.ts";
import type { AuthResult } from "../gateway/auth/types.ts";
import type { StatementRunner } from "../gateway/readPool.ts";
import { compileStandardRoute, type RouteRequest } from "../gateway/routes/standard.ts";
import { buildModel } from "../generator/model/index.ts";
import type { StandardRoute } from "../generator/schema/types.ts";
import { RESTURA_FIXTURE } from "../test/harness/templates.ts";

const iterations = Number(process.argv[2] ?? 300_000);
const schema = readAppSchema(path.dirname(RESTURA_FIXTURE)).schema;
if (!schema) throw new Error("the Restura fixture does not load");
const group = schema.endpoints[0];
if (!group) throw new Error("no endpoint group");
const route = (p: string) => group.routes.find((r) => r.method === "GET" && r.path === p) as StandardRoute;
const runner: StatementRunner = {
  query: async () => ({ rows: [["{}"]] }) as never,
};
const auth: AuthResult = {
  user: { role: "user", scopes: ["read:user"], globals: { userId: 1234, companyId: 235 } },
} as AuthResult;

for (const [label, p, query] of [
  ["GET /user/me", "/user/me", {}],
  ["GET /user/paged?page=2&perPage=20", "/user/paged", { page: "2", perPage: "20" }],
] as const) {
  const run = compileStandardRoute(buildModel(schema).routeOf(route(p)), {
    maxPerPage: 100,
    globalParams: schema.globalParams,
  });
  const request = (): RouteRequest => ({ query: { ...query }, params: {}, body: undefined, headers: {} });
  for (let i = 0; i < 20_000; i++) await run(runner, structuredClone(auth), request());
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await run(runner, structuredClone(auth), request());
  const ns = Number(process.hrtime.bigint() - started) / iterations;
  // The copy of the caller is what the token cache hands each request; measured alone below.
  const copyStarted = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) structuredClone(auth);
  const copy = Number(process.hrtime.bigint() - copyStarted) / iterations;
  console.log(`${label}: ${(ns - copy).toFixed(0)} ns per request (run + stub query, caller copy excluded)`);
}
