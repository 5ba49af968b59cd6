// Which route functions store the caller in the `api.ctx` setting (generator/routes/function.ts).
// Their own checks and masks read the `ctx` argument; the setting is for what reads it instead:
// row policies, the table rule's restrictive policy, raw SQL (which may read the API views), and
// on writes, triggers and defaults an app adds. Skipping it where one of those runs would make a
// policy match nothing or read a value the session forged, so each trigger is tested.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { routeStatements } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";

const base = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../golden/routes/one-with-join/schema.json"), "utf8"),
);
const SETS = "PERFORM set_config('api.ctx'";

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
  t.ok(sql.includes(SETS));
});

t.test("a table rule on a joined table (a restrictive policy): set", async (t) => {
  const sql = functionsOf((s) => {
    table(s, "company").roles = ["admin"];
  });
  t.ok(sql.includes(SETS));
});

t.test("raw SQL in a selector: set", async (t) => {
  const sql = functionsOf((s) => {
    route(s).response.push({
      name: "companies",
      selector: '(SELECT count(*) FROM "company")',
      type: "number",
    });
  });
  t.ok(sql.includes(SETS));
});

t.test("raw SQL in a where condition: set", async (t) => {
  const sql = functionsOf((s) => {
    route(s).where.push({ custom: "true" });
  });
  t.ok(sql.includes(SETS));
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
  t.ok(sql.includes(SETS));
});
