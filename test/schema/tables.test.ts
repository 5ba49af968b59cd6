import t from "tap";
import { err, errorsOf, load, order, user, warningsOf } from "./fixtures.ts";

t.test("duplicate table names", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).name = "company";
    }),
    [
      err("database[2].name", 'duplicate table name "company" (also at database[0])'),
      // there is no "order" table any more
      err("endpoints[0].routes[1].table", 'table "order" does not exist'),
    ],
  );
});

t.test("table and column names are identifiers within 63 bytes", async (t) => {
  const long = "x".repeat(64);
  t.same(
    errorsOf((s) => {
      s.database[0].columns[1].name = "full name";
      s.database[0].name = long;
      user(s).foreignKeys = [];
    }),
    [
      err(
        "database[0].columns[1].name",
        'invalid column name "full name": use letters, digits and _, not starting with a digit',
      ),
      err("database[0].name", `name "${long}" is longer than 63 bytes, the Postgres identifier limit`),
    ],
  );
});

t.test("duplicate column names in a table", async (t) => {
  t.same(
    errorsOf((s) => {
      order(s).columns[2].name = "userId";
    }),
    [err("database[2].columns[2].name", 'duplicate column name "userId" in table "order"')],
  );
});

t.test("column types: unknown with suggestion, case-insensitive otherwise", async (t) => {
  const errors = errorsOf((s) => {
    user(s).columns[2].type = "VARCHR";
  });
  t.equal(errors.length, 1);
  t.equal(errors[0]?.path, "database[1].columns[2].type");
  t.match(
    errors[0]?.message,
    /^expected one of "BIGSERIAL", "SERIAL", .*"LONGBLOB", got "VARCHR" \(did you mean "VARCHAR"\?\)$/,
  );
  const r = load((s) => {
    user(s).columns[2].type = "varchar";
    order(s).columns[2].type = "double  precision";
    delete order(s).columns[2].value;
  });
  t.same(r.errors, []);
  t.equal(r.schema?.database[1]?.columns[2]?.type, "VARCHAR");
  t.equal(r.schema?.database[2]?.columns[2]?.type, "DOUBLE PRECISION");
});

t.test("VARCHAR and CHAR need a positive length", async (t) => {
  t.same(
    errorsOf((s) => {
      delete user(s).columns[2].length;
      user(s).columns[3].length = 0;
      s.database[0].columns[1] = { name: "code", type: "CHAR", isNullable: false, length: 10485761 };
    }),
    [
      err("database[0].columns[1].length", "expected a length from 1 to 10485760, got 10485761"),
      err("database[1].columns[2].length", "VARCHAR columns need a length"),
      err("database[1].columns[3].length", "expected a length from 1 to 10485760, got 0"),
    ],
  );
});

t.test("length and value on types that do not use them are warnings", async (t) => {
  const r = load((s) => {
    user(s).columns[1].length = 5;
    user(s).columns[1].value = "x";
  });
  t.same(r.errors, []);
  t.same(r.warnings, [
    err("database[1].columns[1].length", "length is ignored for BIGINT columns"),
    err("database[1].columns[1].value", "value is ignored for BIGINT columns"),
  ]);
});

t.test("ENUM value: required, quoted list, no duplicates", async (t) => {
  t.same(
    errorsOf((s) => {
      delete user(s).columns[4].value;
    }),
    [
      err(
        "database[1].columns[4].value",
        "ENUM columns need a value listing the allowed values, like 'a','b'",
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      user(s).columns[4].value = "admin,user";
    }),
    [
      err(
        "database[1].columns[4].value",
        `expected a list of single-quoted values like 'a','b', got "admin,user"`,
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      user(s).columns[4].value = "'a', 'it''s','a'";
    }),
    [err("database[1].columns[4].value", "duplicate ENUM value 'a'")],
  );
  t.same(
    errorsOf((s) => {
      user(s).columns[4].value = "'a', 'it''s' ,'b,c'";
    }),
    [],
  );
});

t.test("DECIMAL/NUMERIC value: p,s or p within Postgres's ranges", async (t) => {
  const at = "database[2].columns[2].value";
  const cases: [string, string | undefined][] = [
    ["10,2", undefined],
    ["12", undefined],
    [" 1000 , 1000 ", undefined],
    ["0,0", "precision must be from 1 to 1000, got 0"],
    ["1001", "precision must be from 1 to 1000, got 1001"],
    ["10,12", "scale must be from 0 to the precision 10, got 12"],
    ["ten", 'expected a precision and scale like "10,2" (or a precision like "10"), got "ten"'],
    ["10,-1", 'expected a precision and scale like "10,2" (or a precision like "10"), got "10,-1"'],
  ];
  for (const [value, message] of cases) {
    t.same(
      errorsOf((s) => {
        order(s).columns[2].value = value;
      }),
      message === undefined ? [] : [err(at, message)],
      value,
    );
  }
  t.same(
    errorsOf((s) => {
      delete order(s).columns[2].value;
      order(s).columns[2].type = "NUMERIC";
    }),
    [],
    "no value: unconstrained numeric",
  );
});

