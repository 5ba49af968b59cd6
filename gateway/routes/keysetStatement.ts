// Keyset pages the gateway sends itself: a cursor in a PAGED route's own order (decoded by the
// gateway, cursor.ts) on a route whose page reads nothing of the caller through the settings
// (generator/routes/kinds/pagedViews.ts viewsKeyset). The route function's fast path answers the
// same request with the same statement (pagedKeyset.ts keysetFastPath), inside a function call;
// here it is the request, after a one-setting statement in the same batch (below): no function,
// no context statement. The request's test is the fast path's, so anything else (a sortBy, a
// filter, another page, a total mode the path lacks, a planned total pg_class has no figure for)
// goes to the function, which answers or refuses.

import type { Model, ModelRoute } from "../../generator/model/index.ts";
import { DEFAULT_PER_PAGE } from "../../generator/model/paging.ts";
import { DECODED_CURSOR } from "../../generator/routes/kinds/fastCursor.ts";
import { type KeysetPair, viewsKeyset } from "../../generator/routes/kinds/pagedViews.ts";
import type { StandardRoute } from "../../generator/schema/types.ts";
import { type CellStatement, cellStatement, type Step } from "../cellQuery.ts";
import { statementName } from "../namedStatements.ts";
import { readingText, requestAndCaller } from "./unreadValues.ts";

/**
 * The request ($1) and the caller ($2), as the function gets them where the route's where reads
 * them (else NULL: unreadValues.ts), then the page's size ($3) and the decoded cursor ($4), which
 * the page reads bound (pagedKeyset.ts BOUND_BY_GATEWAY).
 */
const JSONB = 3802;
const INT8 = 20;
const TYPES = [JSONB, JSONB, INT8, JSONB];

/**
 * The function plans its statements once (`plan_cache_mode = force_generic_plan`); a session's own
 * choice plans this one for every cursor it sees (Postgres's custom plans look cheaper), which
 * cost the Restura cursor page with a planned total 3,410k instructions a call against 1,642k. So
 * the batch sets the function's mode first, transaction-locally: a row of no columns.
 */
const GENERIC_PLAN =
  "SELECT FROM (SELECT pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true)) AS _api_set";

/** The statement for a request, or undefined when the route function is to answer it. */
export type KeysetStatements = (params: Record<string, unknown>, ctx: string) => CellStatement | undefined;

export function compileKeysetStatements(
  model: Model,
  modelRoute: ModelRoute,
  options: { preparedStatements: boolean },
): KeysetStatements | undefined {
  const texts = viewsKeyset(model, modelRoute);
  if (!texts) return undefined;
  const statement = (text: string) => ({
    reading: readingText(text),
    name: options.preparedStatements ? statementName("api_keyset", text) : undefined,
  });
  const pair = (p: KeysetPair) => ({ first: statement(p.first), after: statement(p.after) });
  const modes: Record<string, ReturnType<typeof pair> | undefined> = {
    exact: pair(texts.exact),
    planned: texts.planned ? pair(texts.planned) : undefined,
  };
  const defaultCount = (modelRoute.route as StandardRoute).total ?? "exact";
  const generic: Step = {
    name: options.preparedStatements ? statementName("api_generic", GENERIC_PLAN) : undefined,
    text: GENERIC_PLAN,
    values: [],
  };
  return (params, ctx) => {
    const after = params[DECODED_CURSOR];
    if (typeof after !== "string" || "sortBy" in params || "filter" in params) return undefined;
    const order = params.sortOrder;
    // ASCII letters only, where Postgres's upper() and JavaScript's agree (`ſ` is `S` to JavaScript).
    if (order !== undefined && (typeof order !== "string" || !/^asc$/i.test(order))) return undefined;
    if (params.page !== undefined && params.page !== 1) return undefined;
    const perPage = params.perPage ?? DEFAULT_PER_PAGE;
    if (typeof perPage !== "number" || !Number.isSafeInteger(perPage) || perPage < 1) return undefined;
    const count = params.$count ?? defaultCount;
    const chosen = typeof count === "string" && Object.hasOwn(modes, count) ? modes[count] : undefined;
    if (!chosen) return undefined;
    const { reading, name } = after === "" ? chosen.first : chosen.after;
    const cursor = after === "" ? null : after;
    const values = [...requestAndCaller(reading, params, ctx), String(perPage), cursor];
    return cellStatement(name, reading.text, values, {
      before: [generic],
      paramTypes: TYPES,
      utc: true,
    });
  };
}
