// The PAGED requests the gateway answers with its own statement instead of the route function: a
// filter, a sortBy, or the NONE and RAND orders, on the first pages, with an exact total and no
// cursor. The route function would build a query text for them at run time (generator/routes/
// kinds/paged.ts); the gateway builds the same text, over the API views, and sends it as a
// prepared statement of its connection: the same answer, byte for byte, in about half the time
// (docs/performance.md "The gateway's own page statements").
//
// One batch, one round trip, one implicit transaction (cellQuery.ts `before`):
// 1. the context statement: the caller's context settings (as route functions set them), and the
//    route functions' search_path and (for a text without client values) plan cache mode, all
//    transaction-local; the time zone is the session's, UTC on every gateway connection that
//    runs one (cellQuery.ts `utc`);
// 2. when the filter compares a column that is not text, a check that each such value casts to its
//    column's type: a class 22 error here sends the request to the route function, which answers
//    with the message naming the column (api.filter_check_value);
// 3. the page (generator/routes/kinds/pagedViews.ts), with the filter and the order spliced in.
//
// Only generator constants are spliced: the route's compiled text, the column map's SQL and cast
// types, operators from a fixed table, and `$n` placeholders. Every client value, a JSON key
// included, is a parameter of its own from `$5` on (text, or text[] for an `in` list): an element
// of one array parameter was taken out of it again on every row the filter tests (16k of the
// example's filtered page's instructions). The text runs as api_gateway, which may read only the
// views: their masks and the tables' row policies bind it as they bind the function. The function's
// other checks (table rules, "every column hidden") are evaluated here first: a caller who fails
// one gets the function, and its 403.
//
// A cursor page in the own order of a route that reads nothing of the caller through the
// settings is keysetStatement.ts's. Anything else this does not take (the default request, deep
// pages, other cursors, another total mode, a filter on a name the map lacks) goes to the route
// function, which stays the reference.

import type pg from "pg";
import { contextKeys } from "../../generator/api/context.ts";
import type { Model, ModelRoute } from "../../generator/model/index.ts";
import { DEFAULT_PER_PAGE } from "../../generator/model/paging.ts";
import type { Entry } from "../../generator/routes/filter.ts";
import { keysOverViews, settingsToSet } from "../../generator/routes/function.ts";
import { guardCall, pageGuardName } from "../../generator/routes/guards.ts";
import { KEYS_FIRST_FROM_OFFSET } from "../../generator/routes/kinds/paged.ts";
import { PAGE_BOUNDS, type ViewsPage, viewsPage } from "../../generator/routes/kinds/pagedViews.ts";
import { ALL_CAST_TYPES, castSql } from "../../generator/routes/values.ts";
import type { Schema, StandardRoute } from "../../generator/schema/types.ts";
import { join, literal, sql } from "../../generator/sql/sql.ts";
import { type AuthResult, allowedFor } from "../auth/context.ts";
import { type CellStatement, cellStatement, type Step } from "../cellQuery.ts";
import { preparedName } from "../custom/preparedTexts.ts";
import type { FilterExpr } from "../filter/ast.ts";
import { statementName } from "../namedStatements.ts";
import { type ContextStatement, compileContextStatement } from "./contextStatement.ts";
import { compileKeysetStatements } from "./keysetStatement.ts";
import { type ReadingText, readingText, requestAndCaller } from "./unreadValues.ts";

/**
 * Parameter types of the page's text: the request ($1) and the caller ($2) (NULL where the text
 * reads neither: unreadValues.ts), and the page's rows by position, after $3 through $4
 * (pagedViews.ts PAGE_RANGE); then the filter's values (FilterValue), from FIRST_VALUE on.
 */
const JSONB = 3802;
const TEXT = 25;
const TEXT_ARRAY = 1009;
const BIGINT = 20;
const PAGE_TYPES = [JSONB, JSONB, BIGINT, BIGINT];
const FIRST_VALUE = PAGE_TYPES.length + 1;

/** A client value of the filter, one parameter: a text, or the texts of an `in` list (text[]). */
type FilterValue = string | readonly string[];

