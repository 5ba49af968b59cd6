// The permission matrix over HTTP: every GET standard route of the example app (listed from the
// loaded schema, so a new route cannot be forgotten) x callers {anonymous, admin, manager, member of
// company 1} x scope sets {none, each single scope, all scopes}. The expected status, error and,
// for 200s, the exact key set of every returned object (nested subquery objects too) come from
// `expectFor` (helpers.ts): docs/permissions.md applied to the schema by the test, not by the gateway's code.

import t from "tap";
import { testGateway } from "../harness/gateway.ts";
import {
  type Caller,
  caller,
  expectFor,
  getStandardRoutes,
  JSON_CONTENT_TYPE,
  loadExampleSchema,
  rowsOf,
  type Shape,
  sampleUrl,
  shapePaths,
  shapeProblems,
  type USERS,
} from "./helpers.ts";

const schema = loadExampleSchema();
const routes = getStandardRoutes(schema);
const scopeSets: string[][] = [[], ...schema.scopes.map((s) => [s]), [...schema.scopes]];
const users = ["admin1", "manager1", "member1"] as const satisfies readonly (keyof typeof USERS)[];

const callers: [string, Caller | null][] = [
  ["anonymous", null],
  ...users.flatMap((u) =>
    scopeSets.map((scopes): [string, Caller] => [`${u} [${scopes.join(" ")}]`, caller(u, scopes)]),
  ),
];

const keysOf = (shape: Shape | undefined, nested?: string): string[] =>
  (nested ? shape?.nested[nested]?.keys : shape?.keys) ?? [];

t.test("the oracle says what example/README.md says (so the matrix below is not vacuous)", async (t) => {
  const route = (path: string) => {
    const r = routes.find((x) => x.fullPath === `/api/v1${path}`);
    if (!r) throw new Error(`no route ${path}`);
    return r.route;
  };
  const shape = (path: string, who: Caller | null) => {
    const e = expectFor(schema, route(path), who);
    return e.status === 200 ? e.shape : undefined;
  };
  const none: string[] = [];
  t.ok(keysOf(shape("/project", caller("manager1", none))).includes("budget"), "budget: manager sees it");
  t.ok(keysOf(shape("/project", caller("admin1", none))).includes("budget"), "budget: admin sees it");
  t.notOk(keysOf(shape("/project", caller("member1", none))).includes("budget"), "budget: member does not");
  t.notOk(
    keysOf(shape("/project/:id", caller("member1", schema.scopes))).includes("budget"),
    "budget: member does not, whatever the scopes",
  );
  t.ok(keysOf(shape("/user/me", caller("admin1", none))).includes("lastLoginOn"), "lastLoginOn: admin");
  t.notOk(keysOf(shape("/user/me", caller("manager1", none))).includes("lastLoginOn"), "not manager");
  t.ok(keysOf(shape("/user", caller("admin1", none))).includes("grantedScopes"), "grantedScopes: admin");
  t.notOk(keysOf(shape("/user", caller("member1", none))).includes("grantedScopes"), "not member");
  t.ok(
    keysOf(shape("/company/me", caller("member1", ["billing:read"]))).includes("billingEmail"),
    "billingEmail: with billing:read, any role",
  );
  t.notOk(
    keysOf(shape("/company/me", caller("admin1", ["tasks:write"]))).includes("billingEmail"),
    "billingEmail: not without billing:read, even for admins",
  );
  t.equal(expectFor(schema, route("/invoice"), caller("member1", ["billing:read"])).status, 403);
  t.equal(expectFor(schema, route("/invoice"), caller("manager1", [])).status, 403);
  t.equal(expectFor(schema, route("/invoice"), caller("manager1", ["billing:read"])).status, 200);
  t.equal(expectFor(schema, route("/user/me"), null).status, 401);
  t.equal(expectFor(schema, route("/company/public/:id"), null).status, 200);
  t.same(keysOf(shape("/project/:id", caller("member1", none)), "tasks").includes("comments"), true);
});

t.test("permission matrix of every GET standard route", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  t.ok(routes.length > 0, `${routes.length} GET standard routes in the schema`);

  for (const r of routes) {
    t.test(r.name, async (t) => {
      const url = sampleUrl(r);
      const seen = new Set<string>();
      const expectedPaths = new Set<string>();
      /** Key path -> the callers for whom the oracle says present / absent (among 200s). */
      const presence = new Map<string, { present: string[]; absent: string[] }>();
      const allPaths = new Set<string>();
      const answers: { label: string; shape: Shape }[] = [];

      for (const [label, who] of callers) {
        const expected = expectFor(schema, r.route, who);
        const before = gw.statements();
        const res = await gw.request({ method: "GET", url, ...(who ? { as: who } : {}) });
        const sent = gw.statements() - before;
        t.equal(res.statusCode, expected.status, `${label}: status ${expected.status}`);
        t.equal(res.headers["content-type"], JSON_CONTENT_TYPE, `${label}: JSON`);
        const body = JSON.parse(res.body) as unknown;
        if (expected.status !== 200) {
          t.same(body, { error: { code: expected.code, message: expected.message } }, `${label}: error`);
          t.equal(sent, expected.by === "gateway" ? 0 : 1, `${label}: denied by the ${expected.by}`);
          continue;
        }
        t.equal(sent, 1, `${label}: one statement`);
        const rows = rowsOf(body);
        t.ok(rows.length > 0, `${label}: company 1's sample answers with rows, so keys are checked`);
        t.same(shapeProblems(rows, expected.shape, seen), [], `${label}: exact keys of every object`);
        for (const p of shapePaths(expected.shape)) expectedPaths.add(p);
        answers.push({ label, shape: expected.shape });
      }

      // Every key path that some caller should see was checked on at least one real object
      // (nested subquery arrays may be empty for a row: some row must have them).
      t.same(
        [...expectedPaths].filter((p) => !seen.has(p)),
        [],
        "every expected key was seen on a returned object",
      );
      for (const a of answers) for (const p of shapePaths(a.shape)) allPaths.add(p);
      for (const p of allPaths) presence.set(p, { present: [], absent: [] });
      for (const a of answers) {
        const mine = new Set(shapePaths(a.shape));
        for (const p of allPaths) presence.get(p)?.[mine.has(p) ? "present" : "absent"].push(a.label);
      }
      const varying = [...presence].filter(([, v]) => v.present.length > 0 && v.absent.length > 0);
      for (const [p, v] of varying) {
        t.comment(`${p}: present for ${v.present.length} callers, left out for ${v.absent.join(", ")}`);
      }
    });
  }
});
