// Runtime helpers the route functions call, created in schema `api` with them (owned by
// api_owner; all SECURITY INVOKER and harmless to call directly). The API layer's runtime
// (sql/*.sql) provides the rest: `api.allowed`, `api.has_role`, `api.has_scopes`, `api.like_literal`.
//
// - `api.json_concat_objects(json[])`: merges JSON objects in order, skipping NULLs (object.ts).
// - `api.filter_sql(ast, columns, vals, depth)`: a PAGED filter AST (docs/architecture.md) -> SQL
//   text. The text is built only from the route's compile-time `columns` map (SQL expressions and
//   types written by the generator) and `$3[n]` placeholders; every client value, JSON keys
//   included, is appended to `vals` and reaches Postgres as a parameter (`EXECUTE ... USING`, or
//   a prepared statement's argument quoted by `format('%L')` in api.execute_cached).
// - `api.filter_check_value(value, type, column)`: raises A0400 when a filter value does not
//   cast to its column's type, naming the column.
// - `api.execute_cached(query, params, ctx, vals, cursor, total, count, explain)`: runs a PAGED
//   query text (built as above) through a prepared statement of the session, so each distinct
//   text is planned a few times per connection instead of on every call (below); with `explain`,
//   answers the statement's plan (EXPLAIN (FORMAT JSON) EXECUTE) instead of running it. Unlike the others it
//   runs any text it is given, so only api_owner, whose route functions call it, may execute it.

import { join, literal, type Sql, sql } from "../sql/sql.ts";
import { nl } from "./layout.ts";
import { raiseComputed, SQLSTATE } from "./permissions.ts";
import { ALL_CAST_TYPES, castSql } from "./values.ts";

export const HELPER_FUNCTIONS = [
  "api.json_concat_objects(json[])",
  "api.filter_check_value(text, text, text)",
  "api.filter_sql(jsonb, jsonb, text[], integer)",
  "api.execute_cached(text, jsonb, jsonb, text[], text[], bigint, text, boolean)",
] as const;

/**
 * Bytes of query text a connection keeps prepared at most: a new text drops the least used ones
 * until it fits, and a longer text is planned on every call. Bounded because every call reads
 * `pg_prepared_statements` whole, statement texts and all: each kilobyte kept costs every cached
 * call about 1 us (16 statements of 1 KB: 30 us a lookup against 14; 48 of 8 KB: 585 us).
 */
export const MAX_CACHED_BYTES = 16384;

/** Deepest filter nesting accepted (the gateway's parser limits it too). */
export const MAX_FILTER_DEPTH = 32;

const TYPES = sql`ARRAY[${join(ALL_CAST_TYPES.map((t) => literal(t)))}]`;

const JSON_CONCAT = sql`CREATE FUNCTION api.json_concat_objects(parts json[])
RETURNS json
LANGUAGE sql
IMMUTABLE PARALLEL SAFE
AS $fn$
  SELECT ('{' || COALESCE(pg_catalog.string_agg(u.members, ', ' ORDER BY u.i), '') || '}')::json
  FROM (
    SELECT p.i, NULLIF(pg_catalog.substr(p.part::text, 2, pg_catalog.length(p.part::text) - 2), '') AS members
    FROM pg_catalog.unnest(parts) WITH ORDINALITY AS p(part, i)
  ) AS u
$fn$;`;

const raise400 = (message: Sql) => raiseComputed(SQLSTATE.badRequest, message);
const MALFORMED = raise400(sql`'filter is malformed'`);

const CHECK_VALUE = sql`CREATE FUNCTION api.filter_check_value(value text, typ text, column_name text)
RETURNS void
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  checked text;
BEGIN
  IF typ = 'text' THEN
    RETURN;
  END IF;
  -- One static cast per type (planned once per connection; no statement built from typ).
  CASE typ
    ${join(
      ALL_CAST_TYPES.filter((t) => t !== "text").map(
        (t) => sql`WHEN ${literal(t)} THEN checked := CAST(value AS ${castSql(t)})::text;`,
      ),
      "\n    ",
    )}
    ELSE RAISE EXCEPTION 'api.filter_check_value: unknown type %', typ;
  END CASE;
EXCEPTION WHEN data_exception THEN
  ${raise400(sql`format('filter value for column "%s" is not a valid %s', column_name, typ)`)}
END
$fn$;`;

