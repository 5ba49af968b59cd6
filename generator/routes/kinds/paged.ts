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
// The default request (no filter, no sortBy, ASC) runs a static query, planned once per
// connection by plpgsql; so does a filter of one condition on one column with the route's own
// order (singleFilter). Anything else runs the same query text with the filter and the order
// spliced in, through `EXECUTE ... USING`: both are built only from generator constants (this
// file, the compile-time column map), and the client's values are parameters (`$3`). EXECUTE
// plans on every call. It never runs anything the calling session could define: no prepared
// statement, no session setting read as SQL, no temporary object (the function's search_path
// ends with pg_temp, and api_gateway has no TEMPORARY privilege).

import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { type ColumnMap, columnMapJson, filterColumns } from "../filter.ts";
import { nl } from "../layout.ts";
import { allowedCall, raise, raiseComputed, SQLSTATE } from "../permissions.ts";
import { type CompiledQuery, orderList, selectSql } from "../select.ts";
import { type CastType, castSql, textArray } from "../values.ts";
import type { Kind } from "./types.ts";

export const DEFAULT_PER_PAGE = 10;
export const SORT_ORDERS = ["ASC", "DESC", "NONE", "RAND"] as const;

const PER_PAGE = sql`COALESCE(($1->>'perPage')::bigint, ${literal(DEFAULT_PER_PAGE)})`;
const PAGE = sql`COALESCE(($1->>'page')::bigint, 1)`;
const LIMIT = sql`${PER_PAGE} OFFSET (${PAGE} - 1) * ${PER_PAGE}`;

// Placeholders for the dynamic parts; a query text holding them already is refused.
const WHERE_MARK = "\u0001where\u0001";
const ORDER_MARK = "\u0001order\u0001";

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
  const pieces = text.split(new RegExp(`${WHERE_MARK}|${ORDER_MARK}`));
  const marks = [...text.matchAll(new RegExp(`${WHERE_MARK}|${ORDER_MARK}`, "g"))].map((m) => m[0]);
  if (pieces.length !== 4 || marks.join() !== [WHERE_MARK, ORDER_MARK, WHERE_MARK].join()) {
    throw new Error("a paged query's text holds a reserved placeholder character");
  }
  return pieces;
}

