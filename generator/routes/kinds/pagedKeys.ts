// PAGED pages whose keys are chosen first and whose JSON a second, static function builds: the
// "keys-first" path, for the default request past the first pages (a static statement, see
// KEYS_FIRST_FROM_OFFSET) and for those that EXECUTE a query text (a filter, a sortBy, another
// sort order).
//
//   SELECT json_build_object(
//     'data', api."PAGE /api/v1/project"($1, $2, ARRAY(
//       SELECT "project"."id" FROM "public"."project" AS "project" INNER JOIN ...
//       WHERE <where and filter> ORDER BY <order> LIMIT ... OFFSET ...)),
//     'total', (SELECT count(*) FROM "public"."project" AS "project" INNER JOIN ... WHERE <...>))
//
// Why: EXECUTE parses and plans its text on every call, and the page query with its JSON object,
// column masks and subqueries costs far more to plan than to run (the example's projects with a
// filter and a sort: 1.5 ms a call, against 0.2 ms for the keys and the count alone). The JSON
// is built by `api."PAGE <path>"`, whose one static statement plpgsql plans once per connection.
// For the default request the gain is in running it: a deep page (`page=400`) skips its 7,980
// rows on the primary key's index alone, where the one-statement form carried each skipped row
// whole.
// It is STABLE, so it reads with the snapshot of the statement that calls it: keys, rows and
// total are still one snapshot.
//
// The keys are chosen over the tables themselves, without the masking derived tables (source.ts),
// which is where the planning cost lies. That reads nothing hidden from the caller only when
// nothing that chooses rows can name a hidden column: the route's where, join and order conditions
// (checked here: `readsMaskedColumns`), the filter and the sort column (the column map holds only
// columns the caller may see), and not a raw SQL sort expression (refused at run time: such a
// request keeps the one-statement path). Row security binds the tables either way. Routes this
// does not fit (grouped, joins that add rows, a composite key, raw SQL that could change the row
// count) keep the one-statement path.

import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { dollarTag, FUNCTION_SETTINGS, ownedByApiOwner } from "../function.ts";
import { nl } from "../layout.ts";
import { primaryKeyColumns } from "../scope.ts";
import { type CompiledQuery, countedRaws } from "../select.ts";
import { type CastType, castSql, castType } from "../values.ts";
import type { Compile } from "./types.ts";
import { byVisibility } from "./visibility.ts";

export interface PageKey {
  /** The base table's one primary key column, e.g. `"project"."id"`. */
  sql: string;
  type: CastType;
}

/** The page's key when the route fits the keys-first path (see the header), else undefined. */
export function pageKey(q: CompiledQuery, pagesRawRows: boolean): PageKey | undefined {
  if (!pagesRawRows || q.groupBy || q.readsMaskedColumns) return undefined;
  const base = q.scope.sources[0];
  if (!base) return undefined;
  const pk = primaryKeyColumns(base.table);
  if (pk.length !== 1) return undefined;
  const key = ident(base.name, pk[0] as string).toString();
  if (q.tiebreak.length !== 1 || q.tiebreak[0]?.toString() !== key) return undefined;
  if (!rawSelectorsKeepRowCount(q)) return undefined;
  const column = base.table.columns.find((c) => c.name === pk[0]);
  if (!column) return undefined;
  return { sql: key, type: castType(column) };
}

/** Every raw selector is a scalar subquery: none can change how many rows the route has. */
export function rawSelectorsKeepRowCount(q: CompiledQuery): boolean {
  return countedRaws(q.properties).length === 0;
}

/**
 * Query texts whose page ends within this many rows choose their keys under a constant LIMIT
 * (KEY_BOUNDS) and cut the page from them.
 *
 * Why: a query text's generic plan sees `LIMIT $n OFFSET $m` as unknown, and Postgres then plans
 * for a tenth of the matching rows: it walks an index in the page's order and stops early, which
 * is the wrong plan when row security or a filter leaves a few rows spread over the whole table.
 * The example's projects filtered by status, company 1: the keys' plan walked the 2,000 entries
 * of the (id, companyId) index for 9 rows; with LIMIT 16 it reads the company's 43 rows by
 * their index and sorts them (the keys' statement alone: 12,500 to 18,300 calls a second). The
 * page is cut from an array, not by an outer LIMIT, whose unknown fraction would reach down to
 * the inner plan. Deeper pages keep `LIMIT ... OFFSET ...`: their keys would fill a large array.
 */
export const KEYS_BOUNDED_UP_TO = 1024;

/** The plpgsql variable keysFirstStatements reads the page's end into. */
export const PAGE_END_VARIABLE = "_api_page_end";

/** The constant LIMITs of bounded keys: the first one at least the page's end is used. */
export const KEY_BOUNDS = [16, 32, 64, 128, 256, 512, KEYS_BOUNDED_UP_TO];

/**
 * The keys-first statement for a where and an order (SQL, or placeholders to splice in: paged.ts).
 * `limit` follows LIMIT; as `{ tail }`, it also closes `(ARRAY(` itself, and may cut the page
 * from the keys (keysFirstStatements). `ownWhere`: `where` is the route's own (no filter).
 */
