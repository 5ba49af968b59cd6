import t from "tap";
import type { Table } from "../../generator/schema/types.ts";
import { createDatabaseStatements, planMigration } from "../../generator/tables/index.ts";
import { col, id, table } from "./helpers.ts";

const keep = { allowDataLoss: false };
const confirm = { allowDataLoss: true };

const user = (...extra: Parameters<typeof col>[]) =>
  table("user", [
    id(),
    col("email", "VARCHAR", { length: 100, isUnique: true }),
    col("name", "VARCHAR", { length: 30 }),
    col("phone", "VARCHAR", { length: 30, isNullable: true }),
    col("role", "ENUM", { value: "'admin','user'", default: "'user'" }),
    ...extra.map((args) => col(...args)),
  ]);

function withColumn(t: Table, name: string, change: Record<string, unknown> | null): Table {
  const columns = t.columns.flatMap((c) =>
    c.name !== name ? [c] : change === null ? [] : [{ ...c, ...change }],
  );
  return { ...t, columns };
}

t.test("a fresh database is the whole DDL", async (t) => {
  const tables = [user()];
  const plan = planMigration(null, tables, { ...keep, extensionsAfter: ["pgcrypto"] });
  t.same(plan.statements, createDatabaseStatements(tables, ["pgcrypto"]));
  t.equal(plan.title, "initial");
  t.same(plan.changes, ['create table "user"']);
  t.ok(plan.statements.every((s) => s.endsWith(";")));
});

t.test("no change is an empty plan", async (t) => {
  const plan = planMigration([user()], [user()], keep);
  t.same(plan, { statements: [], refusals: [], preconditions: [], changes: [], title: "" });
  const apiOnly = { ...user(), roles: ["admin"], scopes: ["s"], notify: "ALL" as const };
  t.same(
    planMigration([user()], [apiOnly], keep).statements,
    [],
    "roles, scopes and notify are the API layer's",
  );
});

t.test("refusal messages", async (t) => {
  const dropColumn = planMigration([user()], [withColumn(user(), "phone", null)], {
    ...keep,
    app: "example",
  });
  t.same(dropColumn.refusals, [
    {
      path: "database[0].columns",
      message:
        'dropping column "user"."phone" loses its data: re-run with ALLOW_DATA_LOSS=1 (make migrate APP=example ALLOW_DATA_LOSS=1) to confirm, or add renamedFrom if it was renamed',
    },
  ]);
  t.same(dropColumn.statements, [], "a refused plan has nothing to apply");
  t.same(dropColumn.preconditions, []);

  const dropTable = planMigration([user(), table("audit", [id()])], [user()], keep);
  t.same(dropTable.refusals, [
    {
      path: "database",
      message:
        'dropping table "audit" loses its data: re-run with ALLOW_DATA_LOSS=1 (make migrate APP=<app> ALLOW_DATA_LOSS=1) to confirm, or add renamedFrom if it was renamed',
    },
  ]);

  const narrow = planMigration([user()], [withColumn(user(), "name", { length: 10 })], keep);
  t.same(narrow.refusals, [
    {
      path: "database[0].columns[2]",
      message:
        'narrowing column "user"."name" from varchar(30) to varchar(10) may cut, round or reject values: re-run with ALLOW_DATA_LOSS=1 (make migrate APP=<app> ALLOW_DATA_LOSS=1) to confirm',
    },
  ]);

  const incompatible = planMigration([user()], [withColumn(user(), "phone", { type: "BIGINT" })], keep);
  t.same(incompatible.refusals, [
    {
      path: "database[0].columns[3]",
      message:
        'changing column "user"."phone" from varchar(30) to bigint may fail or change its values (there is no safe conversion): re-run with ALLOW_DATA_LOSS=1 (make migrate APP=<app> ALLOW_DATA_LOSS=1) to confirm, or add a new column and copy the data yourself',
    },
  ]);

  const removeValues = planMigration([user()], [withColumn(user(), "role", { value: "'guest'" })], keep);
  t.same(removeValues.refusals, [
    {
      path: "database[0].columns[4]",
      message:
        "removing values 'admin', 'user' from ENUM column \"user\".\"role\" rejects rows that hold them: re-run with ALLOW_DATA_LOSS=1 (make migrate APP=<app> ALLOW_DATA_LOSS=1) to confirm",
    },
  ]);

  const toEnum = planMigration([user()], [withColumn(user(), "name", { type: "ENUM", value: "'x'" })], keep);
  t.same(toEnum.refusals, [
    {
      path: "database[0].columns[2]",
      message:
        'making column "user"."name" an ENUM of \'x\' rejects rows that hold other values: re-run with ALLOW_DATA_LOSS=1 (make migrate APP=<app> ALLOW_DATA_LOSS=1) to confirm',
    },
  ]);

  t.same(
    planMigration([user(), table("audit", [id()])], [withColumn(user(), "phone", null)], confirm).refusals,
    [],
  );
});

