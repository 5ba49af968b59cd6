// Schema changes applied to a database that holds rows: data survives, destructive changes are
// refused until confirmed, and a run that fails leaves no file and no change behind.

import t, { type Test } from "tap";
import { AppError } from "../../app/errors.ts";
import { migrateApp } from "../../db/migrate.ts";
import { type ColumnJson, column, id, schemaWith, scratchApp, table } from "../harness/app.ts";
import { connect, testDatabase } from "../harness/db.ts";

const customer = () =>
  table("customer", [
    id(),
    column("name", "VARCHAR", { length: 30 }),
    column("notes", "TEXT", { isNullable: true }),
    column("tier", "ENUM", { value: "'free','pro'", default: "'free'" }),
  ]);
const columnOf = (t: ReturnType<typeof customer>, name: string) =>
  t.columns.find((c) => c.name === name) as ColumnJson;

async function setUp(t: Test) {
  const url = await testDatabase(t);
  const app = scratchApp(t, schemaWith([customer()]));
  await migrateApp({ appDir: app.dir, url });
  const db = await connect(t, url);
  await db.query(`INSERT INTO "customer" ("name", "notes") VALUES ('Ada', 'first'), ('Grace', NULL)`);
  const rows = async (sql = `SELECT * FROM "customer" ORDER BY "id"`) => (await db.query(sql)).rows;
  const migrate = (database: unknown[], allowDataLoss = false) => {
    app.write(schemaWith(database));
    return migrateApp({ appDir: app.dir, url, allowDataLoss });
  };
  return { url, app, db, rows, migrate };
}

t.test("adding columns keeps the rows; a default fills existing rows", async (t) => {
  const { app, rows, migrate } = await setUp(t);
  const changed = customer();
  changed.columns.push(column("phone", "VARCHAR", { length: 20, isNullable: true }));
  changed.columns.push(column("active", "BOOLEAN", { default: "true" }));
  const result = await migrate([changed]);
  t.match(result.written, /^0002_.*\.sql$/);
  t.same(app.migrations().length, 2);
  t.same(await rows(`SELECT "name", "phone", "active" FROM "customer" ORDER BY "id"`), [
    { name: "Ada", phone: null, active: true },
    { name: "Grace", phone: null, active: true },
  ]);
  const again = await migrate([changed]);
  t.same([again.written, again.applied], [undefined, []], "re-running with no change does nothing");
});

t.test(
  "a NOT NULL column without a default on a table with rows fails before anything is applied",
  async (t) => {
    const { app, rows, migrate } = await setUp(t);
    const changed = customer();
    changed.columns.push(column("email", "VARCHAR", { length: 100 }));
    const before = await rows();
    await t.rejects(migrate([changed]), {
      constructor: AppError,
      message: /cannot add NOT NULL column "customer"\."email" without a default: the table has rows/,
    });
    t.same(app.migrations(), ["0001_initial.sql"], "no migration file was written");
    t.same(await rows(), before);
  },
);

t.test("renamedFrom renames a column and a table, keeping the data", async (t) => {
  const { rows, migrate, db } = await setUp(t);
  const renamed = { ...customer(), name: "client", renamedFrom: "customer" };
  const name = columnOf(renamed, "name");
  name.name = "fullName";
  name.renamedFrom = "name";
  const result = await migrate([renamed]);
  t.ok(result.written);
  t.same((await db.query(`SELECT "fullName" FROM "client" ORDER BY "id"`)).rows, [
    { fullName: "Ada" },
    { fullName: "Grace" },
  ]);
  await t.rejects(rows(), { code: "42P01" }, "the old table name is gone");
  const again = await migrate([renamed]);
  t.equal(again.written, undefined, "a renamedFrom that was applied does nothing more");
});

t.test("widening a type applies; narrowing is refused until confirmed", async (t) => {
  const { app, rows, migrate, db } = await setUp(t);
  const widened = customer();
  columnOf(widened, "name").length = 100;
  t.ok((await migrate([widened])).written, "varchar(30) -> varchar(100) applies");
  await db.query(`UPDATE "customer" SET "name" = repeat('x', 80) WHERE "id" = 1`);

  columnOf(widened, "name").length = 10;
  await t.rejects(migrate([widened]), { constructor: AppError, message: /ALLOW_DATA_LOSS=1/ });
  t.equal(app.migrations().length, 2, "nothing written for a refused change");
  t.equal((await rows())[0].name.length, 80);
});

t.test("dropping a column is refused, then applied when confirmed", async (t) => {
  const { app, rows, migrate } = await setUp(t);
  const dropped = customer();
  dropped.columns = dropped.columns.filter((c) => c.name !== "notes");
  await t.rejects(migrate([dropped]), {
    constructor: AppError,
    message: /dropping column "customer"\."notes".*ALLOW_DATA_LOSS=1/s,
  });
  t.same(app.migrations(), ["0001_initial.sql"]);
  t.ok((await rows())[0].notes === "first", "the column is still there");

  const result = await migrate([dropped], true);
  t.ok(result.written);
  t.notOk("notes" in (await rows())[0]);
  t.same(
    (await rows()).map((r) => r.name),
    ["Ada", "Grace"],
  );
});

t.test("dropping a table is refused until confirmed", async (t) => {
  const { app, migrate, db } = await setUp(t);
  await t.rejects(migrate([]), {
    constructor: AppError,
    message: /dropping table "customer".*ALLOW_DATA_LOSS=1/s,
  });
  t.equal(app.migrations().length, 1);
  t.equal((await db.query(`SELECT count(*)::int AS n FROM "customer"`)).rows[0].n, 2);
});

t.test(
  "a migration that Postgres rejects leaves no file, no snapshot change, no partial change",
  async (t) => {
    const { app, migrate, db, rows } = await setUp(t);
    await db.query(`UPDATE "customer" SET "name" = 'Same'`);
    const before = app.read("migrations/schema.snapshot.json");
    const unique = customer();
    unique.columns.push(column("code", "INTEGER", { isNullable: true }));
    columnOf(unique, "name").isUnique = true;
    await t.rejects(migrate([unique]), {
      constructor: AppError,
      message: /migration failed, nothing from it was applied/,
    });
    t.same(app.migrations(), ["0001_initial.sql"]);
    t.equal(app.read("migrations/schema.snapshot.json"), before);
    t.notOk("code" in (await rows())[0], "the column added before the failing statement was rolled back");
  },
);
