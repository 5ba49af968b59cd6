// A ONE or ARRAY route's query over the API views, for the gateway to send itself
// (gateway/routes/readStatement.ts) instead of calling the route function: one prepared statement
// with a typed parameter per value (boundValues.ts), no function call, no jsonb parameters
// (docs/performance.md "Reads without the route function").
//
// Where the query reads the caller through the settings (a row policy or table rule of a table it
// reads reads the context; such a table has a column rule, whose mask in the view reads `role` and
// `scopes`), `context` says what a context statement must set first, in the same batch: the keys
// those policies read, `role` and `scopes` for the masks, and every key and the whole context where
// a policy holds raw SQL (generator/api/context.ts contextReadBy), as the route function sets them
// from its `ctx`. Where it reads nothing of the caller (the Restura fixture, whose permissions are
// route rules only), the statement is the whole request.
//
// Routes whose query holds raw SQL of their own stay with the function (raw SQL is read as text
// while it compiles, which bound values cannot be), as do routes with a column rule in their
// objects (the function builds the object per caller). The function's checks after the route rule
// (table rules, "every column hidden") are `checks`, which the gateway evaluates first. The answer
// is the function's, byte for byte: the same object, `{"data": ...}` built the same way.

import { contextKeys } from "../../api/context.ts";
import type { Model, ModelRoute } from "../../model/index.ts";
import type { StandardRoute } from "../../schema/types.ts";
import { type Sql, sql } from "../../sql/sql.ts";
import { type BoundValue, BoundValues } from "../boundValues.ts";
import { keysOverViews, READS_SETTING } from "../function.ts";
import { guarded, guardName, guardStatements } from "../guards.ts";
import { querySpec } from "../index.ts";
import { Checks, type ContextUse } from "../permissions.ts";
import { type CompiledQuery, compileQuery, orderList, selectSql } from "../select.ts";
import { returnsAtMostOneRow } from "../unique.ts";
import { notFoundMessage } from "./one.ts";

export interface ViewsRead {
  /** The statement, behind its layer guard (below); `$n` is `values[n - 1]`. */
  text: string;
  /** The guard's name: `api."<guard>"()` exists in a layer that reads this route with this text. */
  guard: string;
  values: BoundValue[];
  /** ONE: the message of the 404 when no row matches. ARRAY: always one row. */
  notFound: string | undefined;
  checks: Checks;
  /** What the context statement sets before it; undefined: nothing, the statement runs alone. */
  context: ContextUse | undefined;
}

/**
 * Whether a query compiled over the views (with `checks`) reads nothing of the caller through the
 * settings: no row policy or table rule of its tables reads the context, none of them has a column
 * rule (the views' masks read `role` and `scopes`), no raw SQL, no column rule in its objects.
 */
export function readsNoSetting(checks: Checks, q: CompiledQuery): boolean {
  const { whole, keys } = checks.context;
  return !whole && keys.length === 0 && !checks.readsMaskedTable && q.columnRules.length === 0;
}

/** The route's read over the views, or undefined when the route function is to answer it. */
export function viewsRead(model: Model, modelRoute: ModelRoute): ViewsRead | undefined {
  const route = modelRoute.route as StandardRoute;
  if (route.method !== "GET" || (route.type !== "ONE" && route.type !== "ARRAY")) return undefined;
  // Decided on the function's own compilation first: raw SQL (which makes a route ineligible) is
  // read as text while it compiles, which bound values cannot be.
  const first = new Checks();
  const plain = compileQuery(querySpec(route), model, first, "", undefined, "all", "views");
  if (first.readsRawSql || plain.columnRules.length > 0) return undefined;
  const checks = new Checks();
  const values = new BoundValues();
  const q = compileQuery(querySpec(route), model, checks, "", undefined, "all", "views", values);
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
  // What the route function would store for it; `role` and `scopes` where a table has a column rule.
  const context = readsNoSetting(checks, q)
    ? undefined
    : keysOverViews(checks.context, checks.readsMaskedTable, contextKeys(model.schema));
  // The route's key too: two routes with the same query (the fixture's me and my-user) must not
  // keep each other's statement valid when one of them changes. And what it sets first: a layer
  // whose policies or masks read other keys of the caller (a migration added one) lacks the guard.
  const guard = guardName(
    "read",
    `${modelRoute.key}\n${text}${context ? `\n${JSON.stringify(context)}` : ""}`,
  );
  return {
    text: guarded(text, guard),
    guard,
    values: bound as BoundValue[],
    notFound: route.type === "ONE" ? notFoundMessage(route.table) : undefined,
    checks,
    context,
  };
}

/**
 * The guard of the route's own read (guards.ts), named after the route and its text: a layer in
 * which the route is not read with this text (another response, a row policy that now reads the
 * caller) lacks it.
 */
export function readGuardStatements(model: Model, modelRoute: ModelRoute): string[] {
  const read = viewsRead(model, modelRoute);
  return read ? guardStatements(read.guard) : [];
}