t.test("preconditions name the table and column as they are before the migration", async (t) => {
  const renamed = withColumn(user(), "phone", { name: "mobile", renamedFrom: "phone", isNullable: false });
  const plan = planMigration([user()], [{ ...renamed, name: "member", renamedFrom: "user" }], keep);
  t.same(plan.preconditions, [
    {
      path: "database[0].columns[3]",
      sql: 'SELECT EXISTS (SELECT 1 FROM "public"."user" WHERE "phone" IS NULL) AS failed',
      message:
        'cannot make column "member"."mobile" NOT NULL: some rows hold NULL. Fill them in first (UPDATE ... WHERE "mobile" IS NULL), or give it a default and fill it in two steps',
    },
  ]);
  t.same(plan.statements.slice(0, 2), [
    'ALTER TABLE "public"."user" RENAME TO "member";',
    'ALTER TABLE "public"."member" RENAME COLUMN "phone" TO "mobile";',
  ]);

  const added = planMigration([user()], [user(["country", "CHAR", { length: 2 }])], keep);
  t.same(added.preconditions, [
    {
      path: "database[0].columns[5]",
      sql: 'SELECT EXISTS (SELECT 1 FROM "public"."user") AS failed',
      message:
        'cannot add NOT NULL column "user"."country" without a default: the table has rows. Give it a default, make it nullable, or fill it in two steps',
    },
  ]);
  const withDefault = planMigration(
    [user()],
    [user(["country", "CHAR", { length: 2, default: "'US'" }])],
    keep,
  );
  t.same(withDefault.preconditions, [], "a default fills the existing rows");
  const identity = planMigration([user()], [user(["seq", "INTEGER", { hasAutoIncrement: true }])], keep);
  t.same(identity.preconditions, [], "an identity fills the existing rows");
});

t.test("renamedFrom", async (t) => {
  const member = { ...user(), name: "member", renamedFrom: "user" };
  t.same(planMigration([member], [member], keep).statements, [], "already applied: ignored");
  t.match(
    planMigration(null, [member], keep).statements[0],
    /^CREATE TABLE "public"."member"/,
    "nothing to rename from: created",
  );
  t.match(
    planMigration([table("other", [id()])], [table("other", [id()]), member], keep).statements[0],
    /^CREATE TABLE "public"."member"/,
    "old name absent: created",
  );

  // The old name is taken over by a new table: rename first, then create.
  const plan = planMigration([user()], [member, table("user", [id()])], keep);
  t.same(plan.refusals, []);
  t.match(plan.statements[0], /^ALTER TABLE "public"."user" RENAME TO "member";$/);
  t.ok(plan.statements.some((s) => s.startsWith('CREATE TABLE "public"."user"')));
  t.ok(
    plan.statements.findIndex((s) => s.startsWith('CREATE TABLE "public"."user"')) > 0,
    "the new table comes after the rename",
  );

  const column = withColumn(user(), "name", { name: "fullName", renamedFrom: "name", length: 60 });
  t.same(planMigration([user()], [column], keep).statements, [
    'ALTER TABLE "public"."user" RENAME COLUMN "name" TO "fullName";',
    'ALTER TABLE "public"."user" ALTER COLUMN "fullName" TYPE varchar(60) USING "fullName"::varchar(60);',
  ]);
});

