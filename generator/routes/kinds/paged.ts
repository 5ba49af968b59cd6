// PAGED: one page of rows and the total, from one statement (one snapshot):
//
//   SELECT json_build_object('data', <the page as a JSON array>, 'total', <count of all matches>)
//
// page / perPage (defaults 1 / 10; the gateway applies its maximum), sortBy (a response property
// or `table.column`, see filter.ts), sortOrder (ASC default, DESC, NONE: primary key only, RAND:
// random()), filter (an AST, see helpers.ts). The order always ends with the primary key (or the
// groupBy column), so pages are stable. Without sortBy, ASC is the route's own order and DESC its
// reverse.
//
// JSON is built only for the page's rows: the page is chosen over the raw rows (each source's
// columns, `"user"."id" AS _api_w0_0, ...`) in a derived table with ORDER BY / LIMIT / OFFSET, and
// the row objects are built over that page, where each source's name is given back its columns
// (`CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", ...) AS "user"`), so the object, raw
// selectors and subqueries are the same SQL as in ONE and ARRAY. (Postgres would otherwise build
// every matching row's object before a top-N sort.) A grouped query, or one where a column is
// named like a source (a bare name would mean the column), builds the objects in the page query.
//
// Where the route allows (pagedKeys.ts), the page's keys are chosen first, over the tables
// alone, and a static helper builds the rows for them: the default request and every EXECUTE'd
// one below then take that form. Otherwise:
// The default request (no filter, no sortBy, ASC) runs a static query, planned once per
// connection by plpgsql, and so does its reverse (DESC) where the keys-first form fits, as
// keys first. Anything else (any filter, even of one condition: a static statement
// for it could not use the condition's index) runs the same query text with the filter and the
// order spliced in: both are built only from generator constants (this file, the compile-time
// column map), and the client's values are parameters (`$3`). The text runs through
// api.execute_cached (helpers.ts), a prepared statement of the connection that it runs only
// while it holds exactly that text, so nothing the calling session prepared under its name ever
// runs; no session setting is read as SQL, and no temporary object can shadow a name (the
// function's search_path ends with pg_temp, and api_gateway has no TEMPORARY privilege).
//
// Two more request options take a third query text, also through api.execute_cached (extendedPath
// below; the texts are in pagedText.ts, cursors in pagedKeyset.ts):
// - the total's mode (`$1->>'$count'`, set by the gateway from `Prefer: count=...`, else the
//   route's `total`): `exact` counts in the page's statement; `planned` reads the planner's row
//   estimate of the count query (EXPLAIN, nothing executed; for a whole table, the same estimate
//   from pg_class: plannedTotal.ts); `estimated` counts at most
//   ESTIMATED_EXACT_UP_TO + 1 rows and falls back to the estimate above that. Such answers say which
//   one they used in `totalMode`.
// - keyset pages (`after`): the page starts after a cursor, the last row's sort key (the sort
//   column, if any, then the primary key) as base64url JSON with the sortBy and sortOrder it was
//   made for. Its values are checked against the request, bound as `$4` and cast to their
//   columns' types: a client can only choose where the page starts, never SQL. The condition is a
//   row comparison where the directions agree, so an index on (sort column, primary key) reaches
//   any page as fast as the first. Answers carry `next`, the cursor after their last row (null
//   on a short page).

