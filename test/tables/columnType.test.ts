import t from "tap";
import { COLUMN_TYPES, type ColumnType } from "../../generator/schema/types.ts";
import {
  columnTypeSql,
  compareColumnTypes,
  enumValues,
  isIdentity,
  isWidening,
  type TypeChange,
} from "../../generator/tables/index.ts";
import { col } from "./helpers.ts";

t.test("every column type maps to a Postgres type", async (t) => {
  const expected: Record<ColumnType, string> = {
    BIGSERIAL: "bigint",
    SERIAL: "integer",
    SMALLSERIAL: "smallint",
    BIGINT: "bigint",
    INTEGER: "integer",
    INT: "integer",
    MEDIUMINT: "integer",
    SMALLINT: "smallint",
    TINYINT: "smallint",
    DECIMAL: "numeric",
    NUMERIC: "numeric",
    REAL: "real",
    FLOAT: "real",
    DOUBLE: "double precision",
    "DOUBLE PRECISION": "double precision",
    BOOLEAN: "boolean",
    CHAR: "char(1)",
    VARCHAR: "varchar",
    TEXT: "text",
    TINYTEXT: "text",
    MEDIUMTEXT: "text",
    LONGTEXT: "text",
    ENUM: "text",
    JSON: "jsonb",
    JSONB: "jsonb",
    DATE: "date",
    DATETIME: "timestamptz",
    TIMESTAMP: "timestamp",
    TIMESTAMPTZ: "timestamptz",
    TIME: "time",
    INTERVAL: "interval",
    UUID: "uuid",
    BYTEA: "bytea",
    BLOB: "bytea",
    TINYBLOB: "bytea",
    MEDIUMBLOB: "bytea",
    LONGBLOB: "bytea",
  };
  for (const type of COLUMN_TYPES) {
    t.equal(
      columnTypeSql(col("c", type, { value: type === "ENUM" ? "'a'" : undefined })).toString(),
      expected[type],
      type,
    );
  }
});

t.test("lengths, precision and scale", async (t) => {
  t.equal(columnTypeSql(col("c", "VARCHAR", { length: 30 })).toString(), "varchar(30)");
  t.equal(columnTypeSql(col("c", "CHAR", { length: 2 })).toString(), "char(2)");
  t.equal(columnTypeSql(col("c", "DECIMAL", { value: "10,2" })).toString(), "numeric(10,2)");
  t.equal(columnTypeSql(col("c", "NUMERIC", { value: " 8 , 3 " })).toString(), "numeric(8,3)");
  t.equal(columnTypeSql(col("c", "DECIMAL", { value: "10" })).toString(), "numeric(10,0)");
  t.throws(() => columnTypeSql(col("c", "DECIMAL", { value: "2,5" })), /precision,scale/);
  t.throws(() => columnTypeSql(col("c", "DECIMAL", { value: "ten" })), /precision,scale/);
  t.throws(() => columnTypeSql(col("c", "VARCHAR", { length: 0 })), /positive integer/);
});

t.test("identity columns: the SERIAL types, and integers with hasAutoIncrement", async (t) => {
  t.ok(isIdentity(col("c", "BIGSERIAL")));
  t.ok(isIdentity(col("c", "SERIAL", { hasAutoIncrement: false })));
  t.ok(isIdentity(col("c", "SMALLSERIAL")));
  t.ok(isIdentity(col("c", "INTEGER", { hasAutoIncrement: true })));
  t.ok(isIdentity(col("c", "TINYINT", { hasAutoIncrement: true })));
  t.notOk(isIdentity(col("c", "BIGINT")));
  t.notOk(isIdentity(col("c", "VARCHAR", { hasAutoIncrement: true })), "ignored on non-integer types");
  t.notOk(isIdentity(col("c", "DECIMAL", { hasAutoIncrement: true })));
});

t.test("ENUM values", async (t) => {
  t.same(enumValues(col("c", "ENUM", { value: "'admin','user'" })), ["admin", "user"]);
  t.same(enumValues(col("c", "ENUM", { value: " 'a' , 'b c' ,'it''s' " })), ["a", "b c", "it's"]);
  t.same(enumValues(col("c", "ENUM", { value: "'a,b'" })), ["a,b"]);
  t.equal(enumValues(col("c", "TEXT", { value: "'a'" })), undefined, "only ENUM columns have values");
  for (const bad of ["", "low, high", "'a", "'a',", "'a' 'b'", ",'a'", "a'b"]) {
    t.throws(
      () => enumValues(col("c", "ENUM", { value: bad })),
      /ENUM value must be a list/,
      JSON.stringify(bad),
    );
  }
});

