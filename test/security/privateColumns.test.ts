// Private columns (`"private": true`, docs/schema.md "Private columns"): the example's
// `user.passwordHash` must be unreadable by api_gateway even with a forged context (an admin
// with every scope): absent from every view, no SELECT on it for api_gateway or for the owner of
// any function it may execute, and no route function's answer carries it. And the loader refuses
// every place of a schema that would read one, with the JSON path.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { loadSchema } from "../../generator/schema/index.ts";
import { gatewaySession, rows, seededExample, sqlState } from "../api/helpers.ts";
import { testGateway } from "../harness/gateway.ts";
import { REPO, RESTURA_FIXTURE } from "../harness/templates.ts";

const EXAMPLE = JSON.parse(fs.readFileSync(path.join(REPO, "example/api.schema.json"), "utf8"));
// Forged: the highest role and every scope the schema declares, plus the retired auth:internal.
const FORGED = {
  role: "admin",
  scopes: [...(EXAMPLE.scopes as string[]), "auth:internal"],
  userId: 1,
  companyId: 1,
};

t.test("api_gateway with a forged admin context cannot read user.passwordHash", async (t) => {
  const { url, su } = await seededExample(t);
  const hashes = (await rows<{ h: string }>(su, `SELECT "passwordHash" AS h FROM public."user"`)).map(
    (r) => r.h,
  );
  t.ok(hashes.length > 0 && hashes.every((h) => h.startsWith("$2")), "the seed has hashes to look for");
  const gw = await gatewaySession(t, url);
  await gw.query("SELECT api.set_ctx($1::jsonb, false)", [JSON.stringify(FORGED)]);

  t.test("no view has the column; the view itself reads fine", async (t) => {
    const found = await rows(
      su,
      `SELECT c.relname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = 'api'::regnamespace AND a.attname = 'passwordHash' AND NOT a.attisdropped`,
    );
    t.same(found, [], "no relation in schema api has a passwordHash column");
    t.equal(await sqlState(gw, `SELECT "passwordHash" FROM api."user"`), "42703", "absent from api.user");
    const all = await rows(gw, `SELECT * FROM api."user" WHERE id = 3`);
    t.equal(all.length, 1, "the forged admin does read the user row");
    t.notOk(JSON.stringify(all).includes("$2"), "and no value in it is a hash");
  });

  t.test("the table: permission denied, for the gateway and for the functions' owner", async (t) => {
    t.equal(await sqlState(gw, `SELECT "passwordHash" FROM public."user"`), "42501");
    t.equal(await sqlState(gw, `SELECT * FROM public."user"`), "42501");
    const owners = await rows<{ owner: string; can: boolean }>(
      su,
      `SELECT DISTINCT p.proowner::regrole::text AS owner,
              has_column_privilege(p.proowner, 'public."user"'::regclass, 'passwordHash', 'SELECT') AS can
       FROM pg_proc p
       WHERE p.pronamespace = 'api'::regnamespace AND has_function_privilege('api_gateway', p.oid, 'EXECUTE')`,
    );
    t.ok(owners.length > 0, "the gateway executes functions in api");
    t.same(
      owners.filter((o) => o.can),
      [],
      "no function the gateway may execute runs as a role that can read the column",
    );
    t.notOk(
      (
        await rows<{ can: boolean }>(
          su,
          `SELECT has_column_privilege('api_gateway', 'public."user"'::regclass, 'passwordHash', 'SELECT') AS can`,
        )
      )[0]?.can,
    );
    // The strongest form: SQL running as api_owner (any SECURITY DEFINER route function) fails.
    await su.query("BEGIN");
    await su.query("SET LOCAL ROLE api_owner");
    t.equal(await sqlState(su, `SELECT "passwordHash" FROM public."user"`), "42501", "not even as api_owner");
    await su.query("ROLLBACK");
  });

  t.test(
    "every function the gateway may execute, called as a forged admin: no hash in any answer",
    async (t) => {
      const fns = await rows<{ sig: string }>(
        su,
        `SELECT p.oid::regprocedure::text AS sig FROM pg_proc p
       WHERE p.pronamespace = 'api'::regnamespace AND has_function_privilege('api_gateway', p.oid, 'EXECUTE')
         AND pg_get_function_identity_arguments(p.oid) = 'params jsonb, ctx jsonb'`,
      );
      t.ok(fns.length >= 20, `${fns.length} route functions`);
      const params = { id: 3, q: "a", priorities: ["high", "low"], page: 1, perPage: 100 };
      let answered = 0;
      await gw.query("BEGIN");
      for (const { sig } of fns) {
        const name = sig.slice(0, sig.indexOf("("));
        await gw.query("SAVEPOINT probe");
        try {
          const res = await gw.query(`SELECT ${name}($1::jsonb, $2::jsonb)::text AS body`, [
            JSON.stringify(params),
            JSON.stringify(FORGED),
          ]);
          answered++;
          const body = String(res.rows[0]?.body);
          t.notOk(
            body.includes("passwordHash") || hashes.some((h) => body.includes(h)),
            `${name}: no passwordHash`,
          );
        } catch {
          // Refused (a parameter it needs, a write rule): nothing was answered.
        }
        await gw.query("ROLLBACK TO SAVEPOINT probe");
      }
      await gw.query("ROLLBACK");
      t.ok(answered >= 10, `${answered} functions answered`);
    },
  );
});