import { SORT_ORDERS, TOTAL_MODES } from "../../model/paging.ts";
import { join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { type ColumnMap, columnMapJson, filterColumns } from "../filter.ts";
import { COMPARISON_OPERATORS, filterComparison } from "../helpers.ts";
import { nl } from "../layout.ts";
import { allowedCall, raise, raiseComputed, SQLSTATE } from "../permissions.ts";
import { type CompiledQuery, orderList } from "../select.ts";
import { textArray } from "../values.ts";
import {
  keysFirstQuery,
  keysFirstStatements,
  PAGE_END_VARIABLE,
  type PageKey,
  pageFunctionStatements,
  pageKey,
} from "./pagedKeys.ts";
import { keysetFastPath, keysetStatements, keysetTail } from "./pagedKeyset.ts";
import {
  countedTotalPieces,
  countPieces,
  dynamicPieces,
  extendedPieces,
  KEYS_PAGE,
  keysFirstPieces,
  LIMIT,
  PAGE,
  PER_PAGE,
  pagedQuery,
  pagesRawRows,
} from "./pagedText.ts";
import { plannedTotalStatements } from "./plannedTotal.ts";
import type { Kind } from "./types.ts";
import { byVisibility } from "./visibility.ts";

/** The default request takes the keys-first form from this OFFSET on (pagedKeys.ts). */
export const KEYS_FIRST_FROM_OFFSET = 100;

/**
 * A request in the route's own order reversed (DESC): no filter, no sortBy, no cursor, an exact
 * total.
 */
const reversedOrderRequest = sql`_api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'DESC' AND _api_count = 'exact' AND NOT $1 ? 'after'`;

/**
 * The default request, told from the parameters alone, before any of them is read into a
 * variable and checked: none of sortBy, filter, a total's mode or a cursor, and sortOrder absent
 * or ASC. plpgsql sets up each expression it runs once per transaction, so the checks and
 * assignments this skips cost the example's first project page 42k of 2,074k instructions a call
 * (docs/performance.md). An empty sortBy, a null filter or `$count` exact sent explicitly take
 * the general path, which answers the same.
 */
const DEFAULT_REQUEST = sql`NOT $1 ?| ARRAY['sortBy', 'filter', '$count', 'after'] AND upper(COALESCE($1->>'sortOrder', 'ASC')) = 'ASC'`;

/** `estimated`: up to this many matches the total is exact, above it planned. */
export const ESTIMATED_EXACT_UP_TO = 1000;

export const paged: Kind = (route, compile, names) => {
  const unindented = compile("");
  const key = pageKey(unindented, pagesRawRows(unindented));
  return {
    ...(key ? { helpers: pageFunctionStatements(compile, key, names.page) } : {}),
    declare: [
      sql`_api_sort_order text;`,
      sql`_api_sort_by text;`,
      sql`_api_filter jsonb;`,
      sql`_api_columns jsonb;`,
      sql`_api_entry jsonb;`,
      // The filter's column, for a filter of one comparison (filterStatement).
      sql`_api_fentry jsonb;`,
      sql`_api_where text;`,
      sql`_api_order text;`,
      // api.filter_sql's result (vals, clause), assigned as an expression (no function scan).
      sql`_api_filtered record;`,
      sql`_api_values text[] := '{}';`,
      sql`_api_query text;`,
      sql`_api_count text;`,
      sql`_api_total bigint;`,
      sql`_api_plan json;`,
      sql`_api_cwhere text;`,
      sql`_api_extra text;`,
      sql`_api_keys text;`,
      sql`_api_key text;`,
      sql`_api_key_type text;`,
      sql`_api_key_desc boolean;`,
      sql`_api_tail_desc boolean;`,
      sql`_api_after jsonb;`,
      sql`_api_cursor text[];`,
      ...(key ? [sql`${trusted(PAGE_END_VARIABLE)} bigint;`] : []),
    ],
    statements: (indent) => {
      const i1 = `${indent}  `;
      const i2 = `${i1}  `;
      const q = compile(`${i1}    `);
      const map = filterColumns(q, q.scope.model.routeOf(route).filterColumns);
      const order = (descending: boolean) => orderList(q.order, q.tiebreak, descending).toString();
      const tiebreak = (descending: boolean) => orderList([], q.tiebreak, descending).toString();
      const [a, b, c, d] = dynamicPieces(q, i1).map((p) => literal(p));
      const ownOrder = orderList(q.order, q.tiebreak, false);
      // The default request's page in one statement, for its callers' object forms (visibility.ts).
      const staticPage = byVisibility(compile, i1, (compileAs, at) => [
        sql`RETURN (${pageWithProbes(compileAs(`${at}    `), at, ownOrder)});`,
      ]);
      // The route's own rows by keys first, in the own order or its reverse, as a static statement.
      const staticKeysFirst = (pageKey: PageKey, descending: boolean, at: string) =>
        keysFirstQuery(
          q,
          pageKey,
          names.page,
          {
            limit: LIMIT,
            where: q.where ?? sql`true`,
            order: orderList(q.order, q.tiebreak, descending),
            ownWhere: true,
          },
          at,
        );
      // Deep pages by keys first (the skipped rows on an index alone); the first pages in one
      // statement, which costs less than the helper's call there (the example's projects, page 1:
      // 190 us against 229 per call).
      const deepStatic = key
        ? sql`IF (${PAGE} - 1) * ${PER_PAGE} >= ${literal(KEYS_FIRST_FROM_OFFSET)} THEN${nl(`${i1}  `)}RETURN (${staticKeysFirst(key, false, `${i1}  `)});${nl(i1)}END IF;${nl(i1)}`
        : sql``;
      // The own order reversed (newest first, where the primary key orders the route): the same
      // keys-first statement in the other direction, static too, instead of a query text through
      // api.execute_cached (the example's projects, page 1 by DESC, pgbench, 2 clients: 1,990
      // calls a second through the text, 2,190 static; docs/performance.md).
      const reversedStatic = key
        ? [
            sql`IF ${reversedOrderRequest} THEN${nl(i1)}RETURN (${staticKeysFirst(key, true, i1)});${nl(indent)}END IF;`,
          ]
        : [];
      const sortOrders = textList(SORT_ORDERS);
      const keysetFast = keysetFastPath(q, map, route.total ?? "exact", indent);
      // A route whose total is not exact by default answers its default request on the extended path.
      const defaultPage =
        (route.total ?? "exact") === "exact"
          ? [
              sql`IF ${DEFAULT_REQUEST} THEN${nl(i1)}${deepStatic}${join(staticPage, nl(i1).toString())}${nl(indent)}END IF;`,
            ]
          : [];
      const statements: Sql[] = [
        ...keysetFast,
        sql`IF ${PAGE} < 1 OR ${PER_PAGE} < 1 THEN${nl(i1)}${raise(SQLSTATE.badRequest, "page and perPage must be at least 1")}${nl(indent)}END IF;`,
        ...defaultPage,
        sql`_api_sort_order := upper(COALESCE($1->>'sortOrder', 'ASC'));`,
        sql`IF _api_sort_order NOT IN (${sortOrders}) THEN${nl(i1)}${raise(SQLSTATE.badRequest, `sortOrder must be one of ${SORT_ORDERS.join(", ")}`)}${nl(indent)}END IF;`,
        sql`_api_sort_by := NULLIF($1->>'sortBy', '');`,
        sql`_api_filter := NULLIF($1->'filter', 'null'::jsonb);`,
        sql`_api_count := COALESCE($1->>'$count', ${literal(route.total ?? "exact")});`,
        sql`IF _api_count NOT IN (${textList(TOTAL_MODES)}) THEN${nl(i1)}${raise(SQLSTATE.badRequest, `count must be one of ${TOTAL_MODES.join(", ")}`)}${nl(indent)}END IF;`,
        ...reversedStatic,
        sql`_api_columns := ${literal(columnMapJson(map))}::jsonb;`,
        ...map.restricted.map(
          (r) =>
            sql`IF NOT ${allowedCall(r.access)} THEN${nl(i1)}_api_columns := _api_columns - ${textArray(r.keys)};${nl(indent)}END IF;`,
        ),
        sql`_api_where := ${literal(q.where ? `(${q.where.toString()})` : "true")};`,
        filterStatement(indent),
        sql`IF _api_sort_by IS NOT NULL THEN${nl(i1)}_api_entry := _api_columns -> _api_sort_by;${nl(i1)}IF _api_entry IS NULL OR NOT (_api_entry->>'sort')::boolean THEN${nl(i2)}${raiseComputed(SQLSTATE.badRequest, sql`format('column "%s" is not available for sorting', left(_api_sort_by, 200))`)}${nl(i1)}END IF;${nl(indent)}END IF;`,
        sql`_api_order := CASE${nl(i1)}WHEN _api_sort_order = 'RAND' THEN ${literal(`random(), ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'NONE' THEN ${literal(tiebreak(false))}${nl(i1)}WHEN _api_sort_by IS NOT NULL AND _api_sort_order = 'DESC' THEN (_api_entry->>'sql') || ${literal(` DESC, ${tiebreak(true)}`)}${nl(i1)}WHEN _api_sort_by IS NOT NULL THEN (_api_entry->>'sql') || ${literal(` ASC, ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'DESC' THEN ${literal(order(true))}${nl(i1)}ELSE ${literal(order(false))}${nl(indent)}END;`,
        sql`IF _api_count <> 'exact' OR $1 ? 'after' THEN${nl(i1)}${extendedPath(q, map, i1, keysetFast.length > 0)}${nl(indent)}END IF;`,
        ...(key ? [keysFirstStatements(keysFirstPieces(q, key, names.page, i1), KEYS_PAGE, indent)] : []),
        sql`_api_query := ${a as Sql}${nl(i1)}|| _api_where || ${b as Sql}${nl(i1)}|| _api_order || ${c as Sql}${nl(i1)}|| _api_where || ${d as Sql};`,
        sql`RETURN api.execute_cached(_api_query, $1, $2, _api_values, NULL, NULL, NULL, false);`,
      ];
      return statements;
    },
  };
};

/** The default request's page: the own order, its joins as probes where they can be (select.ts). */
function pageWithProbes(q: CompiledQuery, indent: string, order: Sql): Sql {
  return pagedQuery(q, indent, undefined, order, q.probedFrom ? { from: q.probedFrom } : {});
}

/**
 * The filter into `_api_where` and `_api_values`. A filter of one comparison of a column with one
 * value (`status eq active`, `id gt 10`), the common case, is written here, as api.filter_sql
 * writes it (filterComparison, after the same check of the value: api.filter_check_value); any
 * other goes through api.filter_sql. Its call costs the example's filtered project pages 88k of
 * 2,311k instructions a call: a plpgsql function sets up each of its statements again in every
 * transaction (docs/performance.md). Only the entries of plain columns may be filtered, and each
 * has a type; that type, spliced into the text as a cast, is the column map's (a generator
 * constant), and api.filter_check_value refuses any it does not know before that.
 */
function filterStatement(indent: string): Sql {
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const type = sql`(_api_fentry->>'type')`;
  const oneComparison = sql`(_api_filter->>'op') IN ${COMPARISON_OPERATORS} AND jsonb_typeof(_api_filter->'value') = 'string'${nl(i2)}AND (_api_fentry->>'filter')::boolean${nl(i2)}AND NOT _api_filter ?| ARRAY['and', 'or', 'not']`;
  const clause = filterComparison(sql`(_api_fentry->>'sql')`, sql`1`, sql`(_api_filter->>'op')`, type, i2);
  return join(
    [
      sql`IF _api_filter IS NOT NULL THEN`,
      sql`  _api_fentry := _api_columns -> (_api_filter->>'column');`,
      sql`  IF ${oneComparison} THEN`,
      sql`    IF ${type} <> 'text' THEN`,
      sql`      PERFORM api.filter_check_value(_api_filter->>'value', ${type}, _api_filter->>'column');`,
      sql`    END IF;`,
      sql`    _api_values := ARRAY[_api_filter->>'value'];`,
      sql`    _api_where := _api_where || ' AND ' || ${clause};`,
      sql`  ELSE`,
      sql`    _api_filtered := api.filter_sql(_api_filter, _api_columns, _api_values, 0);`,
      sql`    _api_values := _api_filtered.vals;`,
      sql`    _api_where := _api_where || ' AND ' || _api_filtered.clause;`,
      sql`  END IF;`,
      sql`END IF;`,
    ],
    nl(indent).toString(),
  );
}

function textList(items: readonly string[]): Sql {
  return items.map((i) => literal(i)).reduce((acc, l, n) => (n === 0 ? l : sql`${acc}, ${l}`));
}

/**
 * The statements of the extended path (total modes, keyset), run when the request asks for
 * either; they end with RETURN. `keysetFast`: the route has keysetFastPath's statements.
 */
function extendedPath(q: CompiledQuery, map: ColumnMap, indent: string, keysetFast: boolean): Sql {
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const [x0, x1, x2, x3, x4] = extendedPieces(q, i1).map((p) => literal(p));
  const [t0, t1] = countedTotalPieces(q, i1).map((p) => literal(p));
  const [c0, c1] = countPieces(q, i1).map((p) => literal(p));
  const tail = keysetTail(q, map);
  const reportMode = sql`_api_extra := _api_extra || ', ''totalMode'', $6::text';`;
  const statements: Sql[] = [
    sql`_api_cwhere := _api_where;`,
    sql`_api_keys := 'NULL';`,
    sql`_api_extra := '';`,
    sql`IF $1 ? 'after' THEN${nl(i1)}${join(keysetStatements(q, map, tail, i1, keysetFast), nl(i1).toString())}${nl(indent)}END IF;`,
    // Both totals run as prepared statements of the connection (execute_cached): the texts
    // depend on the request only through the filter, so they are planned once per connection.
    sql`IF _api_count = 'estimated' THEN${nl(i1)}_api_total := api.execute_cached('SELECT to_json(count(*)) FROM (' || ${c0 as Sql} || _api_cwhere || ${c1 as Sql} || ${literal(` LIMIT ${ESTIMATED_EXACT_UP_TO + 1}) AS _api_c`)},${nl(i2)}$1, $2, _api_values, NULL, NULL, NULL, false)::text::bigint;${nl(i1)}IF _api_total > ${literal(ESTIMATED_EXACT_UP_TO)} THEN${nl(i2)}_api_total := NULL;${nl(i2)}_api_count := 'planned';${nl(i1)}ELSE${nl(i2)}_api_count := 'exact';${nl(i1)}END IF;${nl(i1)}${reportMode}${nl(indent)}ELSIF _api_count = 'planned' THEN${nl(i1)}${reportMode}${nl(indent)}END IF;`,
    // The plan of the count query, nothing executed: EXPLAIN EXECUTE of its prepared statement;
    // for a whole table without a filter, the same estimate read from pg_class (plannedTotal.ts).
    sql`IF _api_count = 'planned' THEN${nl(i1)}${plannedTotalStatements(q, i1, (at) => sql`_api_plan := api.execute_cached(${c0 as Sql} || _api_cwhere || ${c1 as Sql},${nl(`${at}  `)}$1, $2, _api_values, NULL, NULL, NULL, true);${nl(at)}_api_total := round((_api_plan->0->'Plan'->>'Plan Rows')::numeric);`)}${nl(indent)}END IF;`,
    sql`_api_query := ${x0 as Sql}${nl(i1)}|| CASE WHEN _api_total IS NULL THEN ${t0 as Sql} || _api_cwhere || ${t1 as Sql} ELSE '$5' END${nl(i1)}|| _api_extra || ${x1 as Sql}${nl(i1)}|| _api_keys || ${x2 as Sql}${nl(i1)}|| _api_where || ${x3 as Sql}${nl(i1)}|| _api_order || ${x4 as Sql};`,
    sql`RETURN api.execute_cached(_api_query, $1, $2, _api_values, _api_cursor, _api_total, _api_count, false);`,
  ];
  return join(statements, nl(indent).toString());
}
