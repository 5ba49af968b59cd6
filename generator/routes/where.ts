// Where conditions in route functions: generator/api/conditions.ts compiles them (the semantics
// shared with row policies); this module says how the route's names and values become SQL.
// `$param` reads the request parameters, `#global` the caller context (the scope's values: a route
// function's `$1` and `$2`, or bound parameters), both cast to the column compared with; `custom` SQL follows the raw SQL typing rule (generator/routes/rawSql.ts).

import { type ConditionEnv, compileCondition, orOfAnds } from "../api/conditions.ts";
import type { WhereCondition } from "../schema/types.ts";
import { join, type Sql, sql } from "../sql/sql.ts";
import { rawSql } from "./rawSql.ts";
import type { QueryScope } from "./scope.ts";

/** The conditions as one expression, parenthesized only where needed; undefined when empty. */
export function whereSql(conditions: readonly WhereCondition[], scope: QueryScope): Sql | undefined {
  const env = routeEnv(scope);
  const term = (c: WhereCondition) =>
    c.custom !== undefined ? sql`(${compileCondition(c, env)})` : compileCondition(c, env);
  const groups = orOfAnds(conditions).map((g) => g.map(term));
  if (groups.length === 0) return undefined;
  if (groups.length === 1) return join(groups[0] as Sql[], " AND ");
  return join(
    groups.map((g) => (g.length === 1 ? (g[0] as Sql) : sql`(${join(g, " AND ")})`)),
    " OR ",
  );
}

function routeEnv(scope: QueryScope): ConditionEnv {
  return {
    column: (table, column) => scope.column(table, column),
    global: (name, column) => scope.values.value("global", name, column),
    param: (name, column) => scope.values.value("param", name, column),
    paramArray: (name, column) => scope.values.array(name, column),
    custom: (text) => rawSql(text, scope),
  };
}
