// `make run`'s seeding (cli/seed.ts): statements split as Postgres would, a failing statement
// named with its line and Postgres's message (and nothing kept), and identity sequences moved
// past the seeded ids so the API's first POST without an id succeeds.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import t, { type Test } from "tap";
import { readAppSchema } from "../../app/load.ts";
import { seedApp, splitStatements } from "../../cli/seed.ts";
import { testDatabase } from "../harness/db.ts";
import { testGatewayForApp } from "../harness/gateway.ts";
import { copyApp, REPO } from "../harness/templates.ts";

t.test("statements split on ; outside strings, quoted names, dollar quotes and comments", async (t) => {
  const text = [
    "-- a comment; not a statement",
    "INSERT INTO \"a;b\" VALUES ('x;y');",
    "",
    "DO $$ BEGIN PERFORM 1; END $$;",
    "/* block; */ SELECT 1",
  ].join("\n");
  t.same(splitStatements(text), [
    { text: "INSERT INTO \"a;b\" VALUES ('x;y');", line: 2 },
    { text: "DO $$ BEGIN PERFORM 1; END $$;", line: 4 },
    { text: "SELECT 1", line: 5 },
  ]);
  t.same(splitStatements("-- only a comment\n"), []);
});

/** A copy of the example app whose seed.sql does not move the sequences itself. */
function exampleWithoutSetval(t: Test): string {
  const dir = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const seed = path.join(dir, "seed.sql");
  const kept = fs
    .readFileSync(seed, "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("SELECT setval("));
  fs.writeFileSync(seed, kept.join("\n"));
  return dir;
}

t.test(
  "after seeding, the first POST without an id succeeds: sequences are past the seeded ids",
  async (t) => {
    const dir = exampleWithoutSetval(t);
    // The copy lives outside the repository, where its handlers cannot import their packages.
    const gw = await testGatewayForApp(t, dir, "", { allowMissingHandlers: true });
    const schema = readAppSchema(dir).schema;
    if (!schema) throw new Error("the example does not load");
    t.equal(await seedApp(gw.su, dir, schema), true);
    const member = { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 };
    const res = await gw.request({
      method: "POST",
      url: "/api/v1/task",
      as: member,
      payload: { projectId: 1, title: "First task after seeding", priority: "high" },
    });
    t.ok(res.statusCode === 200 || res.statusCode === 201, `POST answered ${res.statusCode}: ${res.body}`);
    const { rows } = await gw.su.query<{ max: string }>(`SELECT max(id)::text AS max FROM "public"."task"`);
    t.equal(JSON.parse(res.body).data.id, Number(rows[0]?.max), "the new task got the next free id");

    // Seeding again changes nothing and never moves a sequence backwards.
    const before = await gw.su.query(`SELECT last_value FROM "public"."task_id_seq"`).catch(() => undefined);
    t.equal(await seedApp(gw.su, dir, schema), true);
    const again = await gw.request({
      method: "POST",
      url: "/api/v1/task",
      as: member,
      payload: { projectId: 1, title: "Second", priority: "low" },
    });
    t.ok(again.statusCode === 200 || again.statusCode === 201, again.body);
    if (before) t.ok(JSON.parse(again.body).data.id > JSON.parse(res.body).data.id);
  },
);

t.test("a failing statement names seed.sql, its line and Postgres's message; nothing is kept", async (t) => {
  const dir = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(
    path.join(dir, "seed.sql"),
    [
      "-- a broken seed",
      `INSERT INTO "public"."company" ("id", "name", "slug", "plan", "isListed", "billingEmail")`,
      "  VALUES (77, 'Seeded', 'seeded', 'team', true, 'b@seeded.test');",
      "",
      `INSERT INTO "public"."company" ("id", "name")`,
      "  VALUES (78, NULL);",
    ].join("\n"),
  );
  const gw = await testGatewayForApp(t, dir, "", { allowMissingHandlers: true });
  const schema = readAppSchema(dir).schema;
  if (!schema) throw new Error("the example does not load");
  const error = await seedApp(gw.su, dir, schema).then(
    () => undefined,
    (e: Error) => e,
  );
  t.ok(error, "seeding fails");
  t.match(
    error?.message,
    /seed\.sql: the statement at line 5 failed: INSERT INTO "public"\."company" \("id", "name"\) \.\.\./,
  );
  t.match(
    error?.message,
    /postgres: null value in column "\w+" of relation "company" violates not-null constraint \(SQLSTATE 23502\)/,
  );
  t.match(error?.message, /must be idempotent/);
  const { rows } = await gw.su.query(`SELECT id FROM "public"."company" WHERE id IN (77, 78)`);
  t.same(rows, [], "the statements before the failing one were rolled back");
});

t.test("make run with a failing seed: one message, exit 1, no stack", async (t) => {
  const dir = copyApp(path.join(REPO, "example"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, "seed.sql"), "SELECT 1;\nSELECT * FROM no_such_table;\n");
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", dir, "--dev"], {
    cwd: REPO,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: await testDatabase(t), JWT_SECRET: "x".repeat(40), PORT: "0" },
    timeout: 120_000,
  });
  t.equal(r.status, 1, r.stderr);
  t.match(r.stderr, /seed\.sql: the statement at line 2 failed: SELECT \* FROM no_such_table;/);
  t.match(r.stderr, /postgres: relation "no_such_table" does not exist \(SQLSTATE 42P01\)/);
  t.notMatch(r.stderr, /\n\s+at /, "no stack trace");
});
