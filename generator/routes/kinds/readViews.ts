// A ONE or ARRAY route's query over the API views, for the gateway to send itself
// (gateway/routes/readStatement.ts) instead of calling the route function, where the query reads
// nothing of the caller through the settings: no row policy or table rule of a table it reads
// reads the context, no such table has a column rule (the views' masks read `role` and
// `scopes`), and it holds no raw SQL. Then nothing needs setting before it, and the statement is
// the whole request: one prepared statement with a typed parameter per value (boundValues.ts),
// no function call, no jsonb parameters (docs/performance.md "Reads without the route function").
//
// Apps whose permissions are route rules only (the Restura fixture) take it everywhere; an app
// with row policies on the caller (the example) never does. The function's checks after the
// route rule (table rules, "every column hidden") are `checks`, which the gateway evaluates
// first; with no table rule and no column rule they pass for every caller. The answer is the
// function's, byte for byte: the same object, `{"data": ...}` built the same way.

import type { Model, ModelRoute } from "../../model/index.ts";
import type { StandardRoute } from "../../schema/types.ts";
import { type Sql, sql } from "../../sql/sql.ts";
import { type BoundValue, BoundValues } from "../boundValues.ts";
import { READS_SETTING } from "../function.ts";
import { querySpec } from "../index.ts";
import { Checks } from "../permissions.ts";
import { compileQuery, orderList, selectSql } from "../select.ts";
import { returnsAtMostOneRow } from "../unique.ts";
import { notFoundMessage } from "./one.ts";

export interface ViewsRead {
  /** The statement; `$n` is `values[n - 1]`. */
  text: string;
  values: BoundValue[];
  /** ONE: the message of the 404 when no row matches. ARRAY: always one row. */
  notFound: string | undefined;
  checks: Checks;
}

/** The route's read over the views, or undefined when it reads the caller through the settings. */
export function viewsRead(model: Model, modelRoute: ModelRoute): ViewsRead | undefined {
  const route = modelRoute.route as StandardRoute;
  if (route.method !== "GET" || (route.type !== "ONE" && route.type !== "ARRAY")) return undefined;
  const checks = new Checks();
  const values = new BoundValues();
  const q = compileQuery(querySpec(route), model, checks, "", undefined, "all", "views", values);
  const context = checks.context;
  if (context.whole || context.keys.length > 0 || checks.readsMaskedTable || q.columnRules.length > 0) {
    return undefined;
  }
  let statement: Sql;
  if (route.type === "ONE") {
    // Read with `INTO` and `FOUND` in the function; a query that may match two rows counts them
    // there (409), which this path leaves to the function.
    if (!returnsAtMostOneRow(route, q.scope)) return undefined;
    statement = selectSql(q, "", { select: sql`json_build_object('data', ${q.object})` });
  } else {
    const rows = selectSql(q, "", { orderBy: orderList(q.order, q.tiebreak, false) });
    statement = sql`SELECT json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (${rows}) AS _api_r))`;
  }
  // Every `$n` must be a bound value: a `$1` of the function's own reading, or one in a constant,
  // would be numbered with them.
  if (statement.parts.some((part) => typeof part === "string" && /\$\d/.test(part))) return undefined;
  const { text, values: bound } = statement.toQuery();
  if (READS_SETTING.test(text)) return undefined;
  return {
    text,
    values: bound as BoundValue[],
    notFound: route.type === "ONE" ? notFoundMessage(route.table) : undefined,
    checks,
  };
}
