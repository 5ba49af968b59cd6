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
// whole row, `"user" AS _api_w0`) in a derived table with ORDER BY / LIMIT / OFFSET, and the row
// objects are built over that page, where each source's name is given back its columns
// (`CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"`), so the object, raw selectors and
// subqueries are the same SQL as in ONE and ARRAY. (Postgres would otherwise build every
// matching row's object before a top-N sort.) A grouped query, or one where a column is named
// like a source (a bare name would mean the column), builds the objects in the page query.
//
// Where the route allows (pagedKeys.ts), the page's keys are chosen first, over the tables
// alone, and a static helper builds the rows for them: the default request and every EXECUTE'd
// one below then take that form. Otherwise:
// The default request (no filter, no sortBy, ASC) runs a static query, planned once per
// connection by plpgsql. Anything else (any filter, even of one condition: a static statement
// for it could not use the condition's index) runs the same query text with the filter and the
// order spliced in: both are built only from generator constants (this file, the compile-time
// column map), and the client's values are parameters (`$3`). The text runs through
// api.execute_cached (helpers.ts), a prepared statement of the connection that it runs only
// while it holds exactly that text, so nothing the calling session prepared under its name ever
// runs; no session setting is read as SQL, and no temporary object can shadow a name (the
// function's search_path ends with pg_temp, and api_gateway has no TEMPORARY privilege).
//
// Two more request options take a third query text, also through api.execute_cached (extended()):
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

import { DEFAULT_PER_PAGE, SORT_ORDERS, TOTAL_MODES } from "../../model/paging.ts";
import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { type ColumnMap, columnMapJson, filterColumns } from "../filter.ts";
import { nl } from "../layout.ts";
import { allowedCall, raise, raiseComputed, SQLSTATE } from "../permissions.ts";
import { primaryKeyColumns } from "../scope.ts";
import { type CompiledQuery, orderList, selectSql } from "../select.ts";
import { type CastType, castSql, textArray } from "../values.ts";
import {
  keysFirstQuery,
  keysFirstStatements,
  type PageKey,
  pageFunctionStatements,
  pageKey,
} from "./pagedKeys.ts";
import { plannedTotalStatements, tableSizeEstimate } from "./plannedTotal.ts";
import type { Kind } from "./types.ts";

/** The default request takes the keys-first form from this OFFSET on (pagedKeys.ts). */
export const KEYS_FIRST_FROM_OFFSET = 100;

/** `estimated`: up to this many matches the total is exact, above it planned. */
export const ESTIMATED_EXACT_UP_TO = 1000;

const PER_PAGE = sql`COALESCE(($1->>'perPage')::bigint, ${literal(DEFAULT_PER_PAGE)})`;
const PAGE = sql`COALESCE(($1->>'page')::bigint, 1)`;
const LIMIT = sql`${PER_PAGE} OFFSET (${PAGE} - 1) * ${PER_PAGE}`;

// Placeholders for the dynamic parts; a query text holding them already is refused.
const WHERE_MARK = "\u0001where\u0001";
const ORDER_MARK = "\u0001order\u0001";
const COUNT_WHERE_MARK = "\u0001cwhere\u0001";
const KEYS_MARK = "\u0001keys\u0001";
const TOTAL_MARK = "\u0001total\u0001";

