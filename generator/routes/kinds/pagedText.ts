// The texts of PAGED route functions (paged.ts): the page query in its one-statement form, and the
// query texts the function completes at run time (a filter, an order, a cursor, a total) as
// constants cut at placeholders, so that nothing but generator constants is ever spliced.

import { DEFAULT_PER_PAGE } from "../../model/paging.ts";
import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { nl } from "../layout.ts";
import { columnsRead } from "../rawSql.ts";
import { type CompiledQuery, countedRaws, selectSql } from "../select.ts";
import { keysFirstQuery, type PageKey } from "./pagedKeys.ts";

export const PER_PAGE = sql`COALESCE(($1->>'perPage')::bigint, ${literal(DEFAULT_PER_PAGE)})`;
export const PAGE = sql`COALESCE(($1->>'page')::bigint, 1)`;
export const LIMIT = sql`${PER_PAGE} OFFSET (${PAGE} - 1) * ${PER_PAGE}`;

// Placeholders for the dynamic parts; a query text holding them already is refused.
const WHERE_MARK = "\u0001where\u0001";
const ORDER_MARK = "\u0001order\u0001";
const COUNT_WHERE_MARK = "\u0001cwhere\u0001";
const KEYS_MARK = "\u0001keys\u0001";
const TOTAL_MARK = "\u0001total\u0001";
const LIMIT_MARK = "\u0001limit\u0001";

/** The page's last row, counted from 1: its keys are subscripts `(PAGE - 1) * PER_PAGE + 1` to this. */
export const PAGE_END = sql`${PAGE} * ${PER_PAGE}`;

/** The rows a bounded page keeps by position: after `after`, through `through` (counted from 1). */
export interface PageRange {
  after: Sql;
  through: Sql;
}

/** The request's page as a PageRange, read from the request's `$1` (what route functions get). */
const REQUEST_RANGE: PageRange = { after: sql`(${PAGE} - 1) * ${PER_PAGE}`, through: PAGE_END };

/** How pagedQuery cuts and joins its page (each optional). */
export interface PageOptions {
  /** The FROM of the page's rows (default: the query's). */
  from?: Sql;
  /**
   * The page is cut from the first `bound` rows (a constant the caller chooses, at least the
   * page's end) by their position (boundedPage), not by `LIMIT ... OFFSET ...`.
   */
  bound?: Sql;
  /** With `bound`: the positions kept (default: the request's page, from `$1`). */
  range?: PageRange;
  /**
   * Joins of `q.deferrable` made after the cut, as probes for the page's rows only (rawRows); the
   * rows are cut from `q.fromWithout` them. Only where the objects are built over raw rows.
   */
  deferred?: ReadonlySet<string>;
  /**
   * The total under `where` counted from countFrom, without the joins that decide no row: when
   * the where names none of them (countedTotal). Default: from filteredCountFrom.
   */
  countWithoutNeutral?: boolean;
}

/** The page as a JSON array and its exact total, in one statement, for a where and an order. */
export function pagedQuery(
  q: CompiledQuery,
  indent: string,
  where: Sql | undefined,
  order: Sql,
  options: PageOptions = {},
): Sql {
  const { bound, range = REQUEST_RANGE } = options;
  const inner = `${indent}  `;
  const rows = `${inner}  `;
  const base = where ? { where } : {};
  const total = sql`'total', ${countedTotal(q, indent, where, options.countWithoutNeutral)}`;
  const cut = (select: (rowsIndent: string, limit: Sql) => Sql): Sql =>
    bound ? boundedPage(select(`${rows}    `, bound), rows, range) : select(rows, LIMIT);
  if (!pagesRawRows(q)) {
    const from = options.from;
    const page = cut((at, limit) =>
      selectSql(q, at, { ...base, orderBy: order, limit, ...(from ? { from } : {}) }),
    );
    return sql`SELECT json_build_object(${nl(inner)}'data', COALESCE((SELECT json_agg(_api_r.j) FROM (${nl(rows)}${page}${nl(inner)}) AS _api_r), '[]'::json),${nl(inner)}${total})`;
  }
  const deferred = q.deferrable.filter((j) => options.deferred?.has(j.alias));
  const from = deferred.length > 0 ? q.fromWithout(new Set(deferred.map((j) => j.alias))) : options.from;
  const raw = rawRows(q, inner, deferred);
  const page = cut((at, limit) =>
    selectSql(q, at, { ...base, select: raw.select, orderBy: order, limit, ...(from ? { from } : {}) }),
  );
  return sql`SELECT json_build_object(${nl(inner)}'data', COALESCE((SELECT json_agg(${q.object}) FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p${raw.columns}), '[]'::json),${nl(inner)}${total})`;
}