const COMPARISONS: Record<string, string> = { eq: "=", ne: "<>", gt: ">", gte: ">=", lt: "<", lte: "<=" };

/**
 * Casts each value of `$1` to the type named beside it in `$2`, every type its own branch (the
 * type is never read as SQL): a value that does not cast raises a class 22 error.
 */
const CHECK_TEXT = sql`SELECT count(CASE u.t ${join(
  ALL_CAST_TYPES.filter((t) => t !== "text").map(
    (t) => sql`WHEN ${literal(t)} THEN CAST(u.v AS ${castSql(t)})::text`,
  ),
  " ",
)} END) FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[])) AS u(v, t)`.toString();

export interface PagedRequest {
  /**
   * The validated request; its `filter`, when present, parsed (a FilterExpr whose columns the
   * gateway already checked the caller may use).
   */
  params: Record<string, unknown>;
  auth: AuthResult;
  /** The caller context's JSON, as the route function gets it. */
  ctx: string;
}

/**
 * The route's own statement for a request, or undefined when the route function answers it.
 * Undefined for a route that has none.
 */
export type PagedStatements = (request: PagedRequest) => CellStatement | undefined;

export function compilePagedStatements(
  model: Model,
  modelRoute: ModelRoute,
  options: { schema: Pick<Schema, "globalParams">; preparedStatements: boolean },
): PagedStatements | undefined {
  const route = modelRoute.route as StandardRoute;
  if (route.type !== "PAGED" || (route.total ?? "exact") !== "exact") return undefined;
  const page = viewsPage(model, modelRoute);
  // Valid only in the layer built from this schema (generator/routes/guards.ts).
  const routeWhere = `${page.where} AND ${guardCall(pageGuardName(model.schema))}`;
  const context = pageContextStatement(options.schema, page, options.preparedStatements);
  const check = { name: options.preparedStatements ? statementName("api_check", CHECK_TEXT) : undefined };
  const texts = textCache(page, routeWhere);
  const keyset = compileKeysetStatements(model, modelRoute, options);
  return (request) => {
    const { params, auth } = request;
    const keysetPage = keyset?.(params, request.ctx);
    if (keysetPage) return keysetPage;
    const filter = params.filter as FilterExpr | undefined;
    const cut = pageCut(params, filter);
    if (cut === undefined) return undefined;
    if (!page.checks.passes((rule) => allowedFor(rule, auth))) return undefined;
    const values: FilterValue[] = [];
    const typed: { value: string; type: string }[] = [];
    const clause = filter ? filterSql(filter, page.columns, values, typed) : "";
    if (clause === undefined) return undefined;
    const order = orderSql(page, params);
    if (order === undefined) return undefined;
    const reading = texts.get(
      clause,
      order,
      cut.bound,
      page.rules.every((rule) => allowedFor(rule, auth)),
    );
    const text = reading.text;
    const before: Step[] = [context(auth, request.ctx, values.length === 0)];
    if (typed.length > 0) {
      before.push({
        name: check.name,
        text: CHECK_TEXT,
        values: [textArray(typed.map((v) => v.value)), textArray(typed.map((v) => v.type))],
      });
    }
    const named = options.preparedStatements
      ? (connection: pg.Connection) => preparedName(connection, text)
      : undefined;
    const pageValues = [
      ...requestAndCaller(reading, params, request.ctx),
      cut.after,
      cut.through,
      ...values.map((v) => (typeof v === "string" ? v : textArray(v))),
    ];
    return cellStatement(undefined, text, pageValues, {
      before,
      paramTypes: [...PAGE_TYPES, ...values.map((v) => (typeof v === "string" ? TEXT : TEXT_ARRAY))],
      utc: true,
      ...(named ? { named } : {}),
    });
  };
}

/** Texts the route's pages were built from, each kept as one string (see textCache). */
const TEXTS_KEPT = 256;