function pagedQuery(q: CompiledQuery, indent: string, where: Sql | undefined, order: Sql): Sql {
  const inner = `${indent}  `;
  const rows = `${inner}  `;
  const base = where ? { where } : {};
  const raws = q.properties.filter((p) => p.kind === "raw").map((p) => sql`, ${p.expr}`);
  const countSelect = selectSql(q, rows, {
    ...base,
    select: sql`1${raws.reduce((a, r) => sql`${a}${r}`, sql``)}`,
  });
  const total = sql`'total', (SELECT count(*) FROM (${nl(rows)}${countSelect}${nl(inner)}) AS _api_c)`;
  if (!pagesRawRows(q)) {
    const page = selectSql(q, rows, { ...base, orderBy: order, limit: LIMIT });
    return sql`SELECT json_build_object(${nl(inner)}'data', COALESCE((SELECT json_agg(_api_r.j) FROM (${nl(rows)}${page}${nl(inner)}) AS _api_r), '[]'::json),${nl(inner)}${total})`;
  }
  const sources = q.scope.sources.map((s, i) => ({ name: ident(s.name), row: trusted(`_api_w${i}`) }));
  const page = selectSql(q, rows, {
    ...base,
    select: join(sources.map((s) => sql`${s.name} AS ${s.row}`)),
    orderBy: order,
    limit: LIMIT,
  });
  const columns = sources.map(
    (s) => sql`${nl(inner)}CROSS JOIN LATERAL (SELECT (_api_p.${s.row}).*) AS ${s.name}`,
  );
  return sql`SELECT json_build_object(${nl(inner)}'data', COALESCE((SELECT json_agg(${q.object}) FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p${join(columns, "")}), '[]'::json),${nl(inner)}${total})`;
}

/**
 * Whether the page can be chosen over raw rows: not grouped (a whole row is not a grouped value),
 * and no source has a column named like a source (`"user"` would then be that column, not the row).
 */
function pagesRawRows(q: CompiledQuery): boolean {
  if (q.groupBy) return false;
  const names = new Set(q.scope.sources.map((s) => s.name));
  return !q.scope.sources.some((s) => s.table.columns.some((c) => names.has(c.name)));
}

/** The dynamic query text as constants around the two placeholders: A W B O C W D. */
function dynamicPieces(q: CompiledQuery, indent: string): string[] {
  const text = pagedQuery(q, indent, trusted(WHERE_MARK), trusted(ORDER_MARK)).toString();
  return splitAt(text, [WHERE_MARK, ORDER_MARK, WHERE_MARK]);
}

/** The keys-first text (pagedKeys.ts) around the same placeholders: A W B O C W D. */
function keysFirstPieces(q: CompiledQuery, key: PageKey, pageFunction: string, indent: string): string[] {
  const marks = { limit: LIMIT, where: trusted(WHERE_MARK), order: trusted(ORDER_MARK) };
  const text = keysFirstQuery(q, key, pageFunction, marks, indent).toString();
  return splitAt(text, [WHERE_MARK, ORDER_MARK, WHERE_MARK]);
}