t.test(
  "a default and a type change together: drop the default, change the type, set the default",
  async (t) => {
    const before = table("t", [id(), col("n", "INTEGER", { default: "1" })]);
    const after = table("t", [id(), col("n", "BIGINT", { default: "2" })]);
    t.same(planMigration([before], [after], keep).statements, [
      'ALTER TABLE "public"."t" ALTER COLUMN "n" DROP DEFAULT;',
      'ALTER TABLE "public"."t" ALTER COLUMN "n" TYPE bigint USING "n"::bigint;',
      'ALTER TABLE "public"."t" ALTER COLUMN "n" SET DEFAULT 2;',
    ]);
    const sameDefault = table("t", [id(), col("n", "BIGINT", { default: "1" })]);
    t.same(planMigration([before], [sameDefault], keep).statements, [
      'ALTER TABLE "public"."t" ALTER COLUMN "n" TYPE bigint USING "n"::bigint;',
    ]);
  },
);

t.test("identity changes", async (t) => {
  const before = table("t", [col("id", "BIGINT", { isPrimary: true, default: "0" })]);
  const after = table("t", [col("id", "BIGINT", { isPrimary: true, hasAutoIncrement: true })]);
  t.same(planMigration([before], [after], keep).statements, [
    'ALTER TABLE "public"."t" ALTER COLUMN "id" DROP DEFAULT;',
    'ALTER TABLE "public"."t" ALTER COLUMN "id" ADD GENERATED BY DEFAULT AS IDENTITY;',
    `SELECT setval(pg_get_serial_sequence('"public"."t"', 'id'), coalesce(max("id"), 0) + 1, false) FROM "public"."t";`,
  ]);
  t.same(planMigration([after], [before], keep).statements, [
    'ALTER TABLE "public"."t" ALTER COLUMN "id" DROP IDENTITY;',
    'ALTER TABLE "public"."t" ALTER COLUMN "id" SET DEFAULT 0;',
  ]);
});

t.test("a dropped unique index or key rebuilds the foreign keys that reference its table", async (t) => {
  const ref = (unique: boolean) =>
    table("code", [id(), col("value", "VARCHAR", { length: 10 })], {
      indexes: [
        { name: "code_value_index", columns: [{ column: "value" }], isUnique: true, isPrimaryKey: false },
      ],
      comment: unique ? undefined : "changed",
    });
  const owner = table("item", [id(), col("code", "VARCHAR", { length: 10 })], {
    foreignKeys: [
      {
        name: "item_code_fk",
        columns: ["code"],
        refTable: "code",
        refColumns: ["value"],
        onDelete: "NO ACTION",
        onUpdate: "NO ACTION",
      },
    ],
  });
  const changed = ref(true);
  changed.indexes = [{ ...(changed.indexes[0] as (typeof changed.indexes)[0]), where: "\"value\" <> ''" }];
  changed.indexes = [
    {
      ...(changed.indexes[0] as (typeof changed.indexes)[0]),
      where: undefined,
      using: "btree",
      order: "DESC",
    },
  ];
  const plan = planMigration([ref(true), owner], [changed, owner], keep);
  t.same(plan.statements, [
    'ALTER TABLE "public"."item" DROP CONSTRAINT "item_code_fk";',
    'DROP INDEX "public"."code_value_index";',
    'CREATE UNIQUE INDEX "code_value_index" ON "public"."code" ("value" DESC);',
    'ALTER TABLE "public"."item" ADD CONSTRAINT "item_code_fk" FOREIGN KEY ("code") REFERENCES "public"."code" ("value") ON DELETE NO ACTION ON UPDATE NO ACTION;',
  ]);
  t.same(
    planMigration([ref(true), owner], [ref(false), owner], keep).statements,
    [`COMMENT ON TABLE "public"."code" IS 'changed';`],
    "other changes to the referenced table leave the foreign key alone",
  );
});

