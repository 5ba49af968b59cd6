// Property-based attacks over every request input of the example app and the Restura fixture:
// routes (standard and custom), path parameters, query strings (declared, paged, undeclared),
// filter and sort strings, JSON bodies (wrong types, deep, huge, `__proto__`, lone surrogates,
// NUL), raw non-JSON bodies, multipart bodies and tokens (garbage, forged, expired, wrong-typed
// globals). For every generated request:
// - never a 5xx for client input (501 only for a Restura custom route that has no handler);
// - a rejected request (4xx) leaves every table exactly as it was;
// - a GET standard route's 2xx objects hold exactly the keys the permission oracle allows;
// - in the example app, a signed-in caller's 2xx answer holds no text found only in the other
//   company's rows.
// Seeds are fixed (PROPERTY_SEED); PROPERTY_RUNS raises the number of requests per app for a
// longer hunt (`PROPERTY_RUNS=5000 node --import tsx test/run.ts test/security/properties.test.ts`);
// PROPERTY_REPORT=<file> appends how many answers of each status every app gave.

import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import jwt from "jsonwebtoken";
import type pg from "pg";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { FILTER_OPS } from "../../gateway/filter/ast.ts";
import type { Route, Schema, StandardRoute } from "../../generator/schema/types.ts";
import { expectFor, rowsOf, shapeProblems } from "../gateway/helpers.ts";
import { JWT_SECRET, type TestGateway, testGateway, token } from "../harness/gateway.ts";
import { REPO, RESTURA_FIXTURE, type TemplateName } from "../harness/templates.ts";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 400);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

interface AppRoute {
  route: Route;
  method: string;
  fullPath: string;
}

function appRoutes(schema: Schema): AppRoute[] {
  return schema.endpoints.flatMap((g) =>
    g.routes.map((route) => {
      const fullPath = `${g.baseUrl}${route.path}`;
      // Counterexamples print the route as `METHOD /path`, not its whole definition.
      return {
        route,
        method: route.method,
        fullPath,
        [fc.toStringMethod]: () => `${route.method} ${fullPath}`,
      };
    }),
  );
}

function loadSchema(dir: string): Schema {
  const loaded = readAppSchema(dir);
  if (!loaded.schema) throw new Error(`${dir}: schema does not load`);
  return loaded.schema;
}

// --- generators ---------------------------------------------------------------------------

const HOSTILE_TEXT = [
  "",
  " ",
  "0",
  "-1",
  "1.5",
  "1e309",
  "99999999999999999999",
  "NaN",
  "null",
  "true",
  "[]",
  "{}",
  "'; DROP TABLE task; --",
  "1 OR 1=1",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "%",
  "_",
  "\\",
  "%00",
  "2020-02-30",
  "0000-01-01",
  "../../etc/passwd",
  "x".repeat(5000),
  "__proto__",
  "constructor",
  "(id,eq,1)",
];

const text = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ maxLength: 40 }), fc.nat(20).map(String));

/** A filter-like string: mostly well-formed expressions over plausible and hostile columns. */
const filterText = fc.oneof(
  text,
  fc
    .tuple(
      fc.constantFrom(
        "id",
        "name",
        "status",
        "budget",
        "title",
        "companyId",
        "passwordHash",
        "user.email",
        "x.y.z",
      ),
      fc.constantFrom<string>(...FILTER_OPS, "bogus"),
      text,
    )
    .map(([c, op, v]) => `(${c},${op},${v})`),
  fc.constantFrom(
    "(id,eq,1)and(id,eq,2)",
    "!(id,eq,1)",
    "((((((id,null))))))",
    "(id,in,1|2|3)",
    "(",
    ")",
    ",,",
  ),
);

/**
 * Stands for JSON nested 5000 deep. The value itself would overflow fast-check's own printer when
 * it reports a counterexample, so the request text is built around this marker instead.
 */
const DEEP = "\u0002deep\u0002";
const DEEP_JSON = `${"[".repeat(5000)}1${"]".repeat(5000)}`;

