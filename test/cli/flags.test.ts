// Every entry point refuses unknown flags and arguments: exit 2, a clear message, nothing done
// (a typo such as `migrate --hepl` used to migrate).

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { cli } from "./run.ts";

const ENTRY_POINTS = ["check.ts", "migrate.ts", "run.ts", "token.ts", "routes.ts", "psql.ts"];

t.test("unknown flags and arguments exit 2 with a clear message, and do nothing", async (t) => {
  const app = scratchApp(t, schemaWith([table("note", [id(), column("body", "TEXT")])]));
  for (const script of ENTRY_POINTS) {
    const r = cli(script, ["--app", app.dir, "--hepl"]);
    t.equal(r.status, 2, `${script} --hepl`);
    t.match(
      r.stderr,
      /^unknown option "--hepl" \(this command takes --app DIR, .*--help\)\nRun with --help for usage\.\n$/,
    );
    t.equal(r.stdout, "");
  }
  const extra = cli("check.ts", ["--app", app.dir, "now"]);
  t.equal(extra.status, 2);
  t.match(extra.stderr, /unexpected argument "now"/);
  const psql = cli("psql.ts", ["--app", app.dir, "-c", "select 1"]);
  t.equal(psql.status, 2);
  t.match(psql.stderr, /unknown option "-c"/);
  const noDir = cli("migrate.ts", ["--app"]);
  t.equal(noDir.status, 2);
  t.match(noDir.stderr, /--app needs a directory/);
  t.equal(cli("run.ts", ["--app", app.dir, "--dve"]).status, 2);
  t.same(app.migrations(), [], "nothing was migrated");
  t.notOk(fs.existsSync(path.join(app.dir, ".data")));
});