t.test("statements come in a valid order", async (t) => {
  const previous = [
    table("a", [id(), col("label", "VARCHAR", { length: 10, isUnique: true })]),
    table("b", [id(), col("aId", "BIGINT")], {
      foreignKeys: [
        {
          name: "b_a_fk",
          columns: ["aId"],
          refTable: "a",
          refColumns: ["id"],
          onDelete: "CASCADE",
          onUpdate: "NO ACTION",
        },
      ],
    }),
    table("c", [id(), col("x", "TEXT", { isNullable: true }), col("y", "VARCHAR", { length: 5 })], {
      indexes: [{ name: "c_old_index", columns: [{ column: "y" }], isUnique: false, isPrimaryKey: false }],
      checkConstraints: [{ name: "c_old_check", check: 'length("y") > 0' }],
      foreignKeys: [
        {
          name: "c_a_fk",
          columns: ["id"],
          refTable: "a",
          refColumns: ["id"],
          onDelete: "NO ACTION",
          onUpdate: "NO ACTION",
        },
      ],
    }),
  ];
  const next = [
    table("d", [id(), col("cId", "BIGINT")], {
      foreignKeys: [
        {
          name: "d_c_fk",
          columns: ["cId"],
          refTable: "c",
          refColumns: ["id"],
          onDelete: "NO ACTION",
          onUpdate: "NO ACTION",
        },
      ],
      indexes: [{ name: "d_cId_index", columns: [{ column: "cId" }], isUnique: false, isPrimaryKey: false }],
    }),
    table(
      "c",
      [
        id({ comment: "key" }),
        col("y", "VARCHAR", { length: 50 }),
        col("z", "BOOLEAN", { default: "false" }),
      ],
      {
        indexes: [{ name: "c_new_index", columns: [{ column: "z" }], isUnique: false, isPrimaryKey: false }],
        checkConstraints: [{ name: "c_new_check", check: 'length("y") > 1' }],
        foreignKeys: [
          {
            name: "c_a_fk",
            columns: ["id"],
            refTable: "a2",
            refColumns: ["id"],
            onDelete: "CASCADE",
            onUpdate: "NO ACTION",
          },
        ],
      },
    ),
    table("a2", [id(), col("label", "VARCHAR", { length: 10, isUnique: true })], { renamedFrom: "a" }),
  ];
  const plan = planMigration(previous, next, {
    ...confirm,
    extensionsBefore: [],
    extensionsAfter: ["citext"],
  });
  t.same(plan.refusals, []);
  const phases: [RegExp, string][] = [
    [/^CREATE EXTENSION/, "extensions"],
    [/RENAME (TO|COLUMN|CONSTRAINT)/, "renames"],
    [/DROP CONSTRAINT "\w+_fk"/, "drop foreign keys"],
    [/DROP CONSTRAINT|^DROP INDEX/, "drop constraints and indexes"],
    [/^DROP TABLE/, "drop tables"],
    [/DROP COLUMN/, "drop columns"],
    [/^CREATE TABLE|^CREATE INDEX "d_/, "create tables"],
    [/ADD COLUMN|ALTER COLUMN/, "change columns"],
    [/ADD CONSTRAINT "\w+_check"|^CREATE INDEX/, "add constraints and indexes"],
    [/ADD CONSTRAINT "\w+_fk"/, "add foreign keys"],
    [/^COMMENT/, "comments"],
  ];
  const order = plan.statements.map((s) => {
    const phase = phases.findIndex(([re]) => re.test(s));
    t.not(phase, -1, `statement has a phase: ${s}`);
    return phase;
  });
  t.same(
    order,
    [...order].sort((x, y) => x - y),
    "phases never go backwards",
  );
  t.same(new Set(order).size, phases.length, "every phase is exercised");
  t.same(plan.statements.slice(0, 4), [
    'CREATE EXTENSION IF NOT EXISTS "citext" WITH SCHEMA "public" CASCADE;',
    'ALTER TABLE "public"."a" RENAME TO "a2";',
    'ALTER TABLE "public"."a2" RENAME CONSTRAINT "a_pkey" TO "a2_pkey";',
    'ALTER TABLE "public"."a2" RENAME CONSTRAINT "a_label_key" TO "a2_label_key";',
  ]);
  t.same(plan.changes, [
    'create extension "citext"',
    'rename table "a" to "a2"',
    'drop table "b"',
    'drop column "c"."x"',
    'alter column "c"."y"',
    'add column "c"."z"',
    'drop constraint "c"."c_old_check"',
    'add constraint "c"."c_new_check"',
    'comment on column "c"."id"',
    'drop index "c_old_index"',
    'create index "c_new_index"',
    'create table "d"',
    'change foreign key "c"."c_a_fk"',
  ]);
  t.equal(plan.title, 'create extension "citext" and 12 more');
});

t.test("extensions: only new ones are created, none is dropped", async (t) => {
  const plan = (before: string[] | undefined, after: string[] | undefined) =>
    planMigration([user()], [user()], { ...keep, extensionsBefore: before, extensionsAfter: after })
      .statements;
  t.same(plan(["pgcrypto"], ["pgcrypto"]), []);
  t.same(plan(["pgcrypto", "citext"], ["pgcrypto"]), []);
  t.same(plan(undefined, ["citext", "citext"]), [
    'CREATE EXTENSION IF NOT EXISTS "citext" WITH SCHEMA "public" CASCADE;',
  ]);
});

t.test("reordering tables, columns, indexes and foreign keys changes nothing", async (t) => {
  const a = table("a", [id(), col("p", "TEXT"), col("q", "TEXT")], {
    indexes: [
      { name: "a_p", columns: [{ column: "p" }], isUnique: false, isPrimaryKey: false },
      { name: "a_q", columns: [{ column: "q" }], isUnique: false, isPrimaryKey: false },
    ],
    checkConstraints: [
      { name: "a_c1", check: "true" },
      { name: "a_c2", check: "1 = 1" },
    ],
  });
  const reordered: Table = {
    ...a,
    columns: [...a.columns].reverse(),
    indexes: [...a.indexes].reverse(),
    checkConstraints: [...a.checkConstraints].reverse(),
  };
  const b = table("b", [id()]);
  t.same(planMigration([a, b], [b, reordered], keep).statements, []);
});

t.test(
  "a column renamedFrom that was already applied, or has nothing to rename, does nothing more",
  async (t) => {
    const renamed = withColumn(user(), "name", { name: "fullName", renamedFrom: "name" });
    t.same(planMigration([renamed], [renamed], keep).statements, []);
    const fresh = withColumn(user(), "phone", { name: "mobile", renamedFrom: "cell" });
    t.same(planMigration([withColumn(user(), "phone", null)], [fresh], keep).statements, [
      'ALTER TABLE "public"."user" ADD COLUMN "mobile" varchar(30);',
    ]);
  },
);

t.test("unique columns come and go as constraints", async (t) => {
  const unique = withColumn(user(), "phone", { isUnique: true });
  t.same(planMigration([user()], [unique], keep).statements, [
    'ALTER TABLE "public"."user" ADD CONSTRAINT "user_phone_key" UNIQUE ("phone");',
  ]);
  t.same(planMigration([unique], [user()], keep).statements, [
    'ALTER TABLE "public"."user" DROP CONSTRAINT "user_phone_key";',
  ]);
});

t.test("a refused plan still describes its changes", async (t) => {
  const plan = planMigration([user()], [withColumn(user(), "phone", null)], keep);
  t.same(plan.changes, ['drop column "user"."phone"']);
  t.equal(plan.title, 'drop column "user"."phone"');
  t.equal(plan.refusals.length, 1);
  t.same(plan.statements, []);
});