t.test("over HTTP, an admin's user reads carry no passwordHash", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const admin = { role: "admin", scopes: FORGED.scopes, userId: 1, companyId: 1 };
  for (const url of ["/api/v1/user", "/api/v1/user/me"]) {
    const res = await gw.request({ method: "GET", url, as: admin });
    t.equal(res.statusCode, 200, url);
    t.notOk(res.body.includes("passwordHash") || res.body.includes("$2b$"), `${url}: no passwordHash`);
  }
  const filter = await gw.request({
    method: "GET",
    url: "/api/v1/project?filter=(owner.passwordHash,sw,$2)",
    as: admin,
  });
  t.equal(filter.statusCode, 400, "a filter naming it is refused");
});

/** Loads the example with one change; returns its errors. */
function errorsWith(change: (s: typeof EXAMPLE) => void) {
  const s = structuredClone(EXAMPLE);
  change(s);
  return loadSchema(s).errors;
}

const userTable = (s: typeof EXAMPLE) => s.database.find((x: { name: string }) => x.name === "user");
const route = (s: typeof EXAMPLE, method: string, p: string) =>
  s.endpoints[0].routes.find((r: { method: string; path: string }) => r.method === method && r.path === p);

t.test("the loader refuses every place that would read a private column", async (t) => {
  t.same(loadSchema(EXAMPLE).errors, [], "the example loads");
  const restura = loadSchema(JSON.parse(fs.readFileSync(RESTURA_FIXTURE, "utf8")));
  t.same(restura.errors, [], "the Restura fixture loads unchanged");

  const message = /column "passwordHash" of table "user" is private/;
  const users = "GET /user";
  const cases: [string, (s: typeof EXAMPLE) => void, RegExp][] = [
    [
      "a response selector",
      (s) => route(s, "GET", "/user").response.push({ name: "h", selector: "user.passwordHash" }),
      /^endpoints\[0\]\.routes\[\d+\]\.response\[\d+\]\.selector$/,
    ],
    [
      "a where condition",
      (s) =>
        route(s, "GET", "/user").where.push({
          tableName: "user",
          columnName: "passwordHash",
          operator: "LIKE",
          value: "'$2%'",
          conjunction: "AND",
        }),
      /^endpoints\[0\]\.routes\[\d+\]\.where\[\d+\]\.columnName$/,
    ],
    [
      "an orderBy",
      (s) => {
        route(s, "GET", "/user").orderBy = { tableName: "user", columnName: "passwordHash", order: "ASC" };
      },
      /\.orderBy\.columnName$/,
    ],
    [
      "raw SQL in a selector",
      (s) =>
        route(s, "GET", "/user").response.push({ name: "h", selector: `left("user"."passwordHash", 4)` }),
      /\.response\[\d+\]\.selector$/,
    ],
    [
      "a write route's parameter",
      (s) =>
        route(s, "PATCH", "/user/:id").request.push({ name: "passwordHash", required: false, validator: [] }),
      /\.request\[\d+\]\.name$/,
    ],
    [
      "an assignment",
      (s) => route(s, "PATCH", "/user/:id").assignments.push({ name: "passwordHash", value: "'x'" }),
      /\.assignments\[\d+\]\.name$/,
    ],
    [
      "a policy",
      (s) =>
        userTable(s).policies.push({
          name: "probe",
          roles: [],
          scopes: [],
          where: [{ tableName: "user", columnName: "passwordHash", operator: "=", value: "'x'" }],
        }),
      /^database\[\d+\]\.policies\[\d+\]\.where\[0\]\.columnName$/,
    ],
    [
      "a notify list",
      (s) => {
        userTable(s).notify = ["id", "passwordHash"];
      },
      /^database\[\d+\]\.notify\[1\]$/,
    ],
  ];
  for (const [label, change, where] of cases) {
    const errors = errorsWith(change);
    t.equal(errors.length, 1, `${label}: one error (${users})`);
    t.match(errors[0], { path: where, message }, label);
  }

  const pk = errorsWith((s) => {
    userTable(s).columns.find((c: { name: string }) => c.name === "id").private = true;
  });
  t.match(pk, [
    { path: /^database\[\d+\]\.columns\[0\]\.private$/, message: /primary key cannot be private/ },
  ]);
  const shape = errorsWith((s) => {
    userTable(s).columns.find((c: { name: string }) => c.name === "passwordHash").private = "yes";
  });
  t.match(shape, [{ path: /\.private$/, message: /expected a boolean/ }]);
});
