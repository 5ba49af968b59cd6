// The route functions' expected answers (test/routes/expected/*.json, checked by hand against the
// seeds) replayed over HTTP through the real gateway: path parameters in the URL, the rest in the
// query string (arrays as repeated keys, a filter AST turned back into filter text), a JWT signed
// from the case's ctx (none for an anonymous ctx). Success bodies must be the same JSON (values,
// types and key order); errors the envelope with the mapped status. Every request that reaches the
// database costs exactly one statement; requests the gateway rejects itself cost none.
//
// Where the gateway answers before the database (its own route check, its filter column check)
// the gateway's documented answer is asserted instead of the route function's, as marked below.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { parseFilter } from "../../gateway/filter/parse.ts";
import type { Schema, StandardRoute } from "../../generator/schema/types.ts";
import { testGateway } from "../harness/gateway.ts";
import { REPO, RESTURA_FIXTURE, type TemplateName } from "../harness/templates.ts";
import {
  type Caller,
  expectFor,
  type FilterAst,
  filterText,
  getStandardRoutes,
  JSON_CONTENT_TYPE,
} from "./helpers.ts";

interface Case {
  route: string;
  params: Record<string, unknown>;
  ctx: { role: string | null; scopes: string[] } & Record<string, unknown>;
  body?: unknown;
  error?: string;
}

const SQLSTATE_STATUS: Record<string, [number, string]> = {
  A0400: [400, "BAD_REQUEST"],
  A0401: [401, "UNAUTHORIZED"],
  A0403: [403, "FORBIDDEN"],
  A0404: [404, "NOT_FOUND"],
  A0409: [409, "CONFLICT"],
  A0422: [422, "VALIDATION_ERROR"],
};

const FIXTURES: { file: string; template: TemplateName; appDir: string }[] = [
  { file: "example.json", template: "tpl_example", appDir: path.join(REPO, "example") },
  { file: "restura.json", template: "tpl_restura", appDir: path.dirname(RESTURA_FIXTURE) },
];

function loadSchema(appDir: string): Schema {
  const loaded = readAppSchema(appDir);
  if (!loaded.schema) throw new Error(`${appDir}: schema does not load`);
  return loaded.schema;
}

/** A case's request: URL (path params substituted, the rest as query) and caller. */
function requestOf(c: Case) {
  const [method, fullPath] = c.route.split(" ") as [string, string];
  const rest = { ...c.params };
  const url = fullPath
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const name = segment.slice(1);
      const value = rest[name];
      delete rest[name];
      return encodeURIComponent(String(value));
    })
    .join("/");
  const query = new URLSearchParams();
  let filter: string | undefined;
  for (const [name, value] of Object.entries(rest)) {
    if (name === "filter" && typeof value === "object" && value !== null) {
      filter = filterText(value as FilterAst);
      query.append(name, filter);
    } else if (Array.isArray(value)) for (const item of value) query.append(name, String(item));
    else query.append(name, String(value));
  }
  const qs = query.toString();
  const { role, scopes, ...globals } = c.ctx;
  const anonymous = role === null && Object.keys(globals).length === 0;
  const who: Caller | null = anonymous ? null : ({ ...c.ctx } as Caller);
  return { method, fullPath, url: qs ? `${url}?${qs}` : url, who, filter };
}

/** The filter columns of the route: properties with a column selector, by name or `alias.column`; JSON ones with `.key`. */
function filterable(schema: Schema, route: StandardRoute, column: string): boolean {
  const tables = new Map(schema.database.map((x) => [x.name, x]));
  const aliases = new Map([
    [route.table, route.table],
    ...route.joins.map((j) => [j.alias, j.table] as const),
  ]);
  for (const p of route.response) {
    const m = p.selector ? /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(p.selector) : null;
    if (!m) continue;
    const col = tables.get(aliases.get(m[1] as string) ?? "")?.columns.find((x) => x.name === m[2]);
    if (!col) continue;
    if (column === p.name || column === p.selector) return true;
    if ((col.type === "JSON" || col.type === "JSONB") && column.startsWith(`${p.selector}.`)) return true;
  }
  return false;
}

/**
 * Why the gateway refuses a filter column (docs/query-language.md, "Errors"). The recorded cases
 * only name columns of the route's tables that no property shows; another case must extend this.
 */
function refusalReason(schema: Schema, route: StandardRoute, column: string): string {
  const tables = new Map(schema.database.map((x) => [x.name, x]));
  const sources = [route.table, ...route.joins.map((j) => j.table)].map((name) => tables.get(name));
  const aliases = [route.table, ...route.joins.map((j) => j.alias)];
  const [first, second] = column.split(".");
  const named = second === undefined ? sources : [sources[aliases.indexOf(first as string)]];
  const name = second ?? first;
  if (named.some((table) => table?.columns.some((c) => c.name === name)))
    return "not in this route's response";
  throw new Error(`reads.test.ts: no reason oracle for filter column "${column}"`);
}

function filterColumnsOf(ast: FilterAst): string[] {
  if ("and" in ast) return ast.and.flatMap(filterColumnsOf);
  if ("or" in ast) return ast.or.flatMap(filterColumnsOf);
  if ("not" in ast) return filterColumnsOf(ast.not);
  return [ast.column];
}