export const paged: Kind = (_route, compile) => ({
  declare: [
    sql`_api_sort_order text;`,
    sql`_api_sort_by text;`,
    sql`_api_filter jsonb;`,
    sql`_api_columns jsonb;`,
    sql`_api_entry jsonb;`,
    sql`_api_where text;`,
    sql`_api_order text;`,
    sql`_api_clause text;`,
    sql`_api_values text[] := '{}';`,
    sql`_api_result json;`,
    sql`_api_query text;`,
    sql`_api_fsql text;`,
    sql`_api_fop text;`,
  ],
  statements: (indent) => {
    const i1 = `${indent}  `;
    const i2 = `${i1}  `;
    const q = compile(`${i1}    `);
    const map = filterColumns(q);
    const order = (descending: boolean) => orderList(q.order, q.tiebreak, descending).toString();
    const tiebreak = (descending: boolean) => orderList([], q.tiebreak, descending).toString();
    const [a, b, c, d] = dynamicPieces(q, i1).map((p) => literal(p));
    const staticQuery = pagedQuery(q, i1, undefined, orderList(q.order, q.tiebreak, false));
    const sortOrders = textList(SORT_ORDERS);
    const statements: Sql[] = [
      sql`IF ${PAGE} < 1 OR ${PER_PAGE} < 1 THEN${nl(i1)}${raise(SQLSTATE.badRequest, "page and perPage must be at least 1")}${nl(indent)}END IF;`,
      sql`_api_sort_order := upper(COALESCE($1->>'sortOrder', 'ASC'));`,
      sql`IF _api_sort_order NOT IN (${sortOrders}) THEN${nl(i1)}${raise(SQLSTATE.badRequest, `sortOrder must be one of ${SORT_ORDERS.join(", ")}`)}${nl(indent)}END IF;`,
      sql`_api_sort_by := NULLIF($1->>'sortBy', '');`,
      sql`_api_filter := NULLIF($1->'filter', 'null'::jsonb);`,
      sql`IF _api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC' THEN${nl(i1)}RETURN (${staticQuery});${nl(indent)}END IF;`,
      sql`_api_columns := ${literal(columnMapJson(map))}::jsonb;`,
      ...map.restricted.map(
        (r) =>
          sql`IF NOT ${allowedCall(r.access)} THEN${nl(i1)}_api_columns := _api_columns - ${textArray(r.keys)};${nl(indent)}END IF;`,
      ),
      sql`_api_where := ${literal(q.where ? `(${q.where.toString()})` : "true")};`,
      sql`IF _api_filter IS NOT NULL THEN${nl(i1)}SELECT f.vals, f.clause INTO _api_values, _api_clause FROM api.filter_sql(_api_filter, _api_columns, _api_values, 0) AS f;${nl(i1)}_api_where := _api_where || ' AND ' || _api_clause;${nl(indent)}END IF;`,
      sql`IF _api_sort_by IS NOT NULL THEN${nl(i1)}_api_entry := _api_columns -> _api_sort_by;${nl(i1)}IF _api_entry IS NULL OR NOT (_api_entry->>'sort')::boolean THEN${nl(i2)}${raiseComputed(SQLSTATE.badRequest, sql`format('column "%s" is not available for sorting', left(_api_sort_by, 200))`)}${nl(i1)}END IF;${nl(indent)}END IF;`,
      ...singleFilter(q, map, indent),
      sql`_api_order := CASE${nl(i1)}WHEN _api_sort_order = 'RAND' THEN ${literal(`random(), ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'NONE' THEN ${literal(tiebreak(false))}${nl(i1)}WHEN _api_sort_by IS NOT NULL AND _api_sort_order = 'DESC' THEN (_api_entry->>'sql') || ${literal(` DESC, ${tiebreak(true)}`)}${nl(i1)}WHEN _api_sort_by IS NOT NULL THEN (_api_entry->>'sql') || ${literal(` ASC, ${tiebreak(false)}`)}${nl(i1)}WHEN _api_sort_order = 'DESC' THEN ${literal(order(true))}${nl(i1)}ELSE ${literal(order(false))}${nl(indent)}END;`,
      sql`_api_query := ${a as Sql}${nl(i1)}|| _api_where || ${b as Sql}${nl(i1)}|| _api_order || ${c as Sql}${nl(i1)}|| _api_where || ${d as Sql};`,
      sql`EXECUTE _api_query INTO _api_result USING $1, $2, _api_values;`,
      sql`RETURN _api_result;`,
    ];
    return statements;
  },
});

/**
 * The commonest filtered request, one condition on one column with the route's own order, as a
 * static statement: plpgsql plans it once per connection (EXECUTE would plan it on every call,
 * which costs more than running it). The condition holds one conjunct per filterable column,
 * true unless that column is the one chosen, and then a CASE over the operators with the SQL
 * api.filter_sql would write; the column and operator come from variables, the value from
 * `_api_values` (filled and checked by api.filter_sql just before, exactly as for EXECUTE). A
 * generic plan cannot use an index for that condition, but it keeps the route's where and order
 * on their indexes. JSON-key
 * filters, `and` / `or` / `not`, sortBy and other sort orders take the EXECUTE path.
 */
function singleFilter(q: CompiledQuery, map: ColumnMap, indent: string): Sql[] {
  const columns = new Map<string, CastType>();
  for (const e of map.entries.values()) if (e.filter && e.type) columns.set(e.sql, e.type);
  if (columns.size === 0) return [];
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const i3 = `${i2}  `;
  // One conjunct per column, each naming only that column, so that Postgres applies it at that
  // table's scan (a single CASE naming every column could only run after all the joins). The
  // column test is a sub-select of variables only: evaluated once per statement, not per row.
  const conjuncts = [...columns].map(
    ([expr, type]) => sql`((SELECT _api_fsql <> ${literal(expr)}) OR ${operatorCase(trusted(expr), type)})`,
  );
  const condition = sql`(${join(conjuncts, `${nl(`${i3}  `).toString()}AND `)})`;
  const where = q.where ? sql`(${q.where}) AND ${condition}` : condition;
  const query = pagedQuery(q, i2, where, orderList(q.order, q.tiebreak, false));
  return [
    sql`IF _api_filter IS NOT NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC'${nl(i1)}AND jsonb_typeof(_api_filter) = 'object' AND NOT (_api_filter ?| ARRAY['and', 'or', 'not']) THEN${nl(i1)}_api_entry := _api_columns -> (_api_filter->>'column');${nl(i1)}IF _api_entry IS NOT NULL AND (_api_entry->>'filter')::boolean THEN${nl(i2)}_api_fsql := _api_entry->>'sql';${nl(i2)}_api_fop := _api_filter->>'op';${nl(i2)}RETURN (${query});${nl(i1)}END IF;${nl(indent)}END IF;`,
  ];
}

/** api.filter_sql's condition for each operator, on `expr` of `type`, the value in `_api_values`. */
function operatorCase(expr: Sql, type: CastType): Sql {
  const text = type === "text";
  const value = text ? sql`_api_values[1]` : sql`CAST(_api_values[1] AS ${castSql(type)})`;
  const list = text ? sql`_api_values` : sql`CAST(_api_values AS ${castSql(type)}[])`;
  const asText = text ? expr : sql`${expr}::text`;
  const pattern = sql`api.like_literal(_api_values[1])`;
  const ops: [string, Sql][] = [
    ["eq", sql`${expr} = ${value}`],
    ["ne", sql`${expr} <> ${value}`],
    ["gt", sql`${expr} > ${value}`],
    ["gte", sql`${expr} >= ${value}`],
    ["lt", sql`${expr} < ${value}`],
    ["lte", sql`${expr} <= ${value}`],
    ["has", sql`${asText} ILIKE '%' || ${pattern} || '%'`],
    ["sw", sql`${asText} ILIKE ${pattern} || '%'`],
    ["ew", sql`${asText} ILIKE '%' || ${pattern}`],
    ["in", sql`${expr} = ANY(${list})`],
    ["null", sql`${expr} IS NULL`],
    ["notnull", sql`${expr} IS NOT NULL`],
  ];
  return sql`CASE _api_fop ${join(
    ops.map(([op, cond]) => sql`WHEN ${literal(op)} THEN ${cond}`),
    " ",
  )} END`;
}

function textList(items: readonly string[]): Sql {
  return items.map((i) => literal(i)).reduce((acc, l, n) => (n === 0 ? l : sql`${acc}, ${l}`));
}