/**
 * The text of a filter comparison, built at run time from `op` and `typ` (SQL expressions naming
 * the operator and the column's type): `(<expr> <op> $3[<n>])`, the value cast to the column's
 * type unless it is text. Both paths of api.filter_sql use it, and so does a PAGED route function
 * for a filter of one comparison (paged.ts filterStatement): the same condition is the same text,
 * so one prepared statement (api.execute_cached).
 */
export function filterComparison(expr: Sql, n: Sql, op: Sql, typ: Sql, indent: string): Sql {
  return sql`'(' || ${expr} || ' '${nl(indent)}  || CASE ${op} WHEN 'eq' THEN '=' WHEN 'ne' THEN '<>' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>='${nl(indent)}       WHEN 'lt' THEN '<' ELSE '<=' END${nl(indent)}  || ' ' || CASE WHEN ${typ} = 'text' THEN '$3[' || ${n} || ']'${nl(indent)}       ELSE 'CAST($3[' || ${n} || '] AS ' || ${typ} || ')' END${nl(indent)}  || ')'`;
}

/** The operators of a comparison with one value, as filterComparison writes them. */
export const COMPARISON_OPERATORS = sql`('eq', 'ne', 'gt', 'gte', 'lt', 'lte')`;

const comparison = (expr: Sql, n: Sql, indent: string) =>
  filterComparison(expr, n, sql`op`, sql`typ`, indent);

