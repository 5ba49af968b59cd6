// make routes, make token and make psql as a user runs them.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jwt from "jsonwebtoken";
import t, { type Test } from "tap";
import { column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { testDatabase } from "../harness/db.ts";
import { REPO } from "../harness/templates.ts";
import { cli } from "./run.ts";

t.test("routes: every route of the example, sorted, with what serves it", async (t) => {
  const r = cli("routes.ts", ["--app", path.join(REPO, "example")]);
  t.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  t.match(lines[0], /^METHOD {2}PATH +TYPE +ROLES +SCOPES +TABLE \/ HANDLER$/);
  const rows = lines.slice(1, -1).map((line) => line.split(/\s{2,}/));
  const keys = rows.map((cells) => `${cells[1]} ${cells[0]}`);
  const order = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const sorted = [...rows].sort(
    (a, b) =>
      ((a[1] as string) < (b[1] as string) ? -1 : (a[1] as string) > (b[1] as string) ? 1 : 0) ||
      order.indexOf(a[0] as string) - order.indexOf(b[0] as string),
  );
  t.same(rows, sorted, "sorted by path, then method");
  t.equal(new Set(keys).size, keys.length);
  t.same(
    rows.find((c) => c[0] === "POST" && c[1] === "/api/v1/task"),
    ["POST", "/api/v1/task", "ONE", "admin,manager,member", "tasks:write", "task"],
  );
  t.same(
    rows.find((c) => c[0] === "POST" && c[1] === "/api/v1/user/login"),
    ["POST", "/api/v1/user/login", "CUSTOM_ONE", "(any)", "-", "src/api/v1/user.api.v1.ts postUserLogin"],
  );
  t.same(
    rows.find((c) => c[1] === "/api/v1/company/public/:id"),
    ["GET", "/api/v1/company/public/:id", "ONE", "(any)", "-", "company"],
  );
  const custom = rows.filter((c) => c[2]?.startsWith("CUSTOM")).length;
  t.equal(lines.at(-1), `${rows.length} route(s): ${rows.length - custom} standard, ${custom} custom`);
});

t.test("routes: APP from the environment; a schema with errors points at make check", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id(), column("body", "TEXT", { isNulable: true })])]));
  const r = cli("routes.ts", [], { APP: app.dir });
  t.equal(r.status, 1);
  t.match(r.stderr, /api\.schema\.json: the schema has 1 error\(s\); `make check APP=.*` lists them/);
});

t.test("token: signed with APP's development secret, from --app or APP", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id()])]));
  fs.mkdirSync(path.join(app.dir, ".data"));
  fs.writeFileSync(path.join(app.dir, ".data", "dev-jwt-secret"), "s".repeat(64));
  const claims = '{"role":"member","userId":3}';
  for (const r of [
    cli("token.ts", ["--app", app.dir], { CLAIMS: claims, JWT_SECRET: "" }),
    cli("token.ts", [], { APP: app.dir, CLAIMS: claims, JWT_SECRET: "" }),
  ]) {
    t.equal(r.status, 0, r.stderr);
    const decoded = jwt.verify(r.stdout.trim(), "s".repeat(64)) as Record<string, unknown>;
    t.equal(decoded.role, "member");
    t.equal(decoded.userId, 3);
  }
  const other = scratchApp(t, schemaWith([table("note", [id()])]));
  const missing = cli("token.ts", ["--app", other.dir], { JWT_SECRET: "" });
  t.equal(missing.status, 1);
  t.match(missing.stderr, /JWT_SECRET is not set and .*\.data\/dev-jwt-secret does not exist/);
  t.match(missing.stderr, /make run APP=/);
});

/** A stand-in psql that prints what it was given (to see that no password is on its command line). */
function fakePsql(t: Test) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-psql-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, "psql");
  fs.writeFileSync(file, '#!/bin/sh\necho "args: $*"\necho "PGPASSWORD: $PGPASSWORD"\nexit 3\n', {
    mode: 0o755,
  });
  return dir;
}

t.test("psql: the app's database; the password only in PGPASSWORD; psql's exit code", async (t) => {
  const url = new URL(await testDatabase(t));
  url.password = url.password || "pw";
  const app = scratchApp(t, schemaWith([table("note", [id()])]));
  const dir = fakePsql(t);
  const r = cli("psql.ts", ["--app", app.dir, "--", "-c", "select 1"], {
    DATABASE_URL: url.toString(),
    PATH: `${dir}${path.delimiter}${process.env.PATH}`,
  });
  t.equal(r.status, 3, "psql's exit code");
  const args = /^args: (.*)$/m.exec(r.stdout)?.[1] ?? "";
  t.notMatch(args, decodeURIComponent(url.password), "no password on the command line");
  t.match(args, `${url.hostname}:${url.port}${url.pathname} -c select 1`);
  t.match(r.stdout, `PGPASSWORD: ${decodeURIComponent(url.password)}\n`);
});

t.test("psql: the real one, when installed, reaches the app's database", { skip: !hasPsql() }, async (t) => {
  const url = await testDatabase(t);
  const app = scratchApp(t, schemaWith([table("note", [id()])]));
  const r = cli("psql.ts", ["--app", app.dir, "--", "-At", "-c", "select current_database()"], {
    DATABASE_URL: url,
  });
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout.trim(), new URL(url).pathname.slice(1));
});

t.test("psql: not installed: says how to install it, starts nothing", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id()])]));
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "no-psql-"));
  t.teardown(() => fs.rmSync(empty, { recursive: true, force: true }));
  const r = cli("psql.ts", ["--app", app.dir], { PATH: empty, DATABASE_URL: "" });
  t.equal(r.status, 1);
  t.match(r.stderr, /psql is not installed .*\n {2}sudo apt-get install postgresql-client/);
  t.notOk(fs.existsSync(path.join(app.dir, ".data")), "no embedded cluster was made");
});

function hasPsql(): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, "psql")));
}