/**
 * The page texts already built, by the filter's clause ("" for none), order and object form: a
 * request that repeats one gets the same string, so it is not built again (a few kilobytes), and
 * the lookup of its prepared statement (preparedName, a map keyed by the text) hashes it once, not
 * on every request. The key leaves out the route's own where, the same on every request: joining
 * it in and hashing the result was a few microseconds of each (docs/performance.md, eighteenth
 * look). Forgotten all at once when full: filters with other shapes are built anew.
 */
function textCache(page: ViewsPage, routeWhere: string) {
  const kept = new Map<string, ReadingText>();
  return {
    get(clause: string, order: string, bound: number, allVisible: boolean): ReadingText {
      const key = `${allVisible ? "all" : "some"}\0${bound}\0${clause}\0${order}`;
      let reading = kept.get(key);
      if (reading === undefined) {
        if (kept.size >= TEXTS_KEPT) kept.clear();
        const where = clause === "" ? routeWhere : `${routeWhere} AND ${clause}`;
        reading = readingText(page.text(where, order, bound, allVisible));
        kept.set(key, reading);
      }
      return reading;
    },
  };
}

/**
 * For a request the function would build a text for (a filter, a sortBy, the NONE or RAND order),
 * on a page the one-statement form serves (deeper ones take the function's keys-first form), with
 * an exact total and no cursor: the constant its rows are cut from (PAGE_BOUNDS), and the page's
 * rows by position, after `after` through `through` ($4 and $5 of the text). Else undefined.
 */
function pageCut(
  params: Record<string, unknown>,
  filter: FilterExpr | undefined,
): { bound: number; after: string; through: string } | undefined {
  if ("after" in params || ("$count" in params && params.$count !== "exact")) return undefined;
  const sortBy = params.sortBy;
  const order = params.sortOrder;
  if (!filter && (typeof sortBy !== "string" || sortBy === "") && order !== "NONE" && order !== "RAND")
    return undefined;
  const pageNumber = params.page ?? 1;
  const perPage = params.perPage ?? DEFAULT_PER_PAGE;
  if (!Number.isSafeInteger(pageNumber) || !Number.isSafeInteger(perPage)) return undefined;
  const [n, size] = [pageNumber as number, perPage as number];
  if (n < 1 || size < 1 || (n - 1) * size >= KEYS_FIRST_FROM_OFFSET) return undefined;
  const bound = PAGE_BOUNDS.find((b) => b >= n * size);
  return bound === undefined
    ? undefined
    : { bound, after: String((n - 1) * size), through: String(n * size) };
}

/**
 * The page's context statement (contextStatement.ts). It stores what the page reads of the caller,
 * decided as for a route function (settingsToSet): the keys of the row policies of the tables it
 * reads, with `role` and `scopes`, which the views' column masks read (api.allowed); every key and
 * the whole context when the route holds raw SQL. With them: the route functions' search_path,
 * and for a text without client values the generic plan (as api.execute_cached chooses);
 * otherwise the session's plan cache mode, which Postgres's default leaves to the planner. The
 * time zone is the session's, set once per connection (the page is `utc`: cellQuery.ts), not per
 * request.
 */
function pageContextStatement(
  schema: Pick<Schema, "globalParams">,
  page: ViewsPage,
  prepared: boolean,
): ContextStatement {
  const allKeys = contextKeys(schema);
  const texts = [true, false].map((allVisible) =>
    page.text(page.where, page.order(false), PAGE_BOUNDS[0] as number, allVisible),
  );
  for (const entry of page.columns.values()) texts.push(entry.sql);
  const { whole, keys } = keysOverViews(settingsToSet(page.checks.context, texts, allKeys), true, allKeys);
  return compileContextStatement({
    keys,
    whole,
    prepared,
    searchPath: true,
    namePrefix: "api_page_ctx",
  });
}

