// A read whose objects have properties behind column rules answers with one of two statements,
// chosen by the function: for a caller who passes every rule, objects of all their properties;
// for anyone else, the merged form that leaves out what the caller may not see (object.ts).
//
//   IF <every rule> THEN
//     <the statements, objects in the `all` form>   -- ends with RETURN
//   END IF;
//   <the statements, objects in the `some` form>
//
// One statement with `CASE WHEN <every rule> THEN <all> ELSE <merged> END` as the object answers
// the same, but Postgres sets up both branches, and every subquery in them, on each execution:
// the example's page of projects built its `openTaskCount` subplan twice (the `PAGE` helper, 5
// rows: 181 µs of Postgres CPU a call before, 173 after; docs/performance.md). The test is a
// plpgsql expression on `ctx` (`$2`), evaluated once per call.

import { join, type Sql, sql } from "../../sql/sql.ts";
import { nl } from "../layout.ts";
import { everyRule } from "../object.ts";
import type { CompiledQuery } from "../select.ts";
import type { Compile } from "./types.ts";

/**
 * `statements` (which end with RETURN) at `indent`, given the query's compiler for one object
 * form: once per form when the query's objects have column rules, else once.
 */
export function byVisibility(
  compile: Compile,
  indent: string,
  statements: (compile: (indent: string) => CompiledQuery, indent: string) => Sql[],
): Sql[] {
  const rules = compile(indent).columnRules;
  if (rules.length === 0) return statements((at) => compile(at), indent);
  const inner = `${indent}  `;
  const all = statements((at) => compile(at, "all"), inner);
  return [
    sql`IF ${everyRule(rules)} THEN${nl(inner)}${join(all, nl(inner).toString())}${nl(indent)}END IF;`,
    ...statements((at) => compile(at, "some"), indent),
  ];
}
