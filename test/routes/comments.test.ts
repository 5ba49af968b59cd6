// Schema-author SQL that ends in a `-- comment` cannot swallow the SQL written after it.

import t from "tap";
import { substituteMentions } from "../../generator/api/globals.ts";
import { buildModel } from "../../generator/model/index.ts";
import { rawSql } from "../../generator/routes/rawSql.ts";
import { QueryScope } from "../../generator/routes/scope.ts";
import { sql } from "../../generator/sql/sql.ts";
import { EXAMPLE_SCHEMA, readSchema } from "./helpers.ts";

t.test("raw SQL ending in a line comment is closed by a newline", async (t) => {
  const scope = new QueryScope(buildModel(readSchema(EXAMPLE_SCHEMA)));
  const text = `"task"."done" = false -- open tasks only`;
  t.equal(sql`(${rawSql(text, scope)})`.toString(), `(${text}\n)`);
  t.equal(sql`(${substituteMentions(text, () => sql`x`)})`.toString(), `(${text}\n)`);
  t.equal(
    rawSql(`"task"."done" = false`, scope).toString(),
    `"task"."done" = false`,
    "no comment: unchanged",
  );
});