/**
 * The page's rows by their position among the first rows of `select` (which ends with a constant
 * LIMIT), cut from it by `OFFSET ... LIMIT ...` outside a MATERIALIZED common table expression,
 * which Postgres plans on its own, for all its rows, in the order it keeps them. Why not the
 * request's `LIMIT ... OFFSET ...` on `select` itself: a generic plan sees those as unknown and
 * plans for a tenth of the matching rows, walking an index in the page's order where row security
 * or a filter leaves a few rows spread over the table (the example's projects filtered by status,
 * company 1: 2,000 index entries for 9 rows); over a plain subquery the outer LIMIT passes that
 * fraction down to it (pagedKeys.ts KEY_BOUNDS, measured). It numbered the rows with
 * `row_number() OVER ()` before, 28k instructions a call more for the example's filtered page.
 */
function boundedPage(select: Sql, indent: string, range: PageRange): Sql {
  const at = `${indent}  `;
  return sql`WITH _api_b AS MATERIALIZED (${nl(at)}${select}${nl(indent)}) SELECT * FROM _api_b OFFSET ${range.after} LIMIT ${range.through} - ${range.after}`;
}

/**
 * A page chosen over raw rows: the columns of each source that the object may read
 * (rawSql.ts `columnsRead`) in the page's select list (`"user"."id" AS _api_w0_0`), and the
 * laterals that give each source's name back those columns over the page (`_api_p`). Only those:
 * Postgres replaces the page's columns that nothing above reads with nulls, but every column
 * still costs each execution its place in the plan's tuple descriptors and projections (the
 * example's first project page: 72k of 2,135k instructions with all 31, docs/performance.md).
 * Column by column, not the source's whole row (`"user" AS _api_w0`), which is built in full for
 * every row before the LIMIT and taken apart again above it.
 */
function rawRows(
  q: CompiledQuery,
  inner: string,
  deferred: CompiledQuery["deferrable"] = [],
): { select: Sql; columns: Sql } {
  // The deferred joins' ON conditions read the carried columns too (the base's foreign key).
  const reads = columnsRead(
    [q.object, ...deferred.map((j) => j.on)].join(" "),
    q.scope.sources.map((s) => s.name),
  );
  const late = new Set(deferred.map((j) => j.alias));
  const sources = q.scope.sources.map((s, i) => ({
    source: s.name,
    name: ident(s.name),
    // The source's own columns (those sourceSql reads the table through) that the object reads.
    columns: q.scope.model
      .table(s.table.name)
      .readable.map((c, j) => ({ column: c.name, name: ident(c.name), alias: trusted(`_api_w${i}_${j}`) }))
      .filter((c) => reads(s.name, c.column)),
  }));
  const carried = sources.filter((s) => s.columns.length > 0 && !late.has(s.source));
  return {
    // A select list needs one column: an object that reads none still has one row per page row.
    select:
      carried.length > 0
        ? join(carried.flatMap((s) => s.columns.map((c) => sql`${s.name}.${c.name} AS ${c.alias}`)))
        : sql`NULL AS _api_none`,
    columns: join(
      [
        ...carried.map(
          (s) =>
            sql`${nl(inner)}CROSS JOIN LATERAL (SELECT ${join(s.columns.map((c) => sql`_api_p.${c.alias} AS ${c.name}`))}) AS ${s.name}`,
        ),
        ...deferred.map((j) => j.probe),
      ],
      "",
    ),
  };
}

/**
 * Whether the page can be chosen over raw rows: not grouped (a column is not a grouped value), and
 * no source has a column named like a source. The second rule dates from when the page selected
 * each source's whole row by its name (`"user"` would have been that column); such routes still
 * build their objects inside the page query.
 */
export function pagesRawRows(q: CompiledQuery): boolean {
  if (q.groupBy) return false;
  const names = new Set(q.scope.sources.map((s) => s.name));
  return !q.scope.sources.some((s) => s.table.columns.some((c) => names.has(c.name)));
}

/** The dynamic query text as constants around the two placeholders: A W B O C W D. */
export function dynamicPieces(q: CompiledQuery, indent: string): string[] {
  const text = pagedQuery(q, indent, trusted(WHERE_MARK), trusted(ORDER_MARK)).toString();
  return splitAt(text, [WHERE_MARK, ORDER_MARK, WHERE_MARK]);
}

/**
 * The same text with the page cut from a constant bound (pagedQuery `bound`), keeping the rows of
 * `range`, the joins of `deferred` made after the cut, the total counted without the joins that
 * decide no row when `countWithoutNeutral`: A W B O C <bound> D W E.
 */
export function boundedPieces(
  q: CompiledQuery,
  indent: string,
  range?: PageRange,
  deferred?: ReadonlySet<string>,
  countWithoutNeutral = false,
): string[] {
  const text = pagedQuery(q, indent, trusted(WHERE_MARK), trusted(ORDER_MARK), {
    bound: trusted(LIMIT_MARK),
    ...(range ? { range } : {}),
    ...(deferred ? { deferred } : {}),
    countWithoutNeutral,
  }).toString();
  return splitAt(text, [WHERE_MARK, ORDER_MARK, LIMIT_MARK, WHERE_MARK]);
}

