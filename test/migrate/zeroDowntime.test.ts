// `make migrate` while a gateway serves: the table migrations and the API-layer rebuild commit in
// one transaction, so requests wait on its locks and then run on the new layer (or, when it fails,
// on the old one). A steady load of reads and writes runs through every migrate here, and not one
// request may fail.

import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrate as libraryMigrate } from "postgres-migrations";
import t from "tap";
import { migrateApp } from "../../db/migrate.ts";
import { column, id, scratchApp, standardRoute, table } from "../harness/app.ts";
import { connect, serverUrl, testDatabase } from "../harness/db.ts";
import { type TestGateway, testGatewayForApp } from "../harness/gateway.ts";
import { during, type Sent, type Step, startLoad } from "./load.ts";

t.setTimeout(240_000);

const param = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  required: false,
  validator: [{ type: "TYPE_CHECK", value: type }],
  ...extra,
});
const extras = (k: number) => Array.from({ length: k }, (_, i) => `extra${i + 1}`);

/**
 * Table "item" with `k` extra columns (`extraN` defaults to N), each also answered by the item
 * routes: every k is a table migration and a changed API layer. `broken`: GET /items/:id gets a
 * where condition that Postgres rejects when the route function is created.
 */
function appSchema(k: number, { broken = false } = {}) {
  const byId = { tableName: "item", columnName: "id", operator: "=", value: "$id" };
  const route = (method: string, routePath: string, type: string, extra: Record<string, unknown>) =>
    standardRoute(method, routePath, "item", ["id", "title", ...extras(k)], { type, ...extra });
  const idParam = param("id", "number", { required: true });
  return {
    database: [
      table("item", [
        id(),
        column("title", "VARCHAR", { length: 100 }),
        ...extras(k).map((c, i) => column(c, "INTEGER", { default: String(i + 1) })),
      ]),
    ],
    endpoints: [
      {
        name: "V1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          route("GET", "/items", "ARRAY", {
            where: [{ tableName: "item", columnName: "id", operator: "<=", value: 20 }],
          }),
          route("GET", "/pages", "PAGED", {
            orderBy: { tableName: "item", columnName: "id", order: "ASC" },
          }),
          route("GET", "/items/:id", "ONE", {
            request: [idParam],
            where: [byId, ...(broken ? [{ conjunction: "AND", custom: "(((" }] : [])],
          }),
          route("POST", "/items", "ONE", { request: [param("title", "string", { required: true })] }),
          route("PATCH", "/items/:id", "ONE", {
            request: [idParam, param("title", "string")],
            where: [byId],
          }),
        ],
      },
    ],
    customTypes: [],
    globalParams: [],
    roles: [],
    scopes: [],
  };
}

const seed = `INSERT INTO "item" ("title") SELECT 'item ' || n FROM generate_series(1, 20) n`;

/** Reads and writes in turn: one item, the list, a filtered page, a new item, a renamed item. */
const step: Step = (gw, i) => {
  const n = (i % 20) + 1;
  switch (i % 5) {
    case 0:
      return { what: "GET one", run: () => gw.request({ method: "GET", url: `/api/v1/items/${n}` }) };
    case 1:
      return { what: "GET list", run: () => gw.request({ method: "GET", url: "/api/v1/items" }) };
    case 2:
      return {
        what: "GET page",
        run: () => gw.request({ method: "GET", url: `/api/v1/pages?perPage=5&filter=(id,gt,${n})` }),
      };
    case 3:
      return {
        what: "POST",
        run: () => gw.request({ method: "POST", url: "/api/v1/items", payload: { title: `new ${i}` } }),
      };
    default:
      return {
        what: "PATCH",
        run: () =>
          gw.request({ method: "PATCH", url: `/api/v1/items/${n}`, payload: { title: `renamed ${i}` } }),
      };
  }
};

