// The role behind `req.service` (generator/api/service.ts, docs/permissions.md "The service
// role"): handler code asks the pool the gateway gives it who it is, and what it can do. Not a
// superuser, no DDL in public or api, no COPY ... PROGRAM, no DELETE, no schema api; yet it reads
// and updates what the example's login and refresh need, and the login works over HTTP.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { exampleAppWithStubs } from "../harness/app.ts";
import { JWT_SECRET, testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { REPO } from "../harness/templates.ts";

const EXAMPLE = path.join(REPO, "example");

/** The example's schema, migrations and stub handlers, plus a probe that reports on req.service. */
function probeApp(t: Parameters<typeof exampleAppWithStubs>[0]) {
  const schema = JSON.parse(fs.readFileSync(path.join(EXAMPLE, "api.schema.json"), "utf8"));
  schema.endpoints[0].routes.push({
    name: "probe",
    description: "what req.service may do",
    method: "GET",
    path: "/probe/service",
    type: "CUSTOM_ONE",
    roles: [],
    scopes: [],
    request: [],
    responseType: "boolean",
  });
  const app = exampleAppWithStubs(t, schema, EXAMPLE);
  const dir = app.handlers;
  // Each attempt's SQLSTATE (or "ok"): the probe answers with what happened, never throws.
  fs.writeFileSync(
    path.join(dir, "probe.api.v1.ts"),
    `export default class Probe {
  async getProbeService(req, res) {
    const attempt = async (text) => {
      try { await req.service.query(text); return "ok"; } catch (e) { return e.code ?? String(e); }
    };
    const who = (await req.service.query(
      "SELECT current_user AS name, r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcreatedb FROM pg_roles r WHERE r.rolname = current_user"
    )).rows[0];
    res.sendData({
      who,
      createInPublic: await attempt("CREATE TABLE public.probe_x (id int)"),
      createInApi: await attempt("CREATE TABLE api.probe_x (id int)"),
      createFunction: await attempt("CREATE FUNCTION public.probe_f() RETURNS int LANGUAGE sql AS 'SELECT 1'"),
      createTemp: await attempt("CREATE TEMP TABLE probe_t (id int)"),
      copyProgram: await attempt("COPY (SELECT 1) TO PROGRAM 'true'"),
      readServerFile: await attempt("SELECT pg_read_file('PG_VERSION')"),
      becomeOwner: await attempt("SET ROLE api_owner"),
      apiSchema: await attempt('SELECT 1 FROM api."user" LIMIT 1'),
      deleteRows: await attempt('DELETE FROM public."comment"'),
      truncate: await attempt('TRUNCATE public."comment"'),
      alterTable: await attempt('ALTER TABLE public."user" ADD COLUMN probe int'),
      readLogin: await attempt('SELECT "id", "passwordHash", "grantedScopes", "isActive" FROM public."user" WHERE "id" = 3'),
      updateLogin: await attempt('UPDATE public."user" SET "lastLoginOn" = now() WHERE "id" = 3'),
    });
  }
}
`,
  );
  return app;
}

t.test("req.service is api_service: no superuser, no DDL, no COPY PROGRAM, no DELETE", async (t) => {
  const app = probeApp(t);
  const gw = await testGatewayForApp(t, app.dir, fs.readFileSync(path.join(EXAMPLE, "seed.sql"), "utf8"));
  const res = await gw.request({ method: "GET", url: "/api/v1/probe/service" });
  t.equal(res.statusCode, 200, res.body);
  const data = JSON.parse(res.body).data;
  t.same(data.who, {
    name: "api_service",
    rolsuper: false,
    rolbypassrls: false,
    rolcreaterole: false,
    rolcreatedb: false,
  });
  t.same(
    {
      createInPublic: data.createInPublic,
      createInApi: data.createInApi,
      createFunction: data.createFunction,
      createTemp: data.createTemp,
      copyProgram: data.copyProgram,
      readServerFile: data.readServerFile,
      becomeOwner: data.becomeOwner,
      apiSchema: data.apiSchema,
      deleteRows: data.deleteRows,
      truncate: data.truncate,
      alterTable: data.alterTable,
    },
    {
      createInPublic: "42501",
      createInApi: "42501",
      createFunction: "42501",
      createTemp: "42501",
      copyProgram: "42501",
      readServerFile: "42501",
      becomeOwner: "42501",
      apiSchema: "42501",
      deleteRows: "42501",
      truncate: "42501",
      alterTable: "42501",
    },
    "every privileged act is refused (insufficient privilege)",
  );
  t.same([data.readLogin, data.updateLogin], ["ok", "ok"], "what login and refresh need works");
  const { rows } = await gw.su.query(`SELECT count(*) AS n FROM public."comment"`);
  t.ok(Number(rows[0].n) > 0, "nothing was deleted");
});

t.test("the example's login and refresh work through api_service", async (t) => {
  process.env.JWT_SECRET = JWT_SECRET;
  const gw = await testGateway(t, "tpl_example");
  const login = await gw.request({
    method: "POST",
    url: "/api/v1/user/login",
    payload: { username: "mia.member@acme.test", password: "password123" },
  });
  t.equal(login.statusCode, 200, login.body);
  const refresh = await gw.request({
    method: "POST",
    url: "/api/v1/user/refresh-token",
    payload: { refreshToken: JSON.parse(login.body).data.refreshToken },
  });
  t.equal(refresh.statusCode, 200, refresh.body);
  const { rows } = await gw.su.query(
    `SELECT "lastLoginOn" IS NOT NULL AS set FROM public."user" WHERE "id" = 3`,
  );
  t.same(rows, [{ set: true }], "login recorded lastLoginOn");
});
