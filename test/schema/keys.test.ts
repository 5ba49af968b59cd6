import t from "tap";
import { err, errorsOf, load, order, user } from "./fixtures.ts";

const pkIndex = (columns: unknown[], extra: Record<string, unknown> = {}) => ({
  name: "PRIMARY",
  columns,
  isPrimaryKey: true,
  isUnique: true,
  ...extra,
});

t.test("every table needs a primary key", async (t) => {
  t.same(
    errorsOf((s) => {
      delete order(s).columns[0].isPrimary;
    }),
    [
      err(
        "database[2]",
        'table "order" has no primary key (mark a column isPrimary or add an index with isPrimaryKey)',
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      delete order(s).columns[0].isPrimary;
      order(s).indexes.push(pkIndex(["id"]));
    }),
    [],
    "a primary key index is enough",
  );
});

t.test("isPrimary and a primary key index may both be given when they agree", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).indexes.push(pkIndex(["id"]));
      // Restura names every primary key index PRIMARY: not a duplicate constraint name
      user(s).indexes.push(pkIndex(["id"]));
    }),
    [],
  );
  t.same(
    errorsOf((s) => {
      order(s).indexes.push(pkIndex(["userId"]));
    }),
    [
      err(
        "database[2].indexes[0].columns",
        'primary key index columns ("userId") differ from the columns marked isPrimary ("id")',
      ),
    ],
  );
});

t.test("at most one primary key index, on columns, not partial", async (t) => {
  t.same(
    errorsOf((s) => {
      delete order(s).columns[0].isPrimary;
      order(s).indexes.push(
        pkIndex(["id"]),
        pkIndex([{ expression: "lower(x)" }], { name: "b", where: "id > 0" }),
      );
    }),
    [
      err("database[2].indexes[1].columns[0].expression", "a primary key index can only list columns"),
      err(
        "database[2].indexes[1].isPrimaryKey",
        "a table has at most one primary key index (another is database[2].indexes[0])",
      ),
      err("database[2].indexes[1].where", "a primary key cannot be partial"),
    ],
  );
});

t.test("primary key columns cannot be nullable", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).columns[0].isNullable = true;
    }),
    [err("database[2].columns[0].isNullable", "a primary key column cannot be nullable")],
  );
});

t.test("index columns: names or {column|expression}, existing, not repeated", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).indexes.push({
        name: "user_misc",
        columns: [
          "emial",
          { column: "firstName", opclass: "text pattern ops" },
          {},
          { column: "email", expression: "lower(email)" },
          { column: "firstNme" },
          "firstName",
        ],
        isUnique: false,
        isPrimaryKey: false,
      });
    }),
    [
      err("database[1].indexes[1].columns[0]", 'table "user" has no column "emial" (did you mean "email"?)'),
      err("database[1].indexes[1].columns[1].opclass", 'invalid operator class "text pattern ops"'),
      err("database[1].indexes[1].columns[2]", 'an index column needs "column" or "expression"'),
      err(
        "database[1].indexes[1].columns[3]",
        'an index column has either "column" or "expression", not both',
      ),
      err(
        "database[1].indexes[1].columns[4].column",
        'table "user" has no column "firstNme" (did you mean "firstName"?)',
      ),
      err("database[1].indexes[1].columns[5]", 'column "firstName" is listed more than once'),
    ],
  );
});

t.test("index method: known, and btree for unique indexes", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).indexes[0].using = "gin";
      user(s).indexes.push({
        name: "i2",
        columns: ["firstName"],
        isUnique: false,
        isPrimaryKey: false,
        using: "btre",
      });
    }),
    [
      err("database[1].indexes[0].using", 'unique indexes need the btree method, got "gin"'),
      err(
        "database[1].indexes[1].using",
        'expected one of "btree", "hash", "gin", "gist", "brin", "spgist", got "btre" (did you mean "btree"?)',
      ),
    ],
  );
});

t.test("indexes are normalised: names become {column}, method lower case", async (t) => {
  const r = load((s) => {
    user(s).indexes.push({
      name: "user_search",
      columns: ["firstName", { expression: "lower(email)", opclass: "text_pattern_ops", order: "DESC" }],
      isUnique: false,
      isPrimaryKey: false,
      order: "ASC",
      where: "\"role\" = 'admin'",
      using: "GIN",
    });
  });
  t.same(r.errors, []);
  t.same(r.schema?.database[1]?.indexes, [
    { name: "user_email_unique", columns: [{ column: "email" }], isUnique: true, isPrimaryKey: false },
    {
      name: "user_search",
      columns: [
        { column: "firstName" },
        { expression: "lower(email)", opclass: "text_pattern_ops", order: "DESC" },
      ],
      isUnique: false,
      isPrimaryKey: false,
      order: "ASC",
      where: "\"role\" = 'admin'",
      using: "gin",
    },
  ]);
});