const LOOPS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function item(gw: TestGateway, n: number): Promise<Record<string, unknown>> {
  const res = await gw.request({ method: "GET", url: `/api/v1/items/${n}` });
  if (res.statusCode !== 200) throw new Error(`GET /items/${n}: ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body).data;
}

function failures(sent: Sent[]) {
  return sent
    .filter((s) => s.status !== 200)
    .map((s) => ({ what: s.what, status: s.status, body: s.failure }));
}

/** The route functions' definitions, to show a failed migrate left them as they were. */
async function routeFunctions(su: pg.Client): Promise<string[]> {
  const { rows } = await su.query<{ def: string }>(
    `SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p
     WHERE p.pronamespace = 'api'::regnamespace ORDER BY p.oid::regprocedure::text`,
  );
  return rows.map((r) => r.def);
}

async function appliedIds(su: pg.Client): Promise<number[]> {
  const { rows } = await su.query<{ id: number }>("SELECT id FROM api_migrations.migrations ORDER BY id");
  return rows.map((r) => r.id);
}

t.test("migrates under a load of reads and writes: zero failed requests", async (t) => {
  const app = scratchApp(t, appSchema(0));
  const gw = await testGatewayForApp(t, app.dir, seed);
  const load = startLoad(gw, LOOPS, step);
  await sleep(300);

  const windows: [number, number][] = [];
  const MIGRATES = 4;
  for (let k = 1; k <= MIGRATES; k++) {
    app.write(appSchema(k));
    const start = performance.now();
    const result = await migrateApp({ appDir: app.dir, url: dbUrl(gw) });
    windows.push([start, performance.now()]);
    t.match(result.written, new RegExp(`^000${k + 1}_`), `migrate ${k} wrote a migration`);
    t.same(result.applied, [result.written], `and applied it`);
    // The running gateway answers with the new layer: the route function now returns the column.
    t.equal((await item(gw, 20))[`extra${k}`], k, `GET /items/:id answers extra${k} after migrate ${k}`);
    await sleep(200);
  }
  const sent = await load.stop();

  const overlapping = new Set(windows.flatMap(([from, to]) => during(sent, from, to)));
  const slowest = Math.max(...[...overlapping].map((s) => s.end - s.start));
  const took = windows.map(([from, to]) => Math.round(to - from));
  t.comment(
    `${sent.length} requests from ${LOOPS} loops, ${overlapping.size} of them in flight during the ${MIGRATES} migrates (${took.join(", ")} ms), slowest of those ${Math.round(slowest)} ms; failed: ${failures(sent).length}`,
  );
  t.ok(overlapping.size >= MIGRATES * LOOPS, "requests ran during every migrate");
  for (const what of ["GET one", "GET list", "GET page", "POST", "PATCH"]) {
    t.ok(
      [...overlapping].some((s) => s.what === what),
      `${what} requests were among them`,
    );
  }
  t.same(failures(sent), [], "no request failed");
  const { rows } = await gw.su.query(`SELECT count(*)::int AS n FROM "item" WHERE "title" LIKE 'new %'`);
  t.equal(rows[0].n, sent.filter((s) => s.what === "POST").length, "every POST made its row");
});

t.test("a migrate whose API layer Postgres rejects rolls back whole; the old layer serves", async (t) => {
  const app = scratchApp(t, appSchema(1));
  const gw = await testGatewayForApp(t, app.dir, seed);
  const filesBefore = app.migrations();
  const snapshotBefore = app.read("migrations/schema.snapshot.json");
  const functionsBefore = await routeFunctions(gw.su);
  const idsBefore = await appliedIds(gw.su);
  const load = startLoad(gw, LOOPS, step);
  await sleep(200);

  // A new column (a table migration) and a route function that does not compile.
  app.write(appSchema(2, { broken: true }));
  const start = performance.now();
  await t.rejects(migrateApp({ appDir: app.dir, url: dbUrl(gw) }), {
    message: /the API layer could not be built, so nothing was applied .*previous layer still serves: \S/s,
  });
  const end = performance.now();
  await sleep(200);
  const sent = await load.stop();

  t.same(failures(sent), [], "no request failed");
  t.ok(during(sent, start, end).length > 0, "requests ran during the failed migrate");
  t.same(app.migrations(), filesBefore, "the new migration file was removed");
  t.equal(app.read("migrations/schema.snapshot.json"), snapshotBefore, "and the snapshot restored");
  t.same(await appliedIds(gw.su), idsBefore, "no migration recorded");
  const { rows } = await gw.su.query(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = 'item' ORDER BY ordinal_position`,
  );
  t.same(
    rows.map((r) => r.column_name),
    ["id", "title", "extra1"],
    "the table migration rolled back with the layer",
  );
  t.same(await routeFunctions(gw.su), functionsBefore, "the route functions are the old ones");
  t.same(await item(gw, 3), { id: 3, title: (await item(gw, 3)).title, extra1: 1 }, "and answer");

  // Fixed, the same change applies.
  app.write(appSchema(2));
  const fixed = await migrateApp({ appDir: app.dir, url: dbUrl(gw) });
  t.match(fixed.written, /^0002_/);
  t.equal((await item(gw, 3)).extra2, 2);
});

