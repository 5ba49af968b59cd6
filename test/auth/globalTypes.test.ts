// Globals against the types the schema compares them with (gateway/auth/globalTypes.ts): each
// column type's accepted values, and what is not checked (text, raw-SQL-only, null).

import t from "tap";
import { globalTypeChecker } from "../../gateway/auth/globalTypes.ts";
import type { Schema } from "../../generator/schema/types.ts";

const col = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  isNullable: false,
  roles: [],
  scopes: [],
  ...extra,
});

const TYPES: [string, string, Record<string, unknown>?][] = [
  ["small", "SMALLINT"],
  ["int", "INTEGER"],
  ["big", "BIGINT"],
  ["dec", "DECIMAL", { value: "10,2" }],
  ["flag", "BOOLEAN"],
  ["key", "UUID"],
  ["day", "DATE"],
  ["at", "DATETIME"],
  ["name", "VARCHAR", { length: 10 }],
];

/** One table whose policy compares `#<name>` with the column of that name. */
const schema = {
  globalParams: [...TYPES.map(([name]) => name), "unused"],
  endpoints: [],
  database: [
    {
      name: "t",
      columns: [
        col("id", "BIGSERIAL", { isPrimary: true }),
        ...TYPES.map(([n, type, extra]) => col(n, type, extra)),
      ],
      policies: [
        {
          name: "p",
          roles: [],
          scopes: [],
          where: TYPES.map(([n]) => ({ tableName: "t", columnName: n, operator: "=", value: `#${n}` })),
        },
      ],
      indexes: [],
      foreignKeys: [],
      checkConstraints: [],
      roles: [],
      scopes: [],
    },
  ],
} as unknown as Schema;

const check = globalTypeChecker(schema);
const ok = (globals: Record<string, string | number | boolean | null>) => check(globals) === undefined;

t.test("integers: numbers or digit strings within the type", async (t) => {
  for (const v of [0, -5, 32767, "32767", "-32768"]) t.ok(ok({ small: v }), `small ${v}`);
  for (const v of [32768, "32768", 1.5, true, "1e3", "", " 1", "1 OR 1=1"])
    t.notOk(ok({ small: v }), `small ${v}`);
  t.ok(ok({ int: 2147483647 }));
  t.notOk(ok({ int: 2147483648 }));
  t.ok(ok({ big: "9223372036854775807" }), "bigint's maximum as a string");
  t.notOk(ok({ big: "9223372036854775808" }), "one more");
  t.equal(
    check({ big: "x" }),
    'claim "big" must be an integer from -9223372036854775808 to 9223372036854775807 (it is compared with bigint columns)',
  );
});

t.test("other types", async (t) => {
  for (const v of [1.5, -2, "3.25", "1e2"]) t.ok(ok({ dec: v }), `dec ${v}`);
  for (const v of ["abc", true, ""]) t.notOk(ok({ dec: v }), `dec ${v}`);
  for (const v of [true, false, "true", "false"]) t.ok(ok({ flag: v }), `flag ${v}`);
  for (const v of [1, "yes", "TRUE"]) t.notOk(ok({ flag: v }), `flag ${v}`);
  t.ok(ok({ key: "123e4567-e89b-12d3-a456-426614174000" }));
  t.notOk(ok({ key: "123e4567" }));
  t.ok(ok({ day: "2024-02-29" }));
  t.ok(ok({ day: "0050-03-01" }), "a year below 100 is that year, not 1950");
  for (const v of ["2023-02-29", "2020-02-30", "0000-01-01", "yesterday", 20240229])
    t.notOk(ok({ day: v }), `day ${v}`);
  t.ok(ok({ at: "2024-01-02T03:04:05Z" }));
  t.notOk(ok({ at: "2024-01-02T25:00:00Z" }));
});

t.test("not checked: text columns, unknown names, null", async (t) => {
  t.ok(ok({ name: "1 OR 1=1" }), "text takes anything");
  t.ok(ok({ name: 5 }));
  t.ok(ok({ unused: "anything" }), "a global no column is compared with");
  t.ok(ok({ big: null, small: null }), "null is the route check's business");
  t.ok(ok({}), "absent");
});