export function keysFirstQuery(
  q: CompiledQuery,
  key: PageKey,
  pageFunction: string,
  options: { limit: Sql | { tail: Sql }; where: Sql; order: Sql; ownWhere?: boolean },
  indent: string,
): Sql {
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const chosen = sql`${nl(i2)}SELECT ${trusted(key.sql)}${nl(i2)}FROM ${q.plainFrom}${nl(i2)}WHERE ${options.where}${nl(i2)}ORDER BY ${options.order}${nl(i2)}LIMIT `;
  const keys =
    "tail" in options.limit
      ? sql`(ARRAY(${chosen}${options.limit.tail}`
      : sql`ARRAY(${chosen}${options.limit})`;
  // Under the route's own where, without the joins the count does not need (select.ts).
  const countFrom = options.ownWhere ? q.plainCountFrom : q.plainFrom;
  const total = sql`(SELECT count(*)${nl(i2)}FROM ${countFrom}${nl(i2)}WHERE ${options.where})`;
  return sql`SELECT json_build_object(${nl(i1)}'data', ${ident("api", pageFunction)}($1, $2, ${keys}),${nl(i1)}'total', ${total})`;
}

/**
 * `api."PAGE <path>"(params, ctx, keys)`: the page's rows as a JSON array in the keys' order,
 * built by the same object, masks and subqueries as every other read. Owned by api_owner and
 * executable only by it (the route function); nobody else can call it.
 *
 * `enable_seqscan = off`: everything it reads is reached from a page's keys (the base by its
 * primary key, joins and subqueries by their columns), a handful of index probes per row. Left on,
 * Postgres reads a small joined table (the example's 50 companies, one page) whole for every row,
 * each of its rows tested against its row policies: 56k instructions a row where the index probe
 * costs 8k; the example's project page of 5 went from 1,076k to 902k. Where no index fits a join,
 * Postgres reads that table whole another way: once for a hash join, through any index, or by the
 * scan itself when nothing else can (a disabled plan is still taken when it is the only one).
 */
export function pageFunctionStatements(compile: Compile, key: PageKey, name: string): string[] {
  const fn = ident("api", name);
  const keyArray = sql`${castSql(key.type)}[]`;
  const signature = sql`${fn}(jsonb, jsonb, ${keyArray})`;
  // In the keys' order; array_position is a scan of the page's keys, as cheap as a join here.
  // The rows are sorted below the aggregate, as every page is (pagedText.ts): json_agg with its
  // own ORDER BY sets up a sort inside the aggregate on every call (the example's filtered
  // project pages: 22k of 2,272k instructions a call more).
  const rows = byVisibility(compile, "  ", (compileAs, at) => {
    const q = compileAs(`${at}    `);
    const body = sql`SELECT json_agg(_api_o.j) FROM (SELECT ${q.object} AS j${nl(`${at}    `)}FROM ${q.from}${nl(`${at}    `)}WHERE ${trusted(key.sql)} = ANY ($3) ORDER BY array_position($3, ${trusted(key.sql)})) AS _api_o`;
    return [sql`RETURN COALESCE((${nl(`${at}    `)}${body}${nl(`${at}  `)}), '[]'::json);`];
  });
  const text = `#variable_conflict use_column\nBEGIN\n  ${join(rows, "\n  ").toString()}\nEND\n`;
  const tag = dollarTag(text);
  return [
    `CREATE FUNCTION ${fn.toString()}(params jsonb, ctx jsonb, keys ${keyArray.toString()})
RETURNS json
LANGUAGE plpgsql
STABLE
${FUNCTION_SETTINGS}
SET enable_seqscan = off
AS ${tag}
${text}${tag};`,
    ...ownedByApiOwner(signature),
  ];
}

/**
 * The route function's statements that take the keys-first path (they end with RETURN), around
 * the text's pieces A W B O C <limit> D W E. The keys' limit: while the page ends within
 * KEYS_BOUNDED_UP_TO, the first of KEY_BOUNDS that covers it, and the page cut by `slice`; past
 * that, `limit` (LIMIT ... OFFSET ...).
 */
export function keysFirstStatements(
  pieces: string[],
  page: { end: Sql; slice: Sql; limit: Sql },
  indent: string,
): Sql {
  const [a, b, c, d, e] = pieces.map((p) => literal(p)) as [Sql, Sql, Sql, Sql, Sql];
  const i1 = `${indent}  `;
  const at = nl(`${i1}      `);
  // The page's end, read from the request once (the route function declares it).
  const end = trusted(PAGE_END_VARIABLE);
  const bounds = KEY_BOUNDS.map((n) => sql`${at}WHEN ${end} <= ${literal(n)} THEN ${literal(String(n))}`);
  const limit = sql`CASE WHEN ${end} > ${literal(KEYS_BOUNDED_UP_TO)} THEN ${literal(`${page.limit.toString()}))`)}${nl(`${i1}    `)}ELSE CASE${bounds.reduce((x, y) => sql`${x}${y}`)}${nl(`${i1}    `)}END || ${literal(`))[${page.slice.toString()}]`)} END`;
  return join(
    [
      sql`IF _api_sort_by IS NULL OR (_api_entry->>'type') IS NOT NULL THEN`,
      sql`  ${end} := ${page.end};`,
      sql`  RETURN api.execute_cached(${a}${nl(i1)}  || _api_where || ${b}${nl(i1)}  || _api_order || ${c}${nl(i1)}  || ${limit} || ${d}${nl(i1)}  || _api_where || ${e},`,
      sql`    $1, $2, _api_values, NULL, NULL, NULL, false);`,
      sql`END IF;`,
    ],
    nl(indent).toString(),
  );
}