t.test("index, foreign key and check names are unique across the database", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).foreignKeys[0].name = "user_email_unique";
      order(s).checkConstraints.push({ name: "user_companyId_fk", check: "amount > 0" });
      order(s).indexes.push({ name: "company", columns: ["userId"], isUnique: false, isPrimaryKey: false });
      order(s).indexes.push({
        name: "y".repeat(64),
        columns: ["userId"],
        isUnique: false,
        isPrimaryKey: false,
      });
    }),
    [
      err(
        "database[2].checkConstraints[0].name",
        'duplicate constraint name "user_companyId_fk" (also used at database[1].foreignKeys[0])',
      ),
      err(
        "database[2].foreignKeys[0].name",
        'duplicate constraint name "user_email_unique" (also used at database[1].indexes[0])',
      ),
      err(
        "database[2].indexes[0].name",
        'index name "company" is also a table name (Postgres keeps them in one namespace)',
      ),
      err(
        "database[2].indexes[1].name",
        `name "${"y".repeat(64)}" is longer than 63 bytes, the Postgres identifier limit`,
      ),
    ],
  );
});

t.test("foreign keys: column or columns, refColumn or refColumns", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).foreignKeys[0].columns = ["userId"];
      order(s).foreignKeys[0].refColumns = ["id"];
    }),
    [
      err("database[2].foreignKeys[0].columns", 'use either "column" or "columns", not both'),
      err("database[2].foreignKeys[0].refColumns", 'use either "refColumn" or "refColumns", not both'),
    ],
  );
  t.same(
    errorsOf((s) => {
      delete order(s).foreignKeys[0].column;
      delete order(s).foreignKeys[0].refColumn;
    }),
    [
      err("database[2].foreignKeys[0].column", 'missing required property "column" (or "columns")'),
      err("database[2].foreignKeys[0].refColumn", 'missing required property "refColumn" (or "refColumns")'),
    ],
  );
});

t.test("foreign keys are normalised: columns lists and NO ACTION defaults", async (t) => {
  const r = load();
  t.same(r.schema?.database[2]?.foreignKeys, [
    {
      name: "order_userId_fk",
      columns: ["userId"],
      refTable: "user",
      refColumns: ["id"],
      onDelete: "NO ACTION",
      onUpdate: "NO ACTION",
    },
  ]);
});

t.test("foreign keys: referenced table and columns exist, columns of the table exist", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).foreignKeys[0].refTable = "usr";
    }),
    [err("database[2].foreignKeys[0].refTable", 'table "usr" does not exist (did you mean "user"?)')],
  );
  t.same(
    errorsOf((s) => {
      const fk = order(s).foreignKeys[0];
      delete fk.column;
      delete fk.refColumn;
      fk.columns = ["userid"];
      fk.refColumns = ["iid"];
    }),
    [
      err(
        "database[2].foreignKeys[0].columns[0]",
        'table "order" has no column "userid" (did you mean "userId"?)',
      ),
      err(
        "database[2].foreignKeys[0].refColumns[0]",
        'table "user" has no column "iid" (did you mean "id"?)',
      ),
    ],
  );
});

t.test("foreign keys: column counts match", async (t) => {
  t.same(
    errorsOf((s) => {
      delete order(s).foreignKeys[0].column;
      order(s).foreignKeys[0].columns = ["userId", "amount"];
    }),
    [err("database[2].foreignKeys[0].refColumn", "the foreign key has 2 columns but references 1 column")],
  );
});

t.test("foreign keys: referenced columns are the primary key or unique", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).columns.push({ name: "ownerName", type: "VARCHAR", length: 30, isNullable: true });
      order(s).foreignKeys[0].column = "ownerName";
      order(s).foreignKeys[0].refColumn = "firstName";
    }),
    [
      err(
        "database[2].foreignKeys[0].refColumn",
        'referenced columns ("firstName") are not the primary key or a unique key of table "user"',
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      order(s).columns.push({ name: "email", type: "VARCHAR", length: 100, isNullable: true });
      order(s).columns.push({ name: "ownerName", type: "TEXT", isNullable: true });
      user(s).columns[3].isUnique = true;
      order(s).foreignKeys.push(
        { name: "fk_email", column: "email", refTable: "user", refColumn: "email", onDelete: "SET NULL" },
        { name: "fk_name", column: "ownerName", refTable: "user", refColumn: "firstName" },
      );
    }),
    [],
    "a unique index or an isUnique column is enough",
  );
});

t.test("foreign keys: column types must be comparable", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).foreignKeys[0].column = "amount";
    }),
    [
      err(
        "database[2].foreignKeys[0].column",
        'column "amount" (DECIMAL) cannot reference "user"."id" (BIGSERIAL): incompatible types',
      ),
    ],
  );
});

t.test("foreign keys: SET NULL needs nullable columns", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).foreignKeys[0].onDelete = "SET NULL";
      order(s).foreignKeys[0].onUpdate = "SET NULL";
    }),
    [
      err(
        "database[2].foreignKeys[0].onDelete",
        'onDelete SET NULL needs nullable columns, but "userId" is not nullable',
      ),
      err(
        "database[2].foreignKeys[0].onUpdate",
        'onUpdate SET NULL needs nullable columns, but "userId" is not nullable',
      ),
    ],
  );
});