t.test("type changes: widening, narrowing, incompatible", async (t) => {
  const cases: [ColumnType, Record<string, unknown>, ColumnType, Record<string, unknown>, TypeChange][] = [
    ["INTEGER", {}, "INT", {}, "same"],
    ["MEDIUMINT", {}, "INTEGER", {}, "same"],
    ["BIGSERIAL", {}, "BIGINT", {}, "same"],
    ["JSON", {}, "JSONB", {}, "same"],
    ["JSONB", {}, "JSON", {}, "same"],
    ["TEXT", {}, "LONGTEXT", {}, "same"],
    ["DATETIME", {}, "TIMESTAMPTZ", {}, "same"],
    ["BLOB", {}, "BYTEA", {}, "same"],
    ["DECIMAL", { value: "10,2" }, "NUMERIC", { value: "10, 2" }, "same"],
    ["SMALLINT", {}, "INTEGER", {}, "widening"],
    ["INTEGER", {}, "BIGINT", {}, "widening"],
    ["TINYINT", {}, "BIGSERIAL", {}, "widening"],
    ["BIGINT", {}, "INTEGER", {}, "narrowing"],
    ["INTEGER", {}, "SMALLINT", {}, "narrowing"],
    ["INTEGER", {}, "NUMERIC", {}, "widening"],
    ["INTEGER", {}, "DECIMAL", { value: "12,2" }, "widening"],
    ["INTEGER", {}, "DECIMAL", { value: "11,2" }, "narrowing"],
    ["BIGINT", {}, "DECIMAL", { value: "19" }, "widening"],
    ["DECIMAL", { value: "10,2" }, "DECIMAL", { value: "12,2" }, "widening"],
    ["DECIMAL", { value: "10,2" }, "DECIMAL", { value: "12,4" }, "widening"],
    ["DECIMAL", { value: "10,2" }, "DECIMAL", { value: "11,4" }, "narrowing"],
    ["DECIMAL", { value: "10,2" }, "DECIMAL", { value: "10,1" }, "narrowing"],
    ["DECIMAL", { value: "10,2" }, "DECIMAL", {}, "widening"],
    ["DECIMAL", {}, "DECIMAL", { value: "30,10" }, "narrowing"],
    ["DECIMAL", { value: "10,2" }, "INTEGER", {}, "narrowing"],
    ["REAL", {}, "DOUBLE PRECISION", {}, "widening"],
    ["FLOAT", {}, "DOUBLE", {}, "widening"],
    ["DOUBLE", {}, "REAL", {}, "narrowing"],
    ["REAL", {}, "NUMERIC", {}, "narrowing"],
    ["VARCHAR", { length: 30 }, "VARCHAR", { length: 100 }, "widening"],
    ["VARCHAR", { length: 30 }, "VARCHAR", { length: 30 }, "same"],
    ["VARCHAR", { length: 30 }, "VARCHAR", { length: 10 }, "narrowing"],
    ["VARCHAR", { length: 30 }, "VARCHAR", {}, "widening"],
    ["VARCHAR", {}, "VARCHAR", { length: 30 }, "narrowing"],
    ["VARCHAR", { length: 30 }, "TEXT", {}, "widening"],
    ["TEXT", {}, "VARCHAR", { length: 30 }, "narrowing"],
    ["TEXT", {}, "VARCHAR", {}, "widening"],
    ["CHAR", { length: 2 }, "CHAR", { length: 4 }, "widening"],
    ["CHAR", { length: 4 }, "CHAR", { length: 2 }, "narrowing"],
    ["CHAR", { length: 2 }, "VARCHAR", { length: 2 }, "widening"],
    ["CHAR", { length: 2 }, "VARCHAR", { length: 1 }, "narrowing"],
    ["CHAR", { length: 2 }, "TEXT", {}, "widening"],
    ["VARCHAR", { length: 2 }, "CHAR", { length: 10 }, "narrowing"],
    ["ENUM", { value: "'a','b'" }, "ENUM", { value: "'a','b','c'" }, "widening"],
    ["ENUM", { value: "'a','b'" }, "ENUM", { value: "'b','a'" }, "same"],
    ["ENUM", { value: "'a','b'" }, "ENUM", { value: "'a'" }, "narrowing"],
    ["ENUM", { value: "'a','b'" }, "ENUM", { value: "'a','c'" }, "narrowing"],
    ["ENUM", { value: "'a','b'" }, "TEXT", {}, "widening"],
    ["ENUM", { value: "'a','b'" }, "VARCHAR", { length: 10 }, "narrowing"],
    ["TEXT", {}, "ENUM", { value: "'a'" }, "narrowing"],
    ["VARCHAR", { length: 10 }, "ENUM", { value: "'a'" }, "narrowing"],
    ["TEXT", {}, "INTEGER", {}, "incompatible"],
    ["INTEGER", {}, "TEXT", {}, "incompatible"],
    ["BOOLEAN", {}, "INTEGER", {}, "incompatible"],
    ["TIMESTAMP", {}, "DATETIME", {}, "incompatible"],
    ["DATE", {}, "TIMESTAMP", {}, "incompatible"],
    ["UUID", {}, "TEXT", {}, "incompatible"],
    ["JSON", {}, "TEXT", {}, "incompatible"],
  ];
  for (const [fromType, fromExtra, toType, toExtra, expected] of cases) {
    const from = col("c", fromType, fromExtra);
    const to = col("c", toType, toExtra);
    const label = `${fromType}${JSON.stringify(fromExtra)} -> ${toType}${JSON.stringify(toExtra)}`;
    t.equal(compareColumnTypes(from, to), expected, label);
    t.equal(isWidening(from, to), expected === "same" || expected === "widening", `${label} is safe`);
  }
});
