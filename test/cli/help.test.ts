// `make help` lists every target; every entry point answers --help (exit 0, nothing done) and
// refuses unknown flags and arguments (exit 2, nothing done).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { REPO } from "../harness/templates.ts";
import { cli, make } from "./run.ts";

const ENTRY_POINTS = ["check.ts", "migrate.ts", "run.ts", "token.ts", "routes.ts", "psql.ts"];

t.test("make help: one line for every target of the Makefile", async (t) => {
  const makefile = fs.readFileSync(path.join(REPO, "Makefile"), "utf8");
  const phony = (/^\.PHONY:(.*)$/m.exec(makefile)?.[1] ?? "").trim().split(/\s+/);
  const r = make(["help"]);
  t.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  const listed = new Map(lines.map((line) => [line.trim().split(/\s+/)[0], line]));
  for (const target of phony) {
    t.ok(listed.has(target), `${target} is listed`);
    t.match(listed.get(target) ?? "", /^ {2}\S+\s+\S.*$/, `${target} has a description`);
  }
  t.equal(lines.length, phony.length, "one line per target, nothing else");
  t.equal(listed.get("routes")?.includes("list APP's routes"), true);
});

t.test("every entry point answers --help with its usage and exits 0 without doing anything", async (t) => {
  const missing = path.join(os.tmpdir(), `no-such-app-${process.pid}`);
  const usage = new Map<string, string>();
  for (const script of ENTRY_POINTS) {
    // A DATABASE_URL that cannot connect: any attempt to reach Postgres would fail the command.
    const r = cli(script, ["--app", missing, "--help"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    });
    t.equal(r.status, 0, `${script} --help: ${r.stderr}`);
    t.match(r.stdout, /^Usage: make \w+/, `${script} --help prints its usage`);
    t.match(r.stdout, /\nOptions:\n {2}--app DIR .*\n/);
    t.match(r.stdout, /\nEnvironment:\n {2}APP /);
    t.equal(r.stderr, "");
    usage.set(script, r.stdout);
  }
  t.notOk(fs.existsSync(missing), "no app directory was created");
  t.equal(cli("token.ts", ["-h"]).stdout, usage.get("token.ts"), "-h is --help");
  t.match(usage.get("migrate.ts"), /--allow-data-loss .*\n[\s\S]*DATABASE_URL /);
  t.match(usage.get("run.ts"), /seed\.sql on every start/);
  t.match(usage.get("token.ts"), /CLAIMS /);
  t.match(usage.get("psql.ts"), /\[-- psql arguments\]/);
});

t.test("migrate --help in an app with a changed schema writes and applies nothing", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id(), column("body", "TEXT")])]));
  const r = cli("migrate.ts", ["--app", app.dir, "--help"]);
  t.equal(r.status, 0);
  t.same(app.migrations(), []);
  t.notOk(fs.existsSync(path.join(app.dir, ".data")), "no embedded cluster was made");
});