const FILTER_SQL = sql`CREATE FUNCTION api.filter_sql(node jsonb, columns jsonb, INOUT vals text[], depth integer, OUT clause text)
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  kind text;
  item jsonb;
  -- A nested condition's result: assigned as an expression, not read through a function scan.
  sub record;
  part text;
  parts text[] := '{}';
  col text;
  op text;
  entry jsonb;
  expr text;
  typ text;
  val jsonb;
  n integer;
  first integer;
  dot1 integer;
  dot2 integer;
BEGIN
  -- The common condition first: a column compared with one value. Each plpgsql statement is set
  -- up again in every transaction, when it first runs, so this path runs 6 where the general one
  -- below runs 20 (the example's filtered pages: 36k instructions fewer of 2,390k a call), and a
  -- condition of another kind pays only for the first two lines (10k). Anything else, and anything
  -- invalid, takes the general path, which answers the same for what this one accepts.
  op := node ->> 'op';
  IF op IN ${COMPARISON_OPERATORS} THEN
    entry := columns -> (node ->> 'column');
    typ := entry ->> 'type';
    IF depth <= ${literal(MAX_FILTER_DEPTH)} AND jsonb_typeof(node -> 'value') = 'string'
        AND (entry ->> 'filter')::boolean AND typ = ANY (${TYPES})
        AND NOT (node ? 'and' OR node ? 'or' OR node ? 'not') THEN
      IF typ <> 'text' THEN
        PERFORM api.filter_check_value(node ->> 'value', typ, node ->> 'column');
      END IF;
      vals := vals || (node ->> 'value');
      clause := ${comparison(sql`(entry ->> 'sql')`, sql`cardinality(vals)`, "      ")};
      RETURN;
    END IF;
  END IF;
  IF depth > ${literal(MAX_FILTER_DEPTH)} THEN
    ${raise400(sql`'filter is nested too deeply'`)}
  END IF;
  IF jsonb_typeof(node) IS DISTINCT FROM 'object' THEN
    ${MALFORMED}
  END IF;
  IF node ? 'and' OR node ? 'or' THEN
    kind := CASE WHEN node ? 'and' THEN 'and' ELSE 'or' END;
    IF jsonb_typeof(node -> kind) IS DISTINCT FROM 'array' THEN
      ${MALFORMED}
    END IF;
    FOR item IN SELECT a.e FROM jsonb_array_elements(node -> kind) AS a(e) LOOP
      sub := api.filter_sql(item, columns, vals, depth + 1);
      vals := sub.vals;
      part := sub.clause;
      parts := parts || part;
    END LOOP;
    IF cardinality(parts) = 0 THEN
      clause := CASE kind WHEN 'and' THEN '(true)' ELSE '(false)' END;
    ELSE
      clause := '(' || array_to_string(parts, CASE kind WHEN 'and' THEN ' AND ' ELSE ' OR ' END) || ')';
    END IF;
    RETURN;
  END IF;
  IF node ? 'not' THEN
    sub := api.filter_sql(node -> 'not', columns, vals, depth + 1);
    vals := sub.vals;
    part := sub.clause;
    clause := '(NOT ' || part || ')';
    RETURN;
  END IF;
  col := node ->> 'column';
  op := node ->> 'op';
  IF col IS NULL OR op IS NULL THEN
    ${MALFORMED}
  END IF;
  entry := columns -> col;
  IF entry IS NOT NULL AND (entry ->> 'filter')::boolean THEN
    expr := entry ->> 'sql';
    typ := entry ->> 'type';
  ELSE
    -- table.column.jsonKey: a key of a JSON column, compared as text.
    dot1 := strpos(col, '.');
    dot2 := CASE WHEN dot1 > 0 THEN strpos(substr(col, dot1 + 1), '.') ELSE 0 END;
    entry := CASE WHEN dot2 > 0 THEN columns -> left(col, dot1 + dot2 - 1) END;
    IF entry IS NULL OR NOT (entry ->> 'filter')::boolean OR NOT (entry ->> 'json')::boolean THEN
      ${raise400(sql`format('column "%s" is not available for filtering', left(col, 200))`)}
    END IF;
    vals := vals || substr(col, dot1 + dot2 + 1);
    expr := '(' || (entry ->> 'sql') || ' ->> $3[' || cardinality(vals) || '])';
    typ := 'text';
  END IF;
  IF NOT typ = ANY (${TYPES}) THEN
    RAISE EXCEPTION 'api.filter_sql: unknown type %', typ;
  END IF;
  val := node -> 'value';
  IF op IN ('null', 'notnull') THEN
    clause := '(' || expr || CASE op WHEN 'null' THEN ' IS NULL)' ELSE ' IS NOT NULL)' END;
  ELSIF op = 'in' THEN
    IF jsonb_typeof(val) IS DISTINCT FROM 'array' OR jsonb_array_length(val) = 0 THEN
      ${raise400(sql`'filter operator in needs a list of values'`)}
    END IF;
    first := cardinality(vals) + 1;
    FOR item IN SELECT a.e FROM jsonb_array_elements(val) AS a(e) LOOP
      IF jsonb_typeof(item) IS DISTINCT FROM 'string' THEN
        ${MALFORMED}
      END IF;
      IF typ <> 'text' THEN
        PERFORM api.filter_check_value(item #>> '{}', typ, col);
      END IF;
      vals := vals || (item #>> '{}');
    END LOOP;
    clause := '(' || expr || ' = ANY(' || CASE WHEN typ = 'text' THEN '' ELSE 'CAST(' END
      || '$3[' || first || ':' || cardinality(vals) || ']'
      || CASE WHEN typ = 'text' THEN '' ELSE ' AS ' || typ || '[])' END || '))';
  ELSIF op IN ('has', 'sw', 'ew', 'eq', 'ne', 'gt', 'gte', 'lt', 'lte') THEN
    IF jsonb_typeof(val) IS DISTINCT FROM 'string' THEN
      ${raise400(sql`format('filter operator %s needs one value', op)`)}
    END IF;
    vals := vals || (val #>> '{}');
    n := cardinality(vals);
    IF op IN ('has', 'sw', 'ew') THEN
      clause := '(' || expr || CASE WHEN typ = 'text' THEN '' ELSE '::text' END || ' ILIKE '
        || CASE WHEN op = 'sw' THEN '' ELSE '''%'' || ' END
        || 'api.like_literal($3[' || n || '])'
        || CASE WHEN op = 'ew' THEN '' ELSE ' || ''%''' END || ')';
    ELSE
      -- Any text is a valid text: only other types are checked (a call saved on the common case).
      IF typ <> 'text' THEN
        PERFORM api.filter_check_value(val #>> '{}', typ, col);
      END IF;
      clause := ${comparison(sql`expr`, sql`n`, "      ")};
    END IF;
  ELSE
    ${raise400(sql`'unknown filter operator'`)}
  END IF;
END
$fn$;`;