t.test(
  "a lock held too long: migrate gives up after its attempts, changes nothing, requests go on",
  async (t) => {
    const app = scratchApp(t, appSchema(1));
    const gw = await testGatewayForApp(t, app.dir, seed);
    const idsBefore = await appliedIds(gw.su);
    // A long transaction that has read the table (a report in psql, say).
    const holder = await connect(t, dbUrl(gw));
    await holder.query("BEGIN");
    await holder.query(`SELECT count(*) FROM "item"`);
    const load = startLoad(gw, LOOPS, step);
    await sleep(200);

    app.write(appSchema(2));
    const lines: string[] = [];
    const start = performance.now();
    await t.rejects(
      migrateApp({
        appDir: app.dir,
        url: dbUrl(gw),
        lockTimeoutMs: 100,
        lockAttempts: 3,
        log: (l) => lines.push(l),
      }),
      {
        message:
          /could not lock the tables and schema api: 3 attempts each waited 100 ms.*Nothing was applied/s,
      },
    );
    const took = performance.now() - start;
    t.equal(lines.filter((l) => /waited 100 ms for a lock/.test(l)).length, 2, "it tried three times");
    t.ok(took < 3000, `and gave up after ${Math.round(took)} ms`);
    const sent = await load.stop();
    t.same(failures(sent), [], "no request failed");
    const waited = during(sent, start, start + took);
    t.comment(
      `${waited.length} requests during the failed attempts, slowest ${Math.round(Math.max(...waited.map((s) => s.end - s.start)))} ms`,
    );
    t.same(await appliedIds(gw.su), idsBefore, "nothing applied");
    t.same(app.migrations().length, 1, "the new file was removed");
    t.notOk("extra2" in (await item(gw, 1)), "the old layer serves");

    await holder.query("COMMIT");
    const result = await migrateApp({ appDir: app.dir, url: dbUrl(gw) });
    t.match(result.written, /^0002_/, "once the transaction ended, migrate goes through");
    t.equal((await item(gw, 1)).extra2, 2);
  },
);

t.test("two migrates of one database at once take turns", async (t) => {
  // Two checked-in files, generated against another database.
  const app = scratchApp(t, appSchema(1));
  const first = await testDatabase(t);
  await migrateApp({ appDir: app.dir, url: first });
  app.write(appSchema(2));
  await migrateApp({ appDir: app.dir, url: first });
  // Two instances starting on a new database at once: both find the files pending.
  const url = await testDatabase(t);
  const results = await Promise.all([
    migrateApp({ appDir: app.dir, url }),
    migrateApp({ appDir: app.dir, url }),
  ]);
  t.same(
    results.map((r) => r.applied).sort((a, b) => b.length - a.length),
    [app.migrations(), []],
    "one applied both files, the other found them applied",
  );
  t.same(
    results.map((r) => r.written),
    [undefined, undefined],
  );
  t.same(await appliedIds(await connect(t, url)), [0, 1, 2]);
});

t.test("the bookkeeping is postgres-migrations' own: its migrate() agrees, both ways", async (t) => {
  const app = scratchApp(t, appSchema(1));
  const url = await testDatabase(t);
  await migrateApp({ appDir: app.dir, url });
  const dir = path.join(app.dir, "migrations");
  const library = async (dbUrl: string) => {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      await client.query("CREATE SCHEMA IF NOT EXISTS api_migrations");
      await client.query("SET search_path TO api_migrations, public");
      return await libraryMigrate({ client }, dir);
    } finally {
      await client.end();
    }
  };
  t.same(await library(url), [], "the library finds every file applied, with the same hashes");

  // A database the library migrated (as make migrate did before): ours picks up after it.
  app.write(appSchema(2));
  const other = await testDatabase(t);
  await migrateApp({ appDir: app.dir, url }); // writes 0002 (and applies it to the first database)
  t.same(
    (await library(other)).map((m) => m.fileName),
    ["0_create-migrations-table.sql", ...app.migrations()],
  );
  const result = await migrateApp({ appDir: app.dir, url: other });
  t.same([result.written, result.applied], [undefined, []], "nothing left to apply");
  // A file edited after it ran is refused, as the library would.
  const first = path.join(dir, app.migrations()[0] as string);
  fs.appendFileSync(first, "\n-- edited\n");
  await t.rejects(migrateApp({ appDir: app.dir, url: other }), {
    message: /were changed since they ran: 0001_/,
  });
});

/** The gateway's database, as the superuser the tests run migrations with. */
function dbUrl(gw: TestGateway): string {
  const url = new URL(serverUrl());
  url.pathname = `/${(gw.su as pg.Client).database}`;
  return url.toString();
}
