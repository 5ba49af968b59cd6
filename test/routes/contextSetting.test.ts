// Which route functions store the caller in the context settings, and which of them
// (generator/routes/function.ts, generator/api/context.ts). Their own checks and masks read the
// `ctx` argument; the settings are for what reads them instead: row policies and the table rule's
// restrictive policy (only the keys they read), and everything (`api.ctx` and every key) for raw
// SQL (which may read the API views), a policy with raw SQL, and on writes, triggers and defaults
// an app adds. Skipping a setting where one of those runs would make a policy match nothing or
// read a value the session forged, so each case is tested.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { routeStatements } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";

const base = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../golden/routes/one-with-join/schema.json"), "utf8"),
);
const SETS = "set_config('api.ctx";
const WHOLE = "set_config('api.ctx', COALESCE(ctx::text, ''), true)";
const key = (name: string) => `set_config('api.ctx.${name}', COALESCE(`;
const ALL_KEYS = ["role", "scopes", "companyId", "userId"];

/** The keys `sql` sets (none when it sets nothing), and whether it sets the whole context. */
function settings(sql: string): { whole: boolean; keys: string[] } {
  return {
    whole: sql.includes(WHOLE),
    keys: ALL_KEYS.filter((k) => sql.includes(key(k))),
  };
}

function functionsOf(change: (schema: typeof base) => void): string {
  const raw = structuredClone(base);
  change(raw);
  const loaded = loadSchema(raw);
  if (!loaded.schema) throw new Error(JSON.stringify(loaded.errors));
  return routeStatements(loaded.schema).join("\n");
}

const table = (schema: typeof base, name: string) =>
  schema.database.find((x: { name: string }) => x.name === name);
const route = (schema: typeof base) => schema.endpoints[0].routes[0];

t.test("a read whose tables have no policies or table rule, and no raw SQL: not set", async (t) => {
  const sql = functionsOf(() => {});
  t.notOk(sql.includes(SETS), "no set_config");
  t.notMatch(sql, /api\.(allowed|has_role|has_scopes|ctx)/, "the route rule and the masks read ctx");
  t.match(sql, /\(\$2->>'role'\) = ANY \(ARRAY\['admin', 'user'\]::text\[\]\)/, "the route rule");
  t.match(sql, /\(\$2->'scopes'\) @> '\["billing:read"\]'::jsonb/, "the billingEmail mask");
});

t.test("a row policy on a table read: set", async (t) => {
  const sql = functionsOf((s) => {
    table(s, "user").policies = [
      {
        name: "own",
        roles: [],
        scopes: [],
        where: [{ tableName: "user", columnName: "id", operator: "=", value: "#userId" }],
      },
    ];
  });
  t.same(settings(sql), { whole: false, keys: ["userId"] }, "only the key the policy reads");
});

t.test("a policy for some roles and scopes: those keys", async (t) => {
  const sql = functionsOf((s) => {
    table(s, "user").policies = [{ name: "staff", roles: ["admin"], scopes: ["billing:read"], where: [] }];
  });
  t.same(settings(sql), { whole: false, keys: ["role", "scopes"] });
});

t.test("a policy with raw SQL: everything", async (t) => {
  const sql = functionsOf((s) => {
    table(s, "user").policies = [{ name: "raw", roles: [], scopes: [], where: [{ custom: "true" }] }];
  });
  t.same(settings(sql), { whole: true, keys: ALL_KEYS });
});

t.test("a table rule on a joined table (a restrictive policy): the key it reads", async (t) => {
  const byRole = functionsOf((s) => {
    table(s, "company").roles = ["admin"];
  });
  t.same(settings(byRole), { whole: false, keys: ["role"] });
  const byScope = functionsOf((s) => {
    table(s, "company").scopes = ["billing:read"];
  });
  t.same(settings(byScope), { whole: false, keys: ["scopes"] });
});

t.test("raw SQL in a selector: set", async (t) => {
  const sql = functionsOf((s) => {
    route(s).response.push({
      name: "companies",
      selector: '(SELECT count(*) FROM "company")',
      type: "number",
    });
  });
  t.same(settings(sql), { whole: true, keys: ALL_KEYS });
});

t.test("raw SQL in a where condition: set", async (t) => {
  const sql = functionsOf((s) => {
    route(s).where.push({ custom: "true" });
  });
  t.same(settings(sql), { whole: true, keys: ALL_KEYS });
});

t.test("a write: always set", async (t) => {
  const sql = functionsOf((s) => {
    Object.assign(route(s), {
      method: "PATCH",
      path: "/user/:id/name",
      joins: [],
      request: [
        { name: "id", required: true, validator: [{ type: "TYPE_CHECK", value: "number" }] },
        { name: "firstName", required: true, validator: [{ type: "TYPE_CHECK", value: "string" }] },
      ],
      response: [{ name: "id", selector: "user.id" }],
    });
  });
  t.match(sql, /UPDATE/, "a write function");
  t.same(settings(sql), { whole: true, keys: ALL_KEYS });
});