// EXECUTE plans its text on every call: for a filtered or sorted page that is most of the work
// (the example's projects, filter and sort: 280 of 450 us a call). A prepared statement named by
// the text's digest is planned like the hand-written server's statements (plan_cache_mode auto:
// custom plans first, the generic plan once it costs no more) when the text compares client
// values (a filter), whose selectivity a custom plan can use. Without them (a sort, a cursor, a
// total mode) the plan's shape does not depend on the values, and auto would plan every call: a
// custom plan sees the page's LIMIT as a constant while the generic plan guesses a tenth of the
// rows, so the generic one never looks cheap enough; those texts run their generic plan. It is
// used only when the session's statement of that name holds exactly this text: the calling
// session (api_gateway's: the gateway, or SQL injected into a handler's req.db) could have
// prepared another under the name, which is dropped unrun. A text longer than the whole cap is
// planned per call; otherwise the least used texts kept are dropped until it fits.
// The text is resolved with the same search_path as the route functions': every table it names
// is schema-qualified, and names in raw SQL of the schema resolve as in the route function.
// `explain` answers the plan instead (a `planned` total: the count query's estimate), from the
// same prepared statement: EXPLAIN EXECUTE shows the plan the statement holds, so a text without
// client values is planned once per connection, where EXPLAIN of the text planned it every time
// (the example's projects: 1.2-1.5 ms a request with `count=planned`, against 0.5 exact).
const EXECUTE_CACHED = sql`CREATE FUNCTION api.execute_cached(query text, params jsonb, ctx jsonb,
  vals text[], cursor_keys text[], total bigint, count_mode text, explain boolean)
RETURNS json
LANGUAGE plpgsql
SET search_path = pg_catalog, api, pg_temp
SET plan_cache_mode = auto
AS $fn$
DECLARE
  statement_name text := 'api_q_' || md5(query);
  command text := format('PREPARE %I(jsonb, jsonb, text[], text[], bigint, text) AS ', statement_name) || query;
  held text;
  kept bigint;
  victim text;
  mode text;
  result json;
  -- The statement's plan instead of its answer (a planned total).
  prefix text := CASE WHEN explain THEN 'EXPLAIN (FORMAT JSON) ' ELSE '' END;
BEGIN
  SELECT s.statement INTO held FROM pg_prepared_statements AS s WHERE s.name = statement_name;
  IF held IS DISTINCT FROM command AND length(command) <= ${literal(MAX_CACHED_BYTES)} THEN
    -- Another text under the name (the session prepared it) is dropped, never run; then the
    -- least used of the texts kept give way until this one fits.
    IF held IS NOT NULL THEN
      EXECUTE format('DEALLOCATE %I', statement_name);
    END IF;
    LOOP
      SELECT COALESCE(sum(length(s.statement)), 0),
          (array_agg(s.name ORDER BY s.generic_plans + s.custom_plans, s.prepare_time))[1]
        INTO kept, victim
        FROM pg_prepared_statements AS s WHERE s.name LIKE 'api\_q\_%';
      EXIT WHEN kept + length(command) <= ${literal(MAX_CACHED_BYTES)};
      EXECUTE format('DEALLOCATE %I', victim);
    END LOOP;
    EXECUTE command;
    held := command;
  END IF;
  IF held IS DISTINCT FROM command THEN
    EXECUTE prefix || query INTO result USING params, ctx, vals, cursor_keys, total, count_mode;
    RETURN result;
  END IF;
  -- Local to this call: the function's own SET puts auto back when it returns.
  mode := set_config('plan_cache_mode',
    CASE WHEN COALESCE(cardinality(vals), 0) = 0 THEN 'force_generic_plan' ELSE 'auto' END, true);
  EXECUTE format(prefix || 'EXECUTE %I(%L, %L, %L, %L, %L, %L)', statement_name, params, ctx, vals,
    cursor_keys, total, count_mode) INTO result;
  RETURN result;
END
$fn$;`;

const ownership = (signature: string): Sql[] => {
  const fn = signatureSql(signature);
  return [sql`ALTER FUNCTION ${fn} OWNER TO api_owner;`, sql`REVOKE ALL ON FUNCTION ${fn} FROM PUBLIC;`];
};

/** The helper signatures are generator constants. */
function signatureSql(signature: string): Sql {
  const known: Record<string, Sql> = {
    "api.json_concat_objects(json[])": sql`api.json_concat_objects(json[])`,
    "api.filter_check_value(text, text, text)": sql`api.filter_check_value(text, text, text)`,
    "api.filter_sql(jsonb, jsonb, text[], integer)": sql`api.filter_sql(jsonb, jsonb, text[], integer)`,
    "api.execute_cached(text, jsonb, jsonb, text[], text[], bigint, text, boolean)": sql`api.execute_cached(text, jsonb, jsonb, text[], text[], bigint, text, boolean)`,
  };
  const found = known[signature];
  if (!found) throw new Error(`unknown helper ${signature}`);
  return found;
}

export function helperStatements(): string[] {
  const creates = [JSON_CONCAT, CHECK_VALUE, FILTER_SQL, EXECUTE_CACHED];
  return creates.flatMap((create, i) => [create, ...ownership(HELPER_FUNCTIONS[i] as string)]).map(String);
}