/**
 * The keys-first text (pagedKeys.ts) around the same placeholders and the keys' limit, which
 * closes their array (keysFirstStatements): A W B O C <limit> D W E.
 */
export function keysFirstPieces(
  q: CompiledQuery,
  key: PageKey,
  pageFunction: string,
  indent: string,
): string[] {
  const marks = {
    limit: { tail: trusted(LIMIT_MARK) },
    where: trusted(WHERE_MARK),
    order: trusted(ORDER_MARK),
  };
  const text = keysFirstQuery(q, key, pageFunction, marks, indent).toString();
  return splitAt(text, [WHERE_MARK, ORDER_MARK, LIMIT_MARK, WHERE_MARK]);
}

/** The keys' page for keysFirstStatements: its end, its subscripts in the keys, and its LIMIT. */
export const KEYS_PAGE = {
  end: PAGE_END,
  slice: sql`(${PAGE} - 1) * ${PER_PAGE} + 1 : ${PAGE_END}`,
  limit: LIMIT,
};

/**
 * The query text for total modes and keyset pages, around four placeholders in this order: the
 * total followed by the answer's extra members (`next`, `totalMode`), the page's key list, the
 * page's where and its order. The total is `$5` when the function computed it before (planned, estimated),
 * else the count (countedTotalPieces). Two texts, not one `CASE WHEN $5 IS NULL`: Postgres folds
 * that CASE in a custom plan, so the generic plan, which keeps the count, always looked dearer and
 * every call was planned again. The page's rows are aggregated at the top level so that `next`
 * and `data` come from the same rows.
 */
export function extendedPieces(q: CompiledQuery, indent: string, limit: Sql = LIMIT): string[] {
  return splitAt(extendedText(q, indent, limit), [TOTAL_MARK, KEYS_MARK, WHERE_MARK, ORDER_MARK]);
}

/** The counted total, around its where (without the keyset condition). */
export function countedTotalPieces(q: CompiledQuery, indent: string): string[] {
  return splitAt(countedTotal(q, indent, trusted(COUNT_WHERE_MARK)).toString(), [COUNT_WHERE_MARK]);
}

/**
 * `(SELECT count(*) FROM (<the route's rows where countWhere>) AS _api_c)`. Under the route's own
 * where (no `countWhere`) the count leaves out the joins it does not need (select.ts countFrom);
 * a filter may read them, so under one it keeps them, those that decide no row as LEFT joins
 * (select.ts filteredCountFrom) that Postgres leaves out when nothing reads them, unless the
 * caller knows the where names none of them (`withoutNeutral`). Left out by the planner they
 * still cost each execution: their views' and tables' permission checks and locks (56k of the
 * example's filtered page's 1,276k instructions for two joins).
 */
export function countedTotal(
  q: CompiledQuery,
  indent: string,
  countWhere: Sql | undefined,
  withoutNeutral = false,
): Sql {
  const rows = `${indent}    `;
  const where = countWhere
    ? { where: countWhere, from: withoutNeutral ? q.countFrom : q.filteredCountFrom }
    : { from: q.countFrom };
  const countSelect = selectSql(q, rows, { ...where, select: countSelectList(q) });
  return sql`(SELECT count(*) FROM (${nl(rows)}${countSelect}${nl(`${indent}  `)}) AS _api_c)`;
}

/**
 * The page's text; placeholders for the total and extra members, keys, where and order. `limit`:
 * what follows LIMIT (the request's page by default).
 */
function extendedText(q: CompiledQuery, indent: string, limit: Sql): string {
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
      limit,
    });
    text =
      sql`SELECT json_build_object(${nl(inner)}'data', COALESCE(json_agg(_api_p.j), '[]'::json),${nl(inner)}${totalMember})${nl(inner)}FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p`.toString();
  } else {
    const raw = rawRows(q, inner);
    const page = selectSql(q, rows, {
      where,
      select: sql`${raw.select}, ${keys}`,
      orderBy: trusted(ORDER_MARK),
      limit,
    });
    text =
      sql`SELECT json_build_object(${nl(inner)}'data', COALESCE(json_agg(${q.object}), '[]'::json),${nl(inner)}${totalMember})${nl(inner)}FROM (${nl(rows)}${page}${nl(inner)}) AS _api_p${raw.columns}`.toString();
  }
  return text;
}

/** The count query's text around its where: what EXPLAIN reads for `planned`. */
export function countPieces(q: CompiledQuery, indent: string): string[] {
  const text = selectSql(q, indent, {
    where: trusted(COUNT_WHERE_MARK),
    select: countSelectList(q),
  }).toString();
  return splitAt(text, [COUNT_WHERE_MARK]);
}

/** `1` and the raw selectors that could change the number of rows (select.ts countedRaws). */
function countSelectList(q: CompiledQuery): Sql {
  return sql`1${countedRaws(q.properties).reduce((a, r) => sql`${a}, ${r}`, sql``)}`;
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
