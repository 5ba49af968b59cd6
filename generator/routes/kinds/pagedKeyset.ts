// PAGED keyset pages (`after`, paged.ts): which routes can page by cursor and by what key, the
// checks of a cursor against the request, and the condition "after the cursor" spliced into the
// page's text; the commonest request (the route's own order) as static statements.

import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import type { ColumnMap } from "../filter.ts";
import { nl } from "../layout.ts";
import { raise, SQLSTATE } from "../permissions.ts";
import { primaryKeyColumns } from "../scope.ts";
import { type CompiledQuery, orderList } from "../select.ts";
import { type CastType, castSql, textArray } from "../values.ts";
import { countedTotal, extendedPieces, LIMIT, PAGE, PER_PAGE, pagesRawRows } from "./pagedText.ts";
import { tableSizeEstimate } from "./plannedTotal.ts";

/** What a keyset page sorts by after its first key: the base table's primary key columns. */
export interface KeysetTail {
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
export function keysetTail(q: CompiledQuery, map: ColumnMap): KeysetTail | string {
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

/** The tail's cursor values cast to their columns' types: value `i` (from 0) as `value(i)` reads it. */
function tailValues(tail: KeysetTail, value: (i: number) => string): string[] {
  return tail.types.map((t, i) => `CAST(${value(i)} AS ${castSql(t).toString()})`);
}

/** `(a, b) > (CAST(<value 0> AS t), ...)` for the tail, each value as `value(i)` reads it. */
function tailCondition(tail: KeysetTail, value: (i: number) => string, descending: boolean): string {
  return `((${tail.sql.join(", ")}) ${descending ? "<" : ">"} (${tailValues(tail, value).join(", ")}))`;
}

/** The text parameter `$4`'s elements from position `from` (1-based): the general path's cursor. */
const fromParameter = (from: number) => (i: number) => `$4[${from + i}]`;

/** Checks the request and the cursor, and sets the key list, the `next` member and the condition. */
export function keysetStatements(
  q: CompiledQuery,
  map: ColumnMap,
  tail: KeysetTail | string,
  indent: string,
  fastPath: boolean,
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
  return [
    sql`IF _api_sort_order = 'RAND' THEN${nl(i1)}${bad("after cannot be combined with sortOrder RAND")}${nl(indent)}END IF;`,
    sql`IF ${PAGE} <> 1 THEN${nl(i1)}${bad("after cannot be combined with page")}${nl(indent)}END IF;`,
    sql`IF NOT (_api_columns ?& ${textArray(tail.names)}) THEN${nl(i1)}${bad("after: this route's primary key is hidden from you")}${nl(indent)}END IF;`,
    sql`IF _api_sort_by IS NOT NULL THEN${nl(i1)}IF _api_entry->>'type' IS NULL THEN${nl(i2)}${bad("after cannot be combined with sorting by a computed property")}${nl(i1)}END IF;${nl(i1)}_api_key := _api_entry->>'sql';${nl(i1)}_api_key_type := _api_entry->>'type';${nl(i1)}_api_key_desc := _api_sort_order = 'DESC';${nl(indent)}ELSIF _api_sort_order = 'NONE' THEN${nl(i1)}_api_key := NULL;${nl(indent)}ELSE${nl(i1)}${join(ownKey, nl(i1).toString())}${nl(indent)}END IF;`,
    sql`_api_tail_desc := _api_sort_order = 'DESC';`,
    sql`IF $1->>'after' <> '' THEN${nl(i1)}${decodeCursor(i1)}${nl(i1)}IF NOT ${cursorFits(sql`COALESCE(_api_sort_by, '')`, sql`_api_sort_order`, sql`${literal(tail.sql.length)} + (CASE WHEN _api_key IS NULL THEN 0 ELSE 1 END)`, i2)} THEN${nl(i2)}${bad("after is not a cursor of this route for this sortBy and sortOrder")}${nl(i1)}END IF;${nl(i1)}${CURSOR_VALUES}${nl(indent)}END IF;`,
    // The own order's static statements, unless the fast path has them (an explicit empty sortBy
    // or null filter then takes the query text, which answers the same).
    ...(fastPath ? [] : generalStaticKeyset(q, tail, indent)),
    // The query text's pieces only now, past the static statements, which need none of them:
    // plpgsql sets up every expression it evaluates anew in each transaction, and the condition's
    // CASE is large (the Restura cursor page: about 25 µs of Postgres CPU a call when it came first).
    sql`_api_keys := 'json_build_array(' || CASE WHEN _api_key IS NULL THEN '' ELSE _api_key || ', ' END || ${literal(`${tailSql})`)};`,
    sql`_api_extra := ${literal(NEXT)};`,
    sql`IF _api_cursor IS NOT NULL THEN${nl(i1)}_api_where := _api_where || ' AND ' || ${keysetCondition(tail, i1)};${nl(indent)}END IF;`,
  ];
}

/** How a keyset page's text reads the request's page size and the order its `next` cursor names. */
interface PageRequest {
  /** The page's size: a full page has a `next` cursor. */
  perPage: Sql;
  /** What follows LIMIT. */
  limit: Sql;
  /** The cursor's `s` and `o`: the request's sortBy and sortOrder as the function reads them. */
  sortBy: string;
  sortOrder: string;
}

/** The request as the function gets it: everything read from `$1`. */
const FROM_REQUEST: PageRequest = {
  perPage: PER_PAGE,
  limit: LIMIT,
  sortBy: "COALESCE(NULLIF($1->>'sortBy', ''), '')",
  sortOrder: "upper(COALESCE($1->>'sortOrder', 'ASC'))",
};

/** The `next` member of a keyset page: the cursor after its last row, when the page is full. */
const nextMember = (lastKeys: string, request: PageRequest = FROM_REQUEST) =>
  `, 'next', CASE WHEN count(*) = ${request.perPage.toString()} THEN translate(encode(convert_to(json_build_object('s', ${request.sortBy}, 'o', ${request.sortOrder}, 'k', ${lastKeys})::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END`;
/** `_api_k`: each row's keys as a JSON array; the last row's are the cursor. */
const LAST_KEYS = "(array_agg(_api_p._api_k))[count(*)]";
const NEXT = nextMember(LAST_KEYS);

/** The route's own order requested, as the general path's variables hold the request. */
const OWN_ORDER = sql`_api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC'`;

/** `_api_after` := the request's cursor decoded (base64url JSON), NULL when it does not decode. */
function decodeCursor(indent: string): Sql {
  const decoded = sql`convert_from(decode(rpad(translate($1->>'after', '-_', '+/'), (length($1->>'after') + 3) / 4 * 4, '='), 'base64'), 'UTF8')::jsonb`;
  return sql`BEGIN${nl(`${indent}  `)}_api_after := ${decoded};${nl(indent)}EXCEPTION WHEN OTHERS THEN${nl(`${indent}  `)}_api_after := NULL;${nl(indent)}END;`;
}

/** `_api_after` is a cursor for this sortBy and sortOrder, with `keys` key values. */
function cursorFits(sortBy: Sql, sortOrder: Sql, keys: Sql, indent: string): Sql {
  return sql`(_api_after IS NOT NULL AND jsonb_typeof(_api_after) = 'object' AND jsonb_typeof(_api_after->'k') IS NOT DISTINCT FROM 'array'${nl(indent)}AND (_api_after->>'s') IS NOT DISTINCT FROM ${sortBy} AND (_api_after->>'o') IS NOT DISTINCT FROM ${sortOrder}${nl(indent)}AND jsonb_array_length(_api_after->'k') = ${keys})`;
}

const CURSOR_VALUES = sql`_api_cursor := ARRAY(SELECT jsonb_array_elements_text(_api_after->'k'));`;

/**
 * The route's own order, when it is the primary key and every caller sees it: the cursors the
 * fast path below takes, which the gateway decodes for it (gateway/routes/cursor.ts). Undefined
 * for a route without one.
 */
export function fastPathTail(q: CompiledQuery, map: ColumnMap): KeysetTail | undefined {
  const tail = keysetTail(q, map);
  if (typeof tail === "string" || q.order.length > 0) return undefined;
  if (map.restricted.some((r) => r.keys.some((k) => tail.names.includes(k)))) return undefined;
  return tail;
}

/** The request key under which the gateway passes a cursor it decoded (no client can send a `$` key). */
export const DECODED_CURSOR = "$after";

/**
 * A keyset page in the route's own order told from the parameters alone, first of all (it checks
 * page and perPage itself; the default request's test comes after it, paged.ts): a cursor the
 * gateway decoded (`$1->>'$after'`: the cursor's JSON text, or '' for the first page),
 * no sortBy, no filter, sortOrder absent or ASC, page 1, and a total the static statements give.
 * The gateway decodes a cursor only where it is plain JSON of this route's own order with as many
 * keys as the primary key has (cursor.ts), so the text holds the values Postgres would have
 * decoded; anything else (a cursor the gateway left alone, a planned total pg_class has no figure
 * for) goes on to the general path, which checks it all and answers or refuses as before.
 * Decoding in plpgsql cost the most of this path: its exception block and the checks of the
 * cursor's shape are expressions plpgsql sets up again in every transaction. The Restura cursor
 * page with a planned total: 1,869k instructions a call when the function decoded the cursor,
 * 1,781k with the gateway's text, 1,760k with this path ahead of the page check and the default
 * request's (docs/benchmarks-instructions.md, docs/performance.md).
 */
export function keysetFastPath(
  q: CompiledQuery,
  map: ColumnMap,
  defaultCount: string,
  indent: string,
): Sql[] {
  const tail = fastPathTail(q, map);
  if (!tail) return [];
  const i1 = `${indent}  `;
  const i2 = `${i1}  `;
  const decoded = literal(DECODED_CURSOR);
  const estimate = tableSizeEstimate(q);
  const modes = estimate ? sql`('exact', 'planned')` : sql`('exact')`;
  const count = sql`COALESCE($1->>'$count', ${literal(defaultCount)})`;
  // Nested: plpgsql sets up a condition whole, so every other request pays only for `?`.
  const request = sql`NOT $1 ?| ARRAY['sortBy', 'filter'] AND upper(COALESCE($1->>'sortOrder', 'ASC')) = 'ASC'${nl(i1)}AND ${PAGE} = 1 AND ${PER_PAGE} >= 1 AND ${count} IN ${modes}`;
  const pages = staticKeyset(q, tail, DECODED_BY_GATEWAY);
  const i3 = `${i2}  `;
  const statements = [sql`IF ${count} = 'exact' THEN${nl(i3)}${pages.exact(i3)}${nl(i2)}END IF;`];
  // A table pg_class has no figure for yet takes the general path (EXPLAIN of the count query).
  if (estimate) {
    statements.push(
      sql`_api_total := ${estimate};`,
      sql`IF _api_total IS NOT NULL THEN${nl(i3)}${pages.planned("_api_total", i3)}${nl(i2)}END IF;`,
    );
  }
  return [
    sql`IF $1 ? ${decoded} THEN${nl(i1)}IF ${request} THEN${nl(i2)}${join(statements, nl(i2).toString())}${nl(i1)}END IF;${nl(indent)}END IF;`,
  ];
}

/**
 * Where the static statements read a cursor (the test for the first page, and key `i`'s value as
 * text) and the rest of the request.
 */
interface CursorSource {
  first: Sql;
  value: (i: number) => string;
  request: PageRequest;
}

/** The fast path's cursor: the JSON text the gateway decoded, `$1->>'$after'` ('': the first page). */
const DECODED_BY_GATEWAY: CursorSource = {
  first: sql`($1->>${literal(DECODED_CURSOR)}) = ''`,
  value: (i) => `(($1->>'${DECODED_CURSOR}')::jsonb->'k'->>${i})`,
  request: FROM_REQUEST,
};

/** The general path's cursor: `_api_cursor`, the keys it decoded (NULL: the first page). */
const DECODED_BY_FUNCTION: CursorSource = {
  first: sql`_api_cursor IS NULL`,
  value: (i) => `_api_cursor[${i + 1}]`,
  request: FROM_REQUEST,
};

/**
 * The gateway's own statements (keysetPageTexts): the values bound as parameters of their own
 * after the function's two, `$3` the page's size (bigint) and `$4` the decoded cursor (jsonb; NULL
 * for the first page), and the order the fast path's test leaves (no sortBy, ASC, page 1: no
 * OFFSET) written in. Read from `$1` as the function reads them, the same values cost the Restura
 * cursor page a sixth of its time (pgbench, docs/performance.md).
 */
const BOUND_BY_GATEWAY: CursorSource = {
  first: sql`$4 IS NULL`,
  value: (i) => `($4->'k'->>${i})`,
  request: { perPage: sql`$3`, limit: sql`$3`, sortBy: "''", sortOrder: "'ASC'" },
};

/**
 * The commonest keyset request (the route's own order, which is its primary key; no filter, no
 * sortBy, ASC) as static statements, the first page and the pages after a cursor, which plpgsql
 * plans once per connection: through EXECUTE every page would be planned again. Each statement
 * pair picks the first page or the one after the cursor (`cursor`), its values cast as in
 * keysetCondition, and ends with RETURN: `exact` with the counted total, `planned` with `total`
 * (plannedTotal.ts), written at `indent`.
 */
function staticKeyset(q: CompiledQuery, tail: KeysetTail, cursor: CursorSource) {
  const routeWhere = q.where ? `(${q.where.toString()})` : "true";
  const after = tailCondition(tail, cursor.value, false);
  // A one-column key ascending: the last row's is the page's largest, and `_api_k` the column
  // itself (no JSON array built for every row, no array of them: 51k of the Restura cursor
  // page's 1,918k instructions).
  const single = tail.sql.length === 1;
  const keys = single ? tail.sql[0] : `json_build_array(${tail.sql.join(", ")})`;
  const lastKeys = single ? "json_build_array(max(_api_p._api_k))" : LAST_KEYS;
  const next = nextMember(lastKeys, cursor.request);
  const order = orderList(q.order, q.tiebreak, false).toString();
  const texts = (total: (indent: string) => string, indent: string) => {
    const i1 = `${indent}  `;
    const [p0, p1, p2, p3, p4] = extendedPieces(q, i1, cursor.request.limit);
    const text = (where: string) => trusted(`${p0}${total(i1)}${p1}${keys}${p2}${where}${p3}${order}${p4}`);
    return { first: text(routeWhere), after: text(`${routeWhere} AND ${after}`) };
  };
  const pair = (total: (indent: string) => string, indent: string) => {
    const i1 = `${indent}  `;
    const page = texts(total, indent);
    return sql`IF ${cursor.first} THEN${nl(i1)}RETURN (${page.first});${nl(indent)}END IF;${nl(indent)}RETURN (${page.after});`;
  };
  const exact = (at: string) => `${countedTotal(q, at, trusted(routeWhere)).toString()}${next}`;
  const planned = (total: string) => () => `${total}${next}, 'totalMode', 'planned'::text`;
  return {
    exact: (indent: string) => pair(exact, indent),
    planned: (total: string, indent: string) => pair(planned(total), indent),
    /** The same statements alone: the first page's and the page after the cursor. */
    texts: { exact: () => texts(exact, ""), planned: (total: string) => texts(planned(total), "") },
  };
}

/**
 * The fast path's pages as statements of their own, for the gateway to send instead of the
 * function (gateway/routes/pagedStatement.ts), compiled as `q` is (over the views, there): the
 * first page and the page after a cursor, with the counted total, and where the route counts a
 * whole table, with the planned one read from pg_class, which answers no row where pg_class has no
 * figure yet (the function's general path then answers). Their parameters are the function's two
 * and the page's size and cursor (BOUND_BY_GATEWAY). Undefined for a route without the path.
 */
export function keysetPageTexts(
  q: CompiledQuery,
  map: ColumnMap,
): { exact: { first: Sql; after: Sql }; planned: { first: Sql; after: Sql } | undefined } | undefined {
  const tail = fastPathTail(q, map);
  if (!tail) return undefined;
  const pages = staticKeyset(q, tail, BOUND_BY_GATEWAY).texts;
  const estimate = tableSizeEstimate(q);
  if (!estimate) return { exact: pages.exact(), planned: undefined };
  const planned = pages.planned("_api_e.t");
  const known = (page: Sql) =>
    sql`SELECT (${page}) FROM (SELECT ${estimate} AS t) AS _api_e WHERE _api_e.t IS NOT NULL`;
  return { exact: pages.exact(), planned: { first: known(planned.first), after: known(planned.after) } };
}

/** The own order's static statements on the general path, as the path's variables hold the request. */
function generalStaticKeyset(q: CompiledQuery, tail: KeysetTail, indent: string): Sql[] {
  if (q.order.length > 0) return [];
  const i1 = `${indent}  `;
  const pages = staticKeyset(q, tail, DECODED_BY_FUNCTION);
  const statements = [
    sql`IF _api_count = 'exact' AND ${OWN_ORDER} THEN${nl(i1)}${pages.exact(i1)}${nl(indent)}END IF;`,
  ];
  const estimate = tableSizeEstimate(q);
  if (estimate) {
    statements.push(
      sql`IF _api_count = 'planned' AND ${OWN_ORDER} THEN${nl(i1)}_api_total := ${estimate};${nl(indent)}END IF;`,
      sql`IF _api_count = 'planned' AND _api_total IS NOT NULL AND ${OWN_ORDER} THEN${nl(i1)}${pages.planned("_api_total", i1)}${nl(indent)}END IF;`,
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
  const t = (from: number, desc: boolean) => literal(tailCondition(tail, fromParameter(from), desc));
  const tailSql = literal(tail.sql.join(", "));
  const values = literal(tailValues(tail, fromParameter(2)).join(", "));
  const key = sql`_api_key`;
  const value = sql`('CAST($4[1] AS ' || _api_key_type || ')')`;
  const tailAfter = sql`CASE WHEN _api_tail_desc THEN ${t(2, true)} ELSE ${t(2, false)} END`;
  return sql`CASE${nl(i1)}WHEN _api_key IS NULL THEN CASE WHEN _api_tail_desc THEN ${t(1, true)} ELSE ${t(1, false)} END${nl(i1)}WHEN _api_cursor[1] IS NULL AND _api_key_desc THEN '(' || ${key} || ' IS NOT NULL OR (' || ${key} || ' IS NULL AND ' || ${tailAfter} || '))'${nl(i1)}WHEN _api_cursor[1] IS NULL THEN '(' || ${key} || ' IS NULL AND ' || ${tailAfter} || ')'${nl(i1)}WHEN _api_key_desc = _api_tail_desc AND _api_key_desc THEN '((' || ${key} || ', ' || ${tailSql} || ') < (' || ${value} || ', ' || ${values} || '))'${nl(i1)}WHEN _api_key_desc = _api_tail_desc THEN '(((' || ${key} || ', ' || ${tailSql} || ') > (' || ${value} || ', ' || ${values} || ')) OR ' || ${key} || ' IS NULL)'${nl(i1)}WHEN _api_key_desc THEN '(' || ${key} || ' < ' || ${value} || ' OR (' || ${key} || ' = ' || ${value} || ' AND ' || ${tailAfter} || '))'${nl(i1)}ELSE '(' || ${key} || ' > ' || ${value} || ' OR ' || ${key} || ' IS NULL OR (' || ${key} || ' = ' || ${value} || ' AND ' || ${tailAfter} || '))'${nl(indent)}END`;
}
