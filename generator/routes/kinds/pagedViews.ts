// A PAGED route's page query over the API views, for the gateway to complete and run itself
// (gateway/routes/pagedStatement.ts) instead of calling the route function, for the requests that
// make the function build a query text at run time (a filter, a sortBy, another sort order).
//
// Why: a plpgsql function sets up every statement it runs again in each transaction, and the
// function's dynamic path runs many (read the request, check it, build the text, look up the
// prepared statement in api.execute_cached). The same page query, sent by the gateway as a
// prepared statement of the connection, answers byte for byte the same in about half the time
// (docs/performance.md "The gateway's own page statements").
//
// The text is the function's own one-statement page (pagedText.ts boundedPieces), compiled
// `through` the views (source.ts): api_gateway may read nothing else. The views mask the columns
// and the policies bind their rows as in the function; the function's other checks (each table
// rule, "every column hidden") are `checks`, which the gateway evaluates before it takes this path.
// Raw SQL of the schema names tables that resolve to the views in the function too (its
// search_path puts `api` first, and the gateway sets the same); should it call what only api_owner
// may, the gateway hands the route back to the function (gateway/routes/standard.ts).

import type { Model, ModelRoute } from "../../model/index.ts";
import type { StandardRoute } from "../../schema/types.ts";
import { type Sql, sql } from "../../sql/sql.ts";
import { type Entry, filterColumns } from "../filter.ts";
import { guarded, pageGuardName } from "../guards.ts";
import { querySpec } from "../index.ts";
import type { ObjectForm } from "../object.ts";
import { type Access, Checks } from "../permissions.ts";
import { mayName } from "../rawSql.ts";
import { type CompiledQuery, compileQuery, orderList } from "../select.ts";
import { KEY_BOUNDS } from "./pagedKeys.ts";
import { keysetPageTexts } from "./pagedKeyset.ts";
import { boundedPieces } from "./pagedText.ts";
import { readsNoSetting } from "./readViews.ts";

/** The constants a page is cut from (pagedText.ts boundedPage); a page ending past the last is the function's. */
export const PAGE_BOUNDS: readonly number[] = KEY_BOUNDS;

/**
 * The page's rows by position: after `$3`, through `$4` (bigint parameters the gateway computes
 * from the request; the filter's values follow them). The function reads them from its `$1`
 * instead, an extraction from the request's JSON on every row the cut compares: about 60k
 * instructions a page of the example's filtered projects.
 */
const PAGE_RANGE = { after: sql`$3`, through: sql`$4` };

export interface ViewsPage {
  /**
   * The page's text, given its where (the route's own, then the filter), its ORDER BY list, and
   * the constant the page's rows are cut from (the first of PAGE_BOUNDS at least the page's end:
   * pagedText.ts boundedPage), and whether the caller passes every column rule of its objects (`rules`): then the objects hold
   * every property, else the form that leaves out what the caller may not see (object.ts). Two
   * texts rather than one CASE of both, which Postgres would set up whole on every execution
   * (kinds/visibility.ts).
   */
  text(where: string, order: string, bound: number, allVisible: boolean): string;
  /** The column rules of the objects' properties (none: one form). */
  rules: Access[];
  /** The route's own where, parenthesized, or `true`. */
  where: string;
  /** ORDER BY lists: the route's own order, and the tiebreak alone (primary key or groupBy). */
  order(descending: boolean): string;
  tiebreak(descending: boolean): string;
  /** What a client may filter and sort by, with each name's SQL (filter.ts). */
  columns: ReadonlyMap<string, Entry>;
  /** The function's checks after the route rule; the gateway path runs only for callers who pass. */
  checks: Checks;
}

/** A page text's constant pieces around its placeholders (pagedText.ts boundedPieces): A W B O C <bound> D W E. */
type Pieces = [string, string, string, string, string];

/** The route's page over the views. */
export function viewsPage(model: Model, modelRoute: ModelRoute): ViewsPage {
  const route = modelRoute.route as StandardRoute;
  const checks = new Checks();
  const compile = (form: ObjectForm) =>
    compileQuery(querySpec(route), model, checks, "", undefined, form, "views");
  const q = compile("all");
  const some = q.columnRules.length > 0 ? compile("some") : q;
  // The pieces by object form, the joins made after the cut and the total's joins: a join the
  // where or the order names stays before the cut (the page's rows depend on it), the others that
  // decide no row are probed for the page's rows only (select.ts `deferrable`); the total leaves
  // out those that decide no row unless the where names one. A few sets per route at most.
  const built = new Map<string, Pieces>();
  const pieces = (query: CompiledQuery, where: string, order: string) => {
    const deferred = query.deferrable
      .map((j) => j.alias)
      .filter((alias) => !mayName(where, alias) && !mayName(order, alias));
    const countWithoutNeutral = !query.countNeutral.some((alias) => mayName(where, alias));
    const key = `${query === q ? "all" : "some"}\0${countWithoutNeutral}\0${deferred.join("\0")}`;
    let found = built.get(key);
    if (found === undefined) {
      found = boundedPieces(query, "", PAGE_RANGE, new Set(deferred), countWithoutNeutral) as Pieces;
      built.set(key, found);
    }
    return found;
  };
  // Both directions of both lists, written once here rather than on every request.
  const orders = [false, true].map((d) => orderList(q.order, q.tiebreak, d).toString());
  const tiebreaks = [false, true].map((d) => orderList([], q.tiebreak, d).toString());
  return {
    text: (where, order, bound, allVisible) => {
      const [a, b, c, d, e] = pieces(allVisible ? q : some, where, order);
      return a + where + b + order + c + String(bound) + d + where + e;
    },
    rules: q.columnRules,
    where: q.where ? `(${q.where.toString()})` : "true",
    order: (descending) => orders[descending ? 1 : 0] as string,
    tiebreak: (descending) => tiebreaks[descending ? 1 : 0] as string,
    columns: filterColumns(q, modelRoute.filterColumns).entries,
    checks,
  };
}

/** A keyset page's two statements: the first page, and the page after a cursor. */
export interface KeysetPair {
  first: string;
  after: string;
}

/**
 * The function's keyset fast path (pagedKeyset.ts keysetFastPath) as statements over the views,
 * for a route whose page reads nothing of the caller through the settings (readViews.ts): then the
 * gateway sends them itself, with no context statement before them. Each is behind the schema's
 * page guard, as the gateway's other pages are (guards.ts). `planned` answers no row where
 * pg_class has no figure for the table (the function answers then). Undefined for any other route.
 */
export function viewsKeyset(
  model: Model,
  modelRoute: ModelRoute,
): { exact: KeysetPair; planned: KeysetPair | undefined } | undefined {
  const route = modelRoute.route as StandardRoute;
  const checks = new Checks();
  const q = compileQuery(querySpec(route), model, checks, "", undefined, "all", "views");
  if (!readsNoSetting(checks, q)) return undefined;
  const texts = keysetPageTexts(q, filterColumns(q, modelRoute.filterColumns));
  if (!texts) return undefined;
  const guard = pageGuardName(model.schema);
  const pair = (p: { first: Sql; after: Sql }) => ({
    first: guarded(p.first.toString(), guard),
    after: guarded(p.after.toString(), guard),
  });
  return { exact: pair(texts.exact), planned: texts.planned ? pair(texts.planned) : undefined };
}
