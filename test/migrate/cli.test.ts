// `make check` and `make migrate` as a user runs them: exit codes and what they print.

import { spawnSync } from "node:child_process";
import path from "node:path";
import t from "tap";
import { column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { testDatabase } from "../harness/db.ts";
import { REPO, RESTURA_FIXTURE } from "../harness/templates.ts";

function cli(script: string, appDir: string, env: Record<string, string> = {}) {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(REPO, "cli", script), "--app", appDir],
    {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, ...env },
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

t.test("check prints each error with its path and exits non-zero", async (t) => {
  const app = scratchApp(
    t,
    schemaWith([table("user", [id(), column("emial", "VARCHAR", { length: 9, isNulable: true })])]),
  );
  const r = cli("check.ts", app.dir);
  t.equal(r.status, 1);
  t.match(
    r.stderr,
    /database\[0\]\.columns\[1\]\.isNulable: unknown property "isNulable" \(did you mean "isNullable"\?\)/,
  );
  t.match(r.stderr, /1 error\(s\), 0 warning\(s\)/);
});

t.test(
  "check passes the Restura fixture's schema, printing its warnings, and reports its missing handlers",
  async (t) => {
    const r = cli("check.ts", path.dirname(RESTURA_FIXTURE));
    t.equal(r.status, 1, "the fixture has no handler files");
    t.match(
      r.stdout,
      /warning: endpoints\[0\]\.routes\[19\]\.where\[0\]\.value \(GET \/api\/v1\/user\/all\): bare word "bill"/,
    );
    t.match(
      r.stdout,
      /warning: endpoints\[0\]\.routes\[10\]\.roles\[1\] \(POST \/api\/v1\/user\/verify-password\): role "athlete" is not declared in roles/,
      "an undeclared route role stays a warning in a Restura file",
    );
    t.match(r.stdout, /schema is valid; 0 error\(s\), 7 warning\(s\)/);
    t.match(
      r.stderr,
      /error: handler: POST \/api\/v1\/user\/login: handler file src\/api\/v1\/user\.api\.v1\.ts is missing \(expected method postUserLogin\)/,
    );
    t.match(
      r.stderr,
      /GET \/api\/v1\/weather: handler file src\/api\/v1\/weather\.api\.v1\.ts is missing \(expected method getWeather\)/,
    );
    t.match(r.stderr, /handlers: 17 of 17 custom route\(s\) without a handler/);

    const allowed = cli("check.ts", path.dirname(RESTURA_FIXTURE), { ALLOW_MISSING_HANDLERS: "1" });
    t.equal(allowed.status, 0);
    t.match(allowed.stdout, /warning: handler: POST \/api\/v1\/user\/refresh-token: .*postUserRefreshToken/);
  },
);

t.test("check: a POST route left behind by a column rename is an error naming the route", async (t) => {
  const note = table("note", [id(), column("text", "TEXT")]);
  const schema = {
    ...schemaWith([note]),
    roles: ["member"],
    endpoints: [
      {
        name: "V1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          {
            name: "add note",
            description: "",
            method: "POST",
            path: "/note",
            type: "ONE",
            table: "note",
            roles: ["membr"],
            scopes: [],
            request: [{ name: "body", required: true, validator: [] }],
            joins: [],
            where: [],
            assignments: [],
            response: [{ name: "id", selector: "note.id" }],
          },
        ],
      },
    ],
  };
  const app = scratchApp(t, schema);
  const r = cli("check.ts", app.dir);
  t.equal(r.status, 1);
  const at = (p: string) => `api.schema.json: error: endpoints[0].routes[0]${p} (POST /api/v1/note): `;
  t.match(
    r.stderr,
    `${at(".request[0].name")}request parameter "body" is used by nothing: no column of table "note" has that name`,
  );
  t.match(r.stderr, `${at(".request")}column "text" of table "note" is NOT NULL without a default`);
  t.match(r.stderr, `${at(".roles[0]")}role "membr" is not declared in roles (did you mean "member"?)`);
  t.match(r.stderr, /3 error\(s\), 0 warning\(s\)/);
});

t.test("check passes the example app: every handler found", async (t) => {
  const r = cli("check.ts", path.join(REPO, "example"));
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /handlers: 6 custom route\(s\), all found/);
});

t.test("migrate against DATABASE_URL: writes, applies, then reports nothing to do", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id(), column("body", "TEXT")])]));
  const env = { DATABASE_URL: await testDatabase(t) };
  const first = cli("migrate.ts", app.dir, env);
  t.equal(first.status, 0, first.stderr);
  t.match(first.stdout, /wrote migrations\/0001_initial\.sql\napplied 0001_initial\.sql/);
  const second = cli("migrate.ts", app.dir, env);
  t.match(second.stdout, /schema unchanged: nothing to migrate/);

  app.write(schemaWith([table("note", [id()])]));
  const refused = cli("migrate.ts", app.dir, env);
  t.equal(refused.status, 1);
  t.match(refused.stderr, /dropping column "note"\."body"/);
  t.notMatch(refused.stderr, /\n\s+at /, "no stack trace for a refusal");
  t.equal(cli("migrate.ts", app.dir, { ...env, ALLOW_DATA_LOSS: "1" }).status, 0);
  t.equal(app.migrations().length, 2);
  t.match(app.migrations()[1], /^0002_.*\.sql$/);
});