t.test("hasAutoIncrement only on integer types, never with a default", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).columns[2].hasAutoIncrement = true;
      user(s).columns[0].default = "1";
      order(s).columns[1].hasAutoIncrement = true;
      order(s).columns[1].default = "0";
    }),
    [
      err("database[1].columns[0].default", "an auto-increment column cannot have a default"),
      err(
        "database[1].columns[2].hasAutoIncrement",
        "hasAutoIncrement needs an integer column type, got VARCHAR",
      ),
      err("database[2].columns[1].default", "an auto-increment column cannot have a default"),
    ],
  );
});

t.test("renamedFrom must name something that no longer exists", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).columns[2].renamedFrom = "firstName";
      user(s).columns[3].renamedFrom = "oldName";
      user(s).columns[5].renamedFrom = "oldName";
      user(s).renamedFrom = "company";
      order(s).renamedFrom = "order";
      order(s).columns[1].renamedFrom = "userId";
    }),
    [
      err(
        "database[1].columns[2].renamedFrom",
        'renamedFrom "firstName" is the name of another column of table "user"',
      ),
      err(
        "database[1].columns[5].renamedFrom",
        'renamedFrom "oldName" is also used by database[1].columns[3]',
      ),
      err("database[1].renamedFrom", 'renamedFrom "company" is the name of another table'),
      err("database[2].columns[1].renamedFrom", "renamedFrom must differ from the column's name"),
      err("database[2].renamedFrom", "renamedFrom must differ from the table's name"),
    ],
  );
  const r = load((s) => {
    user(s).renamedFrom = "users";
    user(s).columns[2].renamedFrom = "mail";
    user(s).comment = "people";
  });
  t.same(r.errors, []);
  t.equal(r.schema?.database[1]?.renamedFrom, "users");
  t.equal(r.schema?.database[1]?.comment, "people");
  t.equal(r.schema?.database[1]?.columns[2]?.renamedFrom, "mail");
});

t.test("notify: ALL or existing column names", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).notify = ["id", "emial", "id"];
      order(s).notify = "all";
      s.database[0].notify = [];
    }),
    [
      err("database[0].notify", 'expected "ALL" or a non-empty list of column names, got an empty list'),
      err("database[1].notify[1]", 'table "user" has no column "emial" (did you mean "email"?)'),
      err("database[1].notify[2]", 'column "id" is listed more than once'),
      err("database[2].notify", 'expected "ALL" or a list of column names, got "all"'),
    ],
  );
  const r = load((s) => {
    user(s).notify = ["id", "email"];
    order(s).notify = "ALL";
  });
  t.same(r.errors, []);
  t.same(r.schema?.database[1]?.notify, ["id", "email"]);
  t.equal(r.schema?.database[2]?.notify, "ALL");
  t.equal(r.schema?.database[0]?.notify, undefined);
});

t.test("policies: own table only, no request parameters, declared globals", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).policies = [
        {
          name: "p",
          roles: ["admin"],
          where: [
            { columnName: "companyId", operator: "=", value: "#companyId" },
            { tableName: "order", columnName: "id", operator: "=", value: "$x" },
            { tableName: "user", columnName: "emial", operator: "=", value: '"order"."id"' },
          ],
        },
        { name: "p", where: [{ custom: '"companyId" = #nope' }] },
      ];
    }),
    [
      err(
        "database[1].policies[0].where[1].tableName",
        'a policy can only refer to its own table "user", got "order"',
      ),
      err(
        "database[1].policies[0].where[1].value",
        'request parameters like "$x" cannot be used in a policy',
      ),
      err(
        "database[1].policies[0].where[2].columnName",
        'table "user" has no column "emial" (did you mean "email"?)',
      ),
      err(
        "database[1].policies[0].where[2].value",
        'a policy can only refer to its own table "user", got "order"',
      ),
      err("database[1].policies[1].name", 'duplicate policy name "p" in table "user"'),
      err(
        "database[1].policies[1].where[0].custom",
        'global parameter "#nope" is not declared in globalParams',
      ),
    ],
  );
});

t.test("policies are normalised: defaults and the table name filled in", async (t) => {
  const r = load((s) => {
    user(s).policies = [
      {
        name: "same company",
        roles: ["user"],
        where: [{ columnName: "companyId", operator: "=", value: "#companyId" }],
      },
      { name: "admins see all" },
    ];
  });
  t.same(r.errors, []);
  t.same(r.schema?.database[1]?.policies, [
    {
      name: "same company",
      roles: ["user"],
      scopes: [],
      where: [{ tableName: "user", columnName: "companyId", operator: "=", value: "#companyId" }],
    },
    { name: "admins see all", roles: [], scopes: [], where: [] },
  ]);
  t.same(
    warningsOf(() => {}),
    [],
  );
});