/**
 * Cases that fail because of a gateway bug (reported to the lead): the test keeps asserting the
 * correct behaviour and is skipped, naming the bug, until it is fixed.
 */
const KNOWN_BUGS: Record<string, string> = {};

t.test("filter text: what the cases send parses back to their AST", async (t) => {
  const asts: FilterAst[] = [
    { column: "user.metadata.tier", op: "eq", value: "gold" },
    { column: "name", op: "eq", value: 'a "quoted", (tricky) | value \\ with \' quotes' },
    { column: "name", op: "in", value: ["a|b", "c,d", ""] },
    { column: "name", op: "ne", value: "" },
    { column: "dueDate", op: "null" },
    {
      or: [
        { and: [{ column: "a", op: "gt", value: "1" }, { not: { column: "b", op: "notnull" } }] },
        { column: "c", op: "sw", value: "%_" },
      ],
    },
  ];
  for (const fixture of FIXTURES) {
    const cases: Case[] = JSON.parse(
      fs.readFileSync(path.join(REPO, "test/routes/expected", fixture.file), "utf8"),
    );
    for (const c of cases) if (typeof c.params.filter === "object") asts.push(c.params.filter as FilterAst);
  }
  const strip = (ast: unknown): unknown =>
    JSON.parse(JSON.stringify(ast, (key, value) => (key === "position" ? undefined : value)));
  for (const ast of asts) {
    const parsed = parseFilter(filterText(ast));
    t.same(parsed.ok ? strip(parsed.ast) : parsed.error, ast, filterText(ast));
  }
});

for (const fixture of FIXTURES) {
  const cases: Case[] = JSON.parse(
    fs.readFileSync(path.join(REPO, "test/routes/expected", fixture.file), "utf8"),
  );
  const schema = loadSchema(fixture.appDir);
  const routes = new Map(getStandardRoutes(schema).map((r) => [r.name, r.route]));

  t.test(`${fixture.file} over HTTP`, async (t) => {
    const gw = await testGateway(t, fixture.template);

    for (const c of cases) {
      const req = requestOf(c);
      const label = `${c.route} ${JSON.stringify(c.params)} as ${c.ctx.role ?? "anonymous"}`;
      const bug = KNOWN_BUGS[label];
      t.test(label, bug ? { skip: bug } : {}, async (t) => {
        const route = routes.get(c.route);
        if (!route) throw new Error(`${c.route} is not a GET standard route of ${fixture.file}`);
        const before = gw.statements();
        const res = await gw.request({ method: "GET", url: req.url, ...(req.who ? { as: req.who } : {}) });
        const sent = gw.statements() - before;
        t.equal(res.headers["content-type"], JSON_CONTENT_TYPE, "JSON content type");
        const body = JSON.parse(res.body) as unknown;

        if (c.error === undefined) {
          t.equal(res.statusCode, 200, "200");
          t.same(body, c.body, "same body");
          t.equal(JSON.stringify(body), JSON.stringify(c.body), "same key order");
          t.equal(sent, 1, "one round trip");
          return;
        }

        // The gateway's own route check answers first (docs/authentication.md "Route rules"): the
        // same status and message as the route function's A0401/A0403, and no statement.
        const early = expectFor(schema, route, req.who);
        if (early.status !== 200 && early.by === "gateway") {
          t.equal(res.statusCode, early.status, `the gateway's route check: ${early.status}`);
          t.same(body, { error: { code: early.code, message: early.message } }, "gateway's envelope");
          t.equal(sent, 0, "rejected by the gateway: no statement");
          return;
        }

        // The gateway's filter column check answers first: 400 with the column's position
        // (docs/query-language.md "Errors"), where the route function would say
        // `column "x" is not available for filtering`.
        const ast = c.params.filter as FilterAst | undefined;
        const hidden = ast ? filterColumnsOf(ast).find((col) => !filterable(schema, route, col)) : undefined;
        if (hidden !== undefined && req.filter !== undefined) {
          const position = req.filter.indexOf(`(${hidden},`) + 1;
          t.equal(res.statusCode, 400, "the gateway's filter check: 400");
          t.same(
            body,
            {
              error: {
                code: "BAD_REQUEST",
                message: `invalid filter: column "${hidden}" at position ${position} cannot be filtered: ${refusalReason(schema, route, hidden)}`,
              },
            },
            "gateway's envelope, with the position",
          );
          t.equal(sent, 0, "rejected by the gateway: no statement");
          return;
        }

        // The route function answers: SQLSTATE -> status and code, its message as is.
        const m = /^(A0\d{3}): (.*)$/s.exec(c.error);
        if (!m) throw new Error(`unexpected error form: ${c.error}`);
        const [status, code] = SQLSTATE_STATUS[m[1] as string] ?? [0, "?"];
        t.equal(res.statusCode, status, `${m[1]} -> ${status}`);
        t.same(body, { error: { code, message: m[2] } }, "error envelope");
        t.equal(sent, 1, "one round trip");
      });
    }
  });
}