/** The ORDER BY list, as the route function chooses it (paged.ts `_api_order`). */
function orderSql(page: ViewsPage, params: Record<string, unknown>): string | undefined {
  const order = params.sortOrder ?? "ASC";
  const sortBy = typeof params.sortBy === "string" && params.sortBy !== "" ? params.sortBy : undefined;
  if (order === "RAND") return `random(), ${page.tiebreak(false)}`;
  if (order === "NONE") return page.tiebreak(false);
  if (sortBy !== undefined) {
    const entry = page.columns.get(sortBy);
    if (!entry?.sort) return undefined;
    return order === "DESC"
      ? `${entry.sql} DESC, ${page.tiebreak(true)}`
      : `${entry.sql} ASC, ${page.tiebreak(false)}`;
  }
  return page.order(order === "DESC");
}

/**
 * The filter as api.filter_sql writes it (generator/routes/helpers.ts), but for its values: the
 * same text for the same filter shape, each value a parameter appended to `values` (an `in` list
 * one text[] parameter), each value of a column that is not text also to `typed`. Undefined for
 * what the function would refuse (it answers with its own message).
 */
function filterSql(
  node: FilterExpr,
  columns: ReadonlyMap<string, Entry>,
  values: FilterValue[],
  typed: { value: string; type: string }[],
): string | undefined {
  if ("and" in node || "or" in node) {
    const [items, glue] = "and" in node ? [node.and, " AND "] : [node.or, " OR "];
    const parts: string[] = [];
    for (const item of items) {
      const part = filterSql(item, columns, values, typed);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    if (parts.length === 0) return "and" in node ? "(true)" : "(false)";
    return `(${parts.join(glue)})`;
  }
  if ("not" in node) {
    const part = filterSql(node.not, columns, values, typed);
    return part === undefined ? undefined : `(NOT ${part})`;
  }
  const { column, op, value } = node;
  let entry = columns.get(column);
  let expr: string;
  let type: string;
  if (entry?.filter && entry.type !== null) {
    expr = entry.sql;
    type = entry.type;
  } else {
    // table.column.jsonKey: a key of a JSON column, compared as text.
    const dot1 = column.indexOf(".");
    const dot2 = dot1 < 0 ? -1 : column.indexOf(".", dot1 + 1);
    entry = dot2 < 0 ? undefined : columns.get(column.slice(0, dot2));
    if (!entry?.filter || !entry.json) return undefined;
    expr = `(${entry.sql} ->> ${bind(values, column.slice(dot2 + 1))})`;
    type = "text";
  }
  if (op === "null" || op === "notnull") return `(${expr}${op === "null" ? " IS NULL)" : " IS NOT NULL)"}`;
  if (op === "in") {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const list = bind(
      values,
      value.map((v) => checked(typed, type, v)),
    );
    return type === "text" ? `(${expr} = ANY(${list}))` : `(${expr} = ANY(CAST(${list} AS ${type}[])))`;
  }
  if (typeof value !== "string") return undefined;
  if (op === "has" || op === "sw" || op === "ew") {
    const text = type === "text" ? "" : "::text";
    return `(${expr}${text} ILIKE ${op === "sw" ? "" : "'%' || "}api.like_literal(${bind(values, value)})${op === "ew" ? "" : " || '%'"})`;
  }
  const operator = COMPARISONS[op];
  if (operator === undefined) return undefined;
  const one = bind(values, checked(typed, type, value));
  return type === "text" ? `(${expr} ${operator} ${one})` : `(${expr} ${operator} CAST(${one} AS ${type}))`;
}

// bind and checked are module functions, not closures of filterSql: a function made per request
// costs an Object.defineProperty under tsx (docs/performance.md, sixteenth look).

/** `value` as the next parameter. */
function bind(values: FilterValue[], value: FilterValue): string {
  return `$${FIRST_VALUE + values.push(value) - 1}`;
}

/**
 * `value`, noted in `typed` when the column is not text: it is checked first, that it casts (the
 * batch's check step).
 */
function checked(typed: { value: string; type: string }[], type: string, value: string): string {
  if (type !== "text") typed.push({ value, type });
  return value;
}

/** A Postgres array literal of texts: each element double-quoted, `"` and `\` escaped. */
function textArray(items: readonly string[]): string {
  return `{${items.map((i) => `"${i.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}