/** Any JSON value, including the shapes that have broken parsers and validators before. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 4, arbitrary: text },
  { weight: 2, arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308) },
  { weight: 1, arbitrary: fc.constant(DEEP) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 5 }) },
);

type Caller =
  | { kind: "anonymous" }
  | { kind: "token"; value: string; claims?: Record<string, unknown> }
  | { kind: "header"; value: string };

function callers(schema: Schema, companies: number[]): fc.Arbitrary<Caller> {
  const claims = fc.record({
    role: fc.constantFrom(...schema.roles, "nobody"),
    scopes: fc.subarray([...schema.scopes]),
    userId: fc.integer({ min: 1, max: 8 }),
    companyId: fc.constantFrom(...companies),
  });
  const wrongGlobal = fc.constantFrom<unknown>("1 OR 1=1", 1.5, true, {}, [], "", null, 2 ** 60);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Caller>({ kind: "anonymous" }) },
    { weight: 14, arbitrary: claims.map<Caller>((c) => ({ kind: "token", value: token(c), claims: c })) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(claims, fc.constantFrom("companyId", "userId", "role", "scopes"), wrongGlobal)
        .map<Caller>(([c, key, v]) => ({ kind: "token", value: token({ ...c, [key]: v }) })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Caller>(
        { kind: "token", value: jwt.sign({ role: "admin", companyId: 1 }, "", { algorithm: "none" }) },
        { kind: "token", value: jwt.sign({ role: "admin", companyId: 1, exp: 1 }, JWT_SECRET) },
        {
          kind: "token",
          value: jwt.sign({ role: "admin", companyId: 1 }, "another secret of 32 bytes at least!!"),
        },
        { kind: "token", value: "e30.e30.e30" },
        { kind: "header", value: "Basic YWRtaW46YWRtaW4=" },
        { kind: "header", value: "Bearer" },
        { kind: "header", value: `Bearer ${"a".repeat(9000)}` },
      ),
    },
    { weight: 1, arbitrary: text.map<Caller>((value) => ({ kind: "header", value: `Bearer ${value}` })) },
  );
}

interface Attack {
  route: AppRoute;
  caller: Caller;
  pathValues: string[];
  query: [string, string][];
  body:
    | { kind: "json"; value: unknown; extra: [string, unknown][] }
    | { kind: "raw"; contentType: string; payload: string }
    | { kind: "multipart"; parts: { name: string; filename?: string; value: string }[] }
    | { kind: "none" };
}

function attacks(schema: Schema, companies: number[]): fc.Arbitrary<Attack> {
  const routes = appRoutes(schema);
  return fc.constantFrom(...routes).chain((route) => {
    const declared = (route.route.request ?? []).map((p) => p.name);
    const paramNames = fc.constantFrom(
      ...declared,
      "page",
      "perPage",
      "filter",
      "sortBy",
      "sortOrder",
      "__proto__",
      "x",
    );
    const queryValue = (name: string) => (name === "filter" ? filterText : text);
    const pair = (n: string) => queryValue(n).map((v) => [n, v] as [string, string]);
    // Mostly the route's own parameters (so requests get past validation), plus a few strays.
    const query = fc
      .tuple(
        fc.subarray(declared).chain((names) => fc.tuple(...names.map(pair))),
        fc.array(paramNames.chain(pair), { maxLength: 3 }),
      )
      .map(([own, stray]) => [...own, ...stray]);
    const jsonBody = fc.record({
      value: fc.oneof(
        { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...declared, "x"), jsonValue, { maxKeys: 6 }) },
        { weight: 1, arbitrary: jsonValue },
      ),
      extra: fc.array(
        fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "id", "companyId"), jsonValue),
        {
          maxLength: 2,
        },
      ),
    });
    const body = fc.oneof(
      { weight: 6, arbitrary: jsonBody.map((b) => ({ kind: "json" as const, ...b })) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("raw" as const),
          contentType: fc.constantFrom(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "",
          ),
          payload: fc.oneof(
            text,
            fc.constantFrom("{", '{"a":', "[".repeat(6000), '{"a":"\\ud800"}', '{"__proto__":{"x":1}}'),
          ),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant("multipart" as const),
          parts: fc.array(
            fc.record(
              { name: fc.constantFrom("file", "files", "data", "note", "x"), filename: text, value: text },
              { requiredKeys: ["name", "value"] },
            ),
            { maxLength: 3 },
          ),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    );
    return fc.record({
      route: fc.constant(route),
      caller: callers(schema, companies),
      pathValues: fc.array(
        fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) }, text),
        {
          minLength: 4,
          maxLength: 4,
        },
      ),
      query,
      body: route.method === "GET" ? fc.constant({ kind: "none" as const }) : body,
    });
  });
}

// --- turning an attack into a request -------------------------------------------------------

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD's bytes: encodeURIComponent throws). */
function pct(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

function urlOf(a: Attack): string {
  let i = 0;
  const filled = a.route.fullPath.replace(/:[A-Za-z_]\w*/g, () => pct(a.pathValues[i++] ?? "1"));
  const qs = a.query.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&");
  return qs ? `${filled}?${qs}` : filled;
}

function requestOf(a: Attack) {
  const headers: Record<string, string> = {};
  if (a.caller.kind === "token") headers.authorization = `Bearer ${a.caller.value}`;
  if (a.caller.kind === "header") headers.authorization = a.caller.value;
  let payload: string | undefined;
  switch (a.body.kind) {
    case "json": {
      // JSON.stringify cannot express `__proto__` as an own key of a literal: build the text.
      const base = JSON.stringify(a.body.value) ?? "null";
      const extra = a.body.extra.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? "null"}`);
      payload =
        base.startsWith("{") && extra.length > 0
          ? `{${[...extra, base.slice(1, -1)].filter(Boolean).join(",")}}`
          : base;
      payload = payload.replaceAll(JSON.stringify(DEEP), DEEP_JSON);
      headers["content-type"] = "application/json";
      break;
    }
    case "raw":
      payload = a.body.payload;
      if (a.body.contentType) headers["content-type"] = a.body.contentType;
      break;
    case "multipart": {
      const boundary = "----property-test-boundary";
      const parts = a.body.parts
        .map(
          (p) =>
            `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename.replace(/["\r\n]/g, "")}"` : ""}\r\n\r\n${p.value}\r\n`,
        )
        .join("");
      payload = `${parts}--${boundary}--\r\n`;
      headers["content-type"] = `multipart/form-data; boundary=${boundary}`;
      break;
    }
    case "none":
      break;
  }
  return {
    method: a.route.method as "GET",
    url: urlOf(a),
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

// --- oracles --------------------------------------------------------------------------------

/** One text fingerprint of every table's rows: equal before and after means nothing changed. */
async function fingerprint(su: pg.Client, schema: Schema): Promise<string> {
  const parts = schema.database.map(
    (table) =>
      `(SELECT md5(COALESCE(string_agg(x::text, '|' ORDER BY x::text), '')) FROM public."${table.name.replaceAll('"', '""')}" x)`,
  );
  const { rows } = await su.query<{ f: string }>(`SELECT concat_ws(',', ${parts.join(", ")}) AS f`);
  return rows[0]?.f ?? "";
}

/** Example app: text values found in one company's rows and in no row of the other company. */
async function exclusiveStrings(su: pg.Client): Promise<Map<number, Set<string>>> {
  const { rows } = await su.query<{ company: number; value: string }>(`
    WITH owned AS (
      SELECT c.id AS company, to_jsonb(c) AS row FROM public.company c
      UNION ALL SELECT u."companyId", to_jsonb(u) FROM public."user" u
      UNION ALL SELECT p."companyId", to_jsonb(p) FROM public.project p
      UNION ALL SELECT t."companyId", to_jsonb(t) FROM public.task t
      UNION ALL SELECT t."companyId", to_jsonb(c) FROM public.comment c JOIN public.task t ON t.id = c."taskId"
    ), strings AS (
      SELECT company, v.value #>> '{}' AS value FROM owned, jsonb_each(row) AS v WHERE jsonb_typeof(v.value) = 'string'
    )
    SELECT company, value FROM strings WHERE length(value) >= 6
    GROUP BY company, value
    HAVING NOT EXISTS (SELECT 1 FROM strings s2 WHERE s2.value = strings.value AND s2.company <> strings.company)`);
  const out = new Map<number, Set<string>>();
  for (const r of rows) {
    if (!out.has(Number(r.company))) out.set(Number(r.company), new Set());
    out.get(Number(r.company))?.add(r.value);
  }
  return out;
}

interface AppUnderAttack {
  template: TemplateName;
  schema: Schema;
  companies: number[];
  /** Routes served without a handler (501 by configuration, not a fault). */
  unhandled: (route: Route) => boolean;
}

const example = loadSchema(path.join(REPO, "example"));
const restura = loadSchema(path.dirname(RESTURA_FIXTURE));
const isCustom = (route: Route) => route.type.startsWith("CUSTOM_");

const APPS: AppUnderAttack[] = [
  { template: "tpl_example", schema: example, companies: [1, 2], unhandled: () => false },
  { template: "tpl_restura", schema: restura, companies: [1, 2], unhandled: isCustom },
];

for (const target of APPS) {
  t.test(`${target.template}: ${RUNS} generated attacks`, async (t) => {
    const gw: TestGateway = await testGateway(t, target.template);
    const exclusive =
      target.template === "tpl_example" ? await exclusiveStrings(gw.su) : new Map<number, Set<string>>();
    let before = await fingerprint(gw.su, target.schema);
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(attacks(target.schema, target.companies), async (a) => {
        const res = await gw.app.inject(requestOf(a));
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const where = `${a.route.method} ${a.route.fullPath} -> ${res.statusCode} ${res.body.slice(0, 300)}`;

        if (res.statusCode >= 500 && !(res.statusCode === 501 && target.unhandled(a.route.route))) {
          throw new Error(`a 5xx for client input: ${where}`);
        }
        if (res.statusCode >= 400) {
          const after = await fingerprint(gw.su, target.schema);
          if (after !== before) throw new Error(`a rejected request changed the database: ${where}`);
        } else {
          before = await fingerprint(gw.su, target.schema);
        }
        if (res.statusCode >= 300) return;

        const route = a.route.route;
        if (a.route.method === "GET" && !isCustom(route) && a.caller.kind === "token" && a.caller.claims) {
          const claims = a.caller.claims as {
            role: string;
            scopes: string[];
            companyId: number;
            userId: number;
          };
          const expected = expectFor(target.schema, route as StandardRoute, claims);
          if (expected.status !== 200) throw new Error(`the oracle expects ${expected.status}: ${where}`);
          const problems = shapeProblems(rowsOf(res.json()), expected.shape);
          if (problems.length > 0) throw new Error(`keys the caller may not see: ${problems[0]} in ${where}`);
        }
        if (a.caller.kind === "token" && a.caller.claims && !a.route.fullPath.includes("/public/")) {
          const own = a.caller.claims.companyId as number;
          for (const [company, values] of exclusive) {
            if (company === own) continue;
            for (const value of values) {
              if (res.body.includes(JSON.stringify(value))) {
                throw new Error(
                  `company ${company}'s ${JSON.stringify(value)} reached a caller of company ${own}: ${where}`,
                );
              }
            }
          }
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    if (process.env.PROPERTY_REPORT) {
      fs.appendFileSync(
        process.env.PROPERTY_REPORT,
        `${target.template} ${JSON.stringify(Object.fromEntries(statuses))}\n`,
      );
    }
    t.pass(
      `answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])))}`,
    );
    t.ok(
      [...statuses.keys()].some((s) => s < 300),
      "some generated requests succeed (the generators reach past validation)",
    );
  });
}