export const paged: Kind = (route, compile, names) => {
  const unindented = compile("");
  const key = pageKey(unindented, pagesRawRows(unindented));
  return {
    ...(key ? { helpers: pageFunctionStatements(compile("      "), key, names.page) } : {}),
    declare: [
      sql`_api_sort_order text;`,
      sql`_api_sort_by text;`,
      sql`_api_filter jsonb;`,
      sql`_api_columns jsonb;`,
      sql`_api_entry jsonb;`,
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
      const staticQuery = pagedQuery(q, i1, undefined, ownOrder);
      // Deep pages by keys first (the skipped rows on an index alone); the first pages in one
      // statement, which costs less than the helper's call there (the example's projects, page 1:
      // 190 us against 229 per call).
      const deepStatic = key
        ? sql`IF (${PAGE} - 1) * ${PER_PAGE} >= ${literal(KEYS_FIRST_FROM_OFFSET)} THEN${nl(`${i1}  `)}RETURN (${keysFirstQuery(q, key, names.page, { limit: LIMIT, where: q.where ?? sql`true`, order: ownOrder }, `${i1}  `)});${nl(i1)}END IF;${nl(i1)}`
        : sql``;
      const sortOrders = textList(SORT_ORDERS);
      const statements: Sql[] = [
        sql`IF ${PAGE} < 1 OR ${PER_PAGE} < 1 THEN${nl(i1)}${raise(SQLSTATE.badRequest, "page and perPage must be at least 1")}${nl(indent)}END IF;`,
        sql`_api_sort_order := upper(COALESCE($1->>'sortOrder', 'ASC'));`,
        sql`IF _api_sort_order NOT IN (${sortOrders}) THEN${nl(i1)}${raise(SQLSTATE.badRequest, `sortOrder must be one of ${SORT_ORDERS.join(", ")}`)}${nl(indent)}END IF;`,
        sql`_api_sort_by := NULLIF($1->>'sortBy', '');`,
        sql`_api_filter := NULLIF($1->'filter', 'null'::jsonb);`,
        sql`_api_count := COALESCE($1->>'$count', ${literal(route.total ?? "exact")});`,
        sql`IF _api_count NOT IN (${textList(TOTAL_MODES)}) THEN${nl(i1)}${raise(SQLSTATE.badRequest, `count must be one of ${TOTAL_MODES.join(", ")}`)}${nl(indent)}END IF;`,
        sql`IF _api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC' AND _api_count = 'exact' AND NOT $1 ? 'after' THEN${nl(i1)}${deepStatic}RETURN (${staticQuery});${nl(indent)}END IF;`,
        sql`_api_columns := ${literal(columnMapJson(map))}::jsonb;`,
        ...map.restricted.map(
          (r) =>
            sql`IF NOT ${allowedCall(r.access)} THEN${nl(i1)}_api_columns := _api_columns - ${textArray(r.keys)};${nl(indent)}END IF;`,
        ),
        sql`_api_where := ${literal(q.where ? `(${q.where.toString()})` : "true")};`,
        sql`IF _api_filter IS NOT NULL THEN${nl(i1)}_api_filtered := api.filter_sql(_api_filter, _api_columns, _api_values, 0);${nl(i1)}_api_values := _api_filtered.vals;${nl(i1)}_api_where := _api_where || ' AND ' || _api_filtered.clause;${nl(indent)}END IF;`,
        sql`IF _api_sort_by IS NOT NULL THEN${nl(i1)}_api_entry := _api_columns -> _api_sort_by;${nl(i1)}IF _api_entry IS NULL OR NOT (_api_entry->>'sort')::boolean THEN${nl(i2)}${raiseComputed(SQLSTATE.badRequest, sql`format('column "%s" is not available for sorting', left(_api_sort_by, 200))`)}${nl(i1)}END IF;${nl(indent)}END IF;`,
        sql`_api_order := CASE${nl(i1)}WHEN _api_sort_order = 'RAND' THEN ${literal(`random(), ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'NONE' THEN ${literal(tiebreak(false))}${nl(i1)}WHEN _api_sort_by IS NOT NULL AND _api_sort_order = 'DESC' THEN (_api_entry->>'sql') || ${literal(` DESC, ${tiebreak(true)}`)}${nl(i1)}WHEN _api_sort_by IS NOT NULL THEN (_api_entry->>'sql') || ${literal(` ASC, ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'DESC' THEN ${literal(order(true))}${nl(i1)}ELSE ${literal(order(false))}${nl(indent)}END;`,
        sql`IF _api_count <> 'exact' OR $1 ? 'after' THEN${nl(i1)}${extendedPath(q, map, i1)}${nl(indent)}END IF;`,
        ...(key ? [keysFirstStatements(keysFirstPieces(q, key, names.page, i1), indent)] : []),
        sql`_api_query := ${a as Sql}${nl(i1)}|| _api_where || ${b as Sql}${nl(i1)}|| _api_order || ${c as Sql}${nl(i1)}|| _api_where || ${d as Sql};`,
        sql`RETURN api.execute_cached(_api_query, $1, $2, _api_values, NULL, NULL, NULL, false);`,
      ];
      return statements;
    },
  };
};

function textList(items: readonly string[]): Sql {
  return items.map((i) => literal(i)).reduce((acc, l, n) => (n === 0 ? l : sql`${acc}, ${l}`));
}

/**
 * The query text for total modes and keyset pages, around four placeholders in this order: the
 * total followed by the answer's extra members (`next`, `totalMode`), the page's key list, the
 * page's where and its order. The total is `$5` when the function computed it before (planned, estimated),
 * else the count (countedTotalPieces). Two texts, not one `CASE WHEN $5 IS NULL`: Postgres folds
 * that CASE in a custom plan, so the generic plan, which keeps the count, always looked dearer and
 * every call was planned again. The page's rows are aggregated at the top level so that `next`
 * and `data` come from the same rows.
 */
function extendedPieces(q: CompiledQuery, indent: string): string[] {
  return splitAt(extendedText(q, indent), [TOTAL_MARK, KEYS_MARK, WHERE_MARK, ORDER_MARK]);
}

/** The counted total, around its where (without the keyset condition). */
function countedTotalPieces(q: CompiledQuery, indent: string): string[] {
  return splitAt(countedTotal(q, indent, trusted(COUNT_WHERE_MARK)).toString(), [COUNT_WHERE_MARK]);
}

/** `(SELECT count(*) FROM (<the route's rows where countWhere>) AS _api_c)`. */
function countedTotal(q: CompiledQuery, indent: string, countWhere: Sql): Sql {
  const rows = `${indent}    `;
  const countSelect = selectSql(q, rows, { where: countWhere, select: countSelectList(q) });
  return sql`(SELECT count(*) FROM (${nl(rows)}${countSelect}${nl(`${indent}  `)}) AS _api_c)`;
}

/** The page's text; placeholders for the total and extra members, keys, where and order. */
function extendedText(q: CompiledQuery, indent: string): string {
  const inner = `${indent}  `;
  const rows = `${inner}  `;
  const where = trusted(WHERE_MARK);
  const totalMember = sql`'total', ${trusted(TOTAL_MARK)}`;
  const keys = sql`${trusted(KEYS_MARK)} AS _api_k`;
  let text: string;
  if (!pagesRawRows(q)) {
    const page = selectSql(q, rows, {
      where,
      select: sql`${q.object} AS j, ${keys}`,
      orderBy: trusted(ORDER_MARK),
      limit: LIMIT,
    });
    text =
      sql`SELECT json_build_object(${nl(inner)}'data', COALESCE(json_agg(_api_p.j), '[]'::json),${nl(inner)}${totalMember})${nl(inner)}FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p`.toString();
  } else {
    const sources = q.scope.sources.map((s, i) => ({ name: ident(s.name), row: trusted(`_api_w${i}`) }));
    const page = selectSql(q, rows, {
      where,
      select: sql`${join(sources.map((s) => sql`${s.name} AS ${s.row}`))}, ${keys}`,
      orderBy: trusted(ORDER_MARK),
      limit: LIMIT,
    });
    const columns = sources.map(
      (s) => sql`${nl(inner)}CROSS JOIN LATERAL (SELECT (_api_p.${s.row}).*) AS ${s.name}`,
    );
    text =
      sql`SELECT json_build_object(${nl(inner)}'data', COALESCE(json_agg(${q.object}), '[]'::json),${nl(inner)}${totalMember})${nl(inner)}FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p${join(columns, "")}`.toString();
  }
  return text;
}

/** The count query's text around its where: what EXPLAIN reads for `planned`. */
function countPieces(q: CompiledQuery, indent: string): string[] {
  const text = selectSql(q, indent, {
    where: trusted(COUNT_WHERE_MARK),
    select: countSelectList(q),
  }).toString();
  return splitAt(text, [COUNT_WHERE_MARK]);
}

function countSelectList(q: CompiledQuery): Sql {
  const raws = q.properties.filter((p) => p.kind === "raw").map((p) => sql`, ${p.expr}`);
  return sql`1${raws.reduce((a, r) => sql`${a}${r}`, sql``)}`;
}

/** `text` cut at each mark, in this order (a mark listed twice occurs twice). */
function splitAt(text: string, marks: string[]): string[] {
  const pattern = new RegExp(marks.join("|"), "g");
  const found = [...text.matchAll(pattern)].map((m) => m[0]);
  if (found.join() !== marks.join()) {
    throw new Error("a paged query's text holds a reserved placeholder character");
  }
  return text.split(pattern);
}

/** What a keyset page sorts by after its first key: the base table's primary key columns. */
interface KeysetTail {
  /** Column SQL, e.g. `"user"."id"`. */
  sql: string[];
  /** Their types, for casting the cursor's values. */
  types: CastType[];
  /** The column map keys that must be visible to the caller (one per column). */
  names: string[];
}

/**
 * Whether this route can page by cursor, and with what tail; otherwise why not. Every key column
 * must be one the route returns and the caller sees (the cursor carries its values).
 */
function keysetTail(q: CompiledQuery, map: ColumnMap): KeysetTail | string {
  if (q.groupBy || !pagesRawRows(q)) return "the route is grouped";
  const base = q.scope.sources[0];
  if (!base) return "the route has no table";
  const pk = primaryKeyColumns(base.table).map((c) => ident(base.name, c).toString());
  if (q.tiebreak.map((t) => t.toString()).join() !== pk.join()) {
    return "a join adds several rows per row";
  }
  const tail: KeysetTail = { sql: [], types: [], names: [] };
  for (const column of pk) {
    const found = entryFor(map, column);
    if (!found) return "its primary key is not in the response";
    tail.sql.push(column);
    tail.types.push(found.type);
    tail.names.push(found.name);
  }
  return tail;
}

/** The first column map entry (name and type) for a column's SQL, if the route returns it. */
function entryFor(map: ColumnMap, columnSql: string): { name: string; type: CastType } | undefined {
  for (const [name, e] of map.entries) {
    if (e.sql === columnSql && e.type !== null) return { name, type: e.type };
  }
  return undefined;
}

/** `(a, b) > (CAST($4[i] AS t), ...)` for the tail, values from position `from` (1-based). */
function tailCondition(tail: KeysetTail, from: number, descending: boolean): string {
  const values = tail.types.map((t, i) => `CAST($4[${from + i}] AS ${castSql(t).toString()})`);
  return `((${tail.sql.join(", ")}) ${descending ? "<" : ">"} (${values.join(", ")}))`;
}

/**
 * The statements of the extended path (total modes, keyset), run when the request asks for
 * either; they end with RETURN.
 */
function extendedPath(q: CompiledQuery, map: ColumnMap, indent: string): Sql {
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
    sql`IF $1 ? 'after' THEN${nl(i1)}${join(keysetStatements(q, map, tail, i1), nl(i1).toString())}${nl(indent)}END IF;`,
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

/** Checks the request and the cursor, and sets the key list, the `next` member and the condition. */
function keysetStatements(
  q: CompiledQuery,
  map: ColumnMap,
  tail: KeysetTail | string,
  indent: string,
): Sql[] {
  if (typeof tail === "string") {
    return [raise(SQLSTATE.badRequest, `after: this route cannot page by cursor (${tail})`)];
  }
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const bad = (message: string) => raise(SQLSTATE.badRequest, message);
  const own = q.order[0];
  const ownEntry = own ? entryFor(map, own.expr.toString()) : undefined;
  const ownKey: Sql[] = !own
    ? [sql`_api_key := NULL;`]
    : !ownEntry
      ? [
          bad(
            "after: this route cannot page by cursor in its own order (its order column is not in the response); use sortBy",
          ),
        ]
      : [
          sql`IF NOT _api_columns ? ${literal(ownEntry.name)} THEN${nl(i2)}${bad("after: this route's order column is hidden from you; use sortBy")}${nl(i1)}END IF;`,
          sql`_api_key := ${literal(own.expr.toString())};`,
          sql`_api_key_type := ${literal(castSql(ownEntry.type).toString())};`,
          sql`_api_key_desc := ${literal(own.descending)} <> (_api_sort_order = 'DESC');`,
        ];
  const tailSql = tail.sql.join(", ");
  const cursorText = `translate(encode(convert_to(json_build_object('s', COALESCE(NULLIF($1->>'sortBy', ''), ''), 'o', upper(COALESCE($1->>'sortOrder', 'ASC')), 'k', (array_agg(_api_p._api_k))[count(*)])::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_')`;
  const next = `, 'next', CASE WHEN count(*) = ${PER_PAGE.toString()} THEN ${cursorText} END`;
  const decoded = sql`convert_from(decode(rpad(translate($1->>'after', '-_', '+/'), (length($1->>'after') + 3) / 4 * 4, '='), 'base64'), 'UTF8')::jsonb`;
  return [
    sql`IF _api_sort_order = 'RAND' THEN${nl(i1)}${bad("after cannot be combined with sortOrder RAND")}${nl(indent)}END IF;`,
    sql`IF ${PAGE} <> 1 THEN${nl(i1)}${bad("after cannot be combined with page")}${nl(indent)}END IF;`,
    sql`IF NOT (_api_columns ?& ${textArray(tail.names)}) THEN${nl(i1)}${bad("after: this route's primary key is hidden from you")}${nl(indent)}END IF;`,
    sql`IF _api_sort_by IS NOT NULL THEN${nl(i1)}IF _api_entry->>'type' IS NULL THEN${nl(i2)}${bad("after cannot be combined with sorting by a computed property")}${nl(i1)}END IF;${nl(i1)}_api_key := _api_entry->>'sql';${nl(i1)}_api_key_type := _api_entry->>'type';${nl(i1)}_api_key_desc := _api_sort_order = 'DESC';${nl(indent)}ELSIF _api_sort_order = 'NONE' THEN${nl(i1)}_api_key := NULL;${nl(indent)}ELSE${nl(i1)}${join(ownKey, nl(i1).toString())}${nl(indent)}END IF;`,
    sql`_api_tail_desc := _api_sort_order = 'DESC';`,
    sql`_api_keys := 'json_build_array(' || CASE WHEN _api_key IS NULL THEN '' ELSE _api_key || ', ' END || ${literal(`${tailSql})`)};`,
    sql`_api_extra := ${literal(next)};`,
    sql`IF $1->>'after' <> '' THEN${nl(i1)}BEGIN${nl(i2)}_api_after := ${decoded};${nl(i1)}EXCEPTION WHEN OTHERS THEN${nl(i2)}_api_after := NULL;${nl(i1)}END;${nl(i1)}IF _api_after IS NULL OR jsonb_typeof(_api_after) <> 'object' OR jsonb_typeof(_api_after->'k') IS DISTINCT FROM 'array'${nl(i2)}OR (_api_after->>'s') IS DISTINCT FROM COALESCE(_api_sort_by, '') OR (_api_after->>'o') IS DISTINCT FROM _api_sort_order${nl(i2)}OR jsonb_array_length(_api_after->'k') <> ${literal(tail.sql.length)} + (CASE WHEN _api_key IS NULL THEN 0 ELSE 1 END) THEN${nl(i2)}${bad("after is not a cursor of this route for this sortBy and sortOrder")}${nl(i1)}END IF;${nl(i1)}_api_cursor := ARRAY(SELECT jsonb_array_elements_text(_api_after->'k'));${nl(i1)}_api_where := _api_where || ' AND ' || ${keysetCondition(tail, i1)};${nl(indent)}END IF;`,
    ...staticKeyset(q, tail, indent, next),
  ];
}

/**
 * The commonest keyset request (the route's own order, which is its primary key; no filter, no
 * sortBy, ASC, exact total) as two static statements, the first page and the pages after a
 * cursor, which plpgsql plans once per connection: through EXECUTE every page would be planned
 * again. The cursor's values are the variable `_api_cursor`, cast as in keysetCondition. A
 * planned total read from pg_class (plannedTotal.ts) gets two more, with that figure as total.
 */
function staticKeyset(q: CompiledQuery, tail: KeysetTail, indent: string, next: string): Sql[] {
  if (q.order.length > 0) return [];
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const routeWhere = q.where ? `(${q.where.toString()})` : "true";
  const after = tailCondition(tail, 1, false).replaceAll("$4[", "_api_cursor[");
  const keys = `json_build_array(${tail.sql.join(", ")})`;
  const order = orderList(q.order, q.tiebreak, false).toString();
  const [p0, p1, p2, p3, p4] = extendedPieces(q, i2);
  const text = (where: string, total: string) =>
    trusted(`${p0}${total}${p1}${keys}${p2}${where}${p3}${order}${p4}`);
  const pair = (total: string) =>
    sql`IF _api_cursor IS NULL THEN${nl(i2)}RETURN (${text(routeWhere, total)});${nl(i1)}END IF;${nl(i1)}RETURN (${text(`${routeWhere} AND ${after}`, total)});`;
  const ownOrder = "_api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC'";
  const counted = `${countedTotal(q, i2, trusted(routeWhere)).toString()}${next}`;
  const statements = [
    sql`IF _api_count = 'exact' AND ${trusted(ownOrder)} THEN${nl(i1)}${pair(counted)}${nl(indent)}END IF;`,
  ];
  // A planned total read from pg_class (plannedTotal.ts) needs no query text either.
  const estimate = tableSizeEstimate(q);
  if (estimate) {
    statements.push(
      sql`IF _api_count = 'planned' AND ${trusted(ownOrder)} THEN${nl(i1)}_api_total := ${estimate};${nl(indent)}END IF;`,
      sql`IF _api_count = 'planned' AND _api_total IS NOT NULL AND ${trusted(ownOrder)} THEN${nl(i1)}${pair(`_api_total${next}, 'totalMode', 'planned'::text`)}${nl(indent)}END IF;`,
    );
  }
  return statements;
}

/**
 * The condition "after the cursor" as text. Without a first key: the tail's row comparison. With
 * one (`$4[1]`, the tail from `$4[2]`): NULLs sort last ascending and first descending, as ORDER
 * BY puts them; where the key and the tail run the same way it is one row comparison over all
 * keys, which an index on (key, primary key) answers directly.
 */
function keysetCondition(tail: KeysetTail, indent: string): Sql {
  const i1 = `${indent}  `;
  const t = (from: number, desc: boolean) => literal(tailCondition(tail, from, desc));
  const tailSql = literal(tail.sql.join(", "));
  const tailValues = literal(
    tail.types.map((ty, i) => `CAST($4[${i + 2}] AS ${castSql(ty).toString()})`).join(", "),
  );
  const key = sql`_api_key`;
  const value = sql`('CAST($4[1] AS ' || _api_key_type || ')')`;
  const tailAfter = sql`CASE WHEN _api_tail_desc THEN ${t(2, true)} ELSE ${t(2, false)} END`;
  return sql`CASE${nl(i1)}WHEN _api_key IS NULL THEN CASE WHEN _api_tail_desc THEN ${t(1, true)} ELSE ${t(1, false)} END${nl(i1)}WHEN _api_cursor[1] IS NULL AND _api_key_desc THEN '(' || ${key} || ' IS NOT NULL OR (' || ${key} || ' IS NULL AND ' || ${tailAfter} || '))'${nl(i1)}WHEN _api_cursor[1] IS NULL THEN '(' || ${key} || ' IS NULL AND ' || ${tailAfter} || ')'${nl(i1)}WHEN _api_key_desc = _api_tail_desc AND _api_key_desc THEN '((' || ${key} || ', ' || ${tailSql} || ') < (' || ${value} || ', ' || ${tailValues} || '))'${nl(i1)}WHEN _api_key_desc = _api_tail_desc THEN '(((' || ${key} || ', ' || ${tailSql} || ') > (' || ${value} || ', ' || ${tailValues} || ')) OR ' || ${key} || ' IS NULL)'${nl(i1)}WHEN _api_key_desc THEN '(' || ${key} || ' < ' || ${value} || ' OR (' || ${key} || ' = ' || ${value} || ' AND ' || ${tailAfter} || '))'${nl(i1)}ELSE '(' || ${key} || ' > ' || ${value} || ' OR ' || ${key} || ' IS NULL OR (' || ${key} || ' = ' || ${value} || ' AND ' || ${tailAfter} || '))'${nl(indent)}END`;
}
