CREATE FUNCTION "api"."GET /api/v1/user"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  "_api_ctx_set" text[];
  _api_sort_order text;
  _api_sort_by text;
  _api_filter jsonb;
  _api_columns jsonb;
  _api_entry jsonb;
  _api_fentry jsonb;
  _api_where text;
  _api_order text;
  _api_filtered record;
  _api_values text[] := '{}';
  _api_query text;
  _api_count text;
  _api_total bigint;
  _api_plan json;
  _api_cwhere text;
  _api_extra text;
  _api_keys text;
  _api_key text;
  _api_key_type text;
  _api_key_desc boolean;
  _api_tail_desc boolean;
  _api_after jsonb;
  _api_cursor text[];
BEGIN
  "_api_ctx_set" := ARRAY[pg_catalog.set_config('api.ctx', COALESCE(ctx::text, ''), true),
    pg_catalog.set_config('api.ctx.role', COALESCE(ctx OPERATOR(pg_catalog.->>) 'role', ''), true),
    pg_catalog.set_config('api.ctx.scopes', COALESCE((ctx OPERATOR(pg_catalog.->) 'scopes')::text, ''), true),
    pg_catalog.set_config('api.ctx.userId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'userId', ''), true),
    pg_catalog.set_config('api.ctx.companyId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'companyId', ''), true)];
  IF COALESCE(($1->>'page')::bigint, 1) < 1 OR COALESCE(($1->>'perPage')::bigint, 10) < 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'page and perPage must be at least 1';
  END IF;
  IF NOT $1 ?| ARRAY['sortBy', 'filter', '$count', 'after'] AND upper(COALESCE($1->>'sortOrder', 'ASC')) = 'ASC' THEN
    IF COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false) THEN
      RETURN (SELECT json_build_object(
        'data', COALESCE((SELECT json_agg(json_build_object(
              'id', "user"."id",
              'email', "user"."email",
              'lastLoginOn', "user"."lastLoginOn",
              'settings', "user"."settings",
              'companyName', "c"."name",
              'emailDomain', (split_part("user"."email", '@', 2))
            )) FROM (
          SELECT "user"."id" AS _api_w0_0, "user"."email" AS _api_w0_2, "user"."lastLoginOn" AS _api_w0_4, "user"."settings" AS _api_w0_5, "c"."name" AS _api_w1_1
          FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN LATERAL (SELECT "c"."name" FROM (SELECT "id", "name" FROM "public"."company") AS "c" WHERE "c"."id" = "user"."companyId" OFFSET 0) AS "c" ON true
          WHERE "user"."companyId" = ($2->>'companyId')::bigint
          ORDER BY "user"."email" ASC, "user"."id" ASC
          LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_2 AS "email", _api_p._api_w0_4 AS "lastLoginOn", _api_p._api_w0_5 AS "settings") AS "user"
        CROSS JOIN LATERAL (SELECT _api_p._api_w1_1 AS "name") AS "c"), '[]'::json),
        'total', (SELECT count(*) FROM (
          SELECT 1, (split_part("user"."email", '@', 2))
          FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          WHERE "user"."companyId" = ($2->>'companyId')::bigint
        ) AS _api_c)));
    END IF;
    RETURN (SELECT json_build_object(
      'data', COALESCE((SELECT json_agg(api.json_concat_objects(ARRAY[
            json_build_object(
              'id', "user"."id",
              'email', "user"."email"
            ),
            CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN json_build_object(
              'lastLoginOn', "user"."lastLoginOn"
            ) END,
            json_build_object(
              'settings', "user"."settings",
              'companyName', "c"."name",
              'emailDomain', (split_part("user"."email", '@', 2))
            )
          ]::json[])) FROM (
        SELECT "user"."id" AS _api_w0_0, "user"."email" AS _api_w0_2, "user"."lastLoginOn" AS _api_w0_4, "user"."settings" AS _api_w0_5, "c"."name" AS _api_w1_1
        FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN LATERAL (SELECT "c"."name" FROM (SELECT "id", "name" FROM "public"."company") AS "c" WHERE "c"."id" = "user"."companyId" OFFSET 0) AS "c" ON true
        WHERE "user"."companyId" = ($2->>'companyId')::bigint
        ORDER BY "user"."email" ASC, "user"."id" ASC
        LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
      ) AS _api_p
      CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_2 AS "email", _api_p._api_w0_4 AS "lastLoginOn", _api_p._api_w0_5 AS "settings") AS "user"
      CROSS JOIN LATERAL (SELECT _api_p._api_w1_1 AS "name") AS "c"), '[]'::json),
      'total', (SELECT count(*) FROM (
        SELECT 1, (split_part("user"."email", '@', 2))
        FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        WHERE "user"."companyId" = ($2->>'companyId')::bigint
      ) AS _api_c)));
  END IF;
  _api_sort_order := upper(COALESCE($1->>'sortOrder', 'ASC'));
  IF _api_sort_order NOT IN ('ASC', 'DESC', 'NONE', 'RAND') THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'sortOrder must be one of ASC, DESC, NONE, RAND';
  END IF;
  _api_sort_by := NULLIF($1->>'sortBy', '');
  _api_filter := NULLIF($1->'filter', 'null'::jsonb);
  _api_count := COALESCE($1->>'$count', 'exact');
  IF _api_count NOT IN ('exact', 'planned', 'estimated') THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'count must be one of exact, planned, estimated';
  END IF;
  _api_columns := '{"user.id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"user.email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"user.lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.settings":{"sql":"\"user\".\"settings\"","type":"jsonb","filter":true,"sort":true,"json":true},"c.name":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"company.name":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"settings":{"sql":"\"user\".\"settings\"","type":"jsonb","filter":true,"sort":true,"json":true},"companyName":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"emailDomain":{"sql":"(split_part(\"user\".\"email\", ''@'', 2))","type":null,"filter":false,"sort":true,"json":false}}'::jsonb;
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false) THEN
    _api_columns := _api_columns - ARRAY['user.lastLoginOn', 'lastLoginOn']::text[];
  END IF;
  _api_where := '("user"."companyId" = ($2->>''companyId'')::bigint)';
  IF _api_filter IS NOT NULL THEN
    _api_fentry := _api_columns -> (_api_filter->>'column');
    IF (_api_filter->>'op') IN ('eq', 'ne', 'gt', 'gte', 'lt', 'lte') AND jsonb_typeof(_api_filter->'value') = 'string'
      AND (_api_fentry->>'filter')::boolean
      AND NOT _api_filter ?| ARRAY['and', 'or', 'not'] THEN
      IF (_api_fentry->>'type') <> 'text' THEN
        PERFORM api.filter_check_value(_api_filter->>'value', (_api_fentry->>'type'), _api_filter->>'column');
      END IF;
      _api_values := ARRAY[_api_filter->>'value'];
      _api_where := _api_where || ' AND ' || '(' || (_api_fentry->>'sql') || ' '
        || CASE (_api_filter->>'op') WHEN 'eq' THEN '=' WHEN 'ne' THEN '<>' WHEN 'gt' THEN '>' WHEN 'gte' THEN '>='
             WHEN 'lt' THEN '<' ELSE '<=' END
        || ' ' || CASE WHEN (_api_fentry->>'type') = 'text' THEN '$3[' || 1 || ']'
             ELSE 'CAST($3[' || 1 || '] AS ' || (_api_fentry->>'type') || ')' END
        || ')';
    ELSE
      _api_filtered := api.filter_sql(_api_filter, _api_columns, _api_values, 0);
      _api_values := _api_filtered.vals;
      _api_where := _api_where || ' AND ' || _api_filtered.clause;
    END IF;
  END IF;
  IF _api_sort_by IS NOT NULL THEN
    _api_entry := _api_columns -> _api_sort_by;
    IF _api_entry IS NULL OR NOT (_api_entry->>'sort')::boolean THEN
      RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = format('column "%s" is not available for sorting', left(_api_sort_by, 200));
    END IF;
  END IF;
  _api_order := CASE
    WHEN _api_sort_order = 'RAND' THEN 'random(), "user"."id" ASC'
    WHEN _api_sort_order = 'NONE' THEN '"user"."id" ASC'
    WHEN _api_sort_by IS NOT NULL AND _api_sort_order = 'DESC' THEN (_api_entry->>'sql') || ' DESC, "user"."id" DESC'
    WHEN _api_sort_by IS NOT NULL THEN (_api_entry->>'sql') || ' ASC, "user"."id" ASC'
    WHEN _api_sort_order = 'DESC' THEN '"user"."email" DESC, "user"."id" DESC'
    ELSE '"user"."email" ASC, "user"."id" ASC'
  END;
  IF _api_count <> 'exact' OR $1 ? 'after' THEN
    _api_cwhere := _api_where;
    _api_keys := 'NULL';
    _api_extra := '';
    IF $1 ? 'after' THEN
      IF _api_sort_order = 'RAND' THEN
        RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after cannot be combined with sortOrder RAND';
      END IF;
      IF COALESCE(($1->>'page')::bigint, 1) <> 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after cannot be combined with page';
      END IF;
      IF NOT (_api_columns ?& ARRAY['user.id']::text[]) THEN
        RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after: this route''s primary key is hidden from you';
      END IF;
      IF _api_sort_by IS NOT NULL THEN
        IF _api_entry->>'type' IS NULL THEN
          RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after cannot be combined with sorting by a computed property';
        END IF;
        _api_key := _api_entry->>'sql';
        _api_key_type := _api_entry->>'type';
        _api_key_desc := _api_sort_order = 'DESC';
      ELSIF _api_sort_order = 'NONE' THEN
        _api_key := NULL;
      ELSE
        IF NOT _api_columns ? 'user.email' THEN
          RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after: this route''s order column is hidden from you; use sortBy';
        END IF;
        _api_key := '"user"."email"';
        _api_key_type := 'text';
        _api_key_desc := false <> (_api_sort_order = 'DESC');
      END IF;
      _api_tail_desc := _api_sort_order = 'DESC';
      IF $1->>'after' <> '' THEN
        BEGIN
          _api_after := convert_from(decode(rpad(translate($1->>'after', '-_', '+/'), (length($1->>'after') + 3) / 4 * 4, '='), 'base64'), 'UTF8')::jsonb;
        EXCEPTION WHEN OTHERS THEN
          _api_after := NULL;
        END;
        IF NOT (_api_after IS NOT NULL AND jsonb_typeof(_api_after) = 'object' AND jsonb_typeof(_api_after->'k') IS NOT DISTINCT FROM 'array'
          AND (_api_after->>'s') IS NOT DISTINCT FROM COALESCE(_api_sort_by, '') AND (_api_after->>'o') IS NOT DISTINCT FROM _api_sort_order
          AND jsonb_array_length(_api_after->'k') = 1 + (CASE WHEN _api_key IS NULL THEN 0 ELSE 1 END)) THEN
          RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'after is not a cursor of this route for this sortBy and sortOrder';
        END IF;
        _api_cursor := ARRAY(SELECT jsonb_array_elements_text(_api_after->'k'));
      END IF;
      _api_keys := 'json_build_array(' || CASE WHEN _api_key IS NULL THEN '' ELSE _api_key || ', ' END || '"user"."id")';
      _api_extra := ', ''next'', CASE WHEN count(*) = COALESCE(($1->>''perPage'')::bigint, 10) THEN translate(encode(convert_to(json_build_object(''s'', COALESCE(NULLIF($1->>''sortBy'', ''''), ''''), ''o'', upper(COALESCE($1->>''sortOrder'', ''ASC'')), ''k'', (array_agg(_api_p._api_k))[count(*)])::text, ''UTF8''), ''base64''), ''+/='' || chr(10), ''-_'') END';
      IF _api_cursor IS NOT NULL THEN
        _api_where := _api_where || ' AND ' || CASE
          WHEN _api_key IS NULL THEN CASE WHEN _api_tail_desc THEN '(("user"."id") < (CAST($4[1] AS bigint)))' ELSE '(("user"."id") > (CAST($4[1] AS bigint)))' END
          WHEN _api_cursor[1] IS NULL AND _api_key_desc THEN '(' || _api_key || ' IS NOT NULL OR (' || _api_key || ' IS NULL AND ' || CASE WHEN _api_tail_desc THEN '(("user"."id") < (CAST($4[2] AS bigint)))' ELSE '(("user"."id") > (CAST($4[2] AS bigint)))' END || '))'
          WHEN _api_cursor[1] IS NULL THEN '(' || _api_key || ' IS NULL AND ' || CASE WHEN _api_tail_desc THEN '(("user"."id") < (CAST($4[2] AS bigint)))' ELSE '(("user"."id") > (CAST($4[2] AS bigint)))' END || ')'
          WHEN _api_key_desc = _api_tail_desc AND _api_key_desc THEN '((' || _api_key || ', ' || '"user"."id"' || ') < (' || ('CAST($4[1] AS ' || _api_key_type || ')') || ', ' || 'CAST($4[2] AS bigint)' || '))'
          WHEN _api_key_desc = _api_tail_desc THEN '(((' || _api_key || ', ' || '"user"."id"' || ') > (' || ('CAST($4[1] AS ' || _api_key_type || ')') || ', ' || 'CAST($4[2] AS bigint)' || ')) OR ' || _api_key || ' IS NULL)'
          WHEN _api_key_desc THEN '(' || _api_key || ' < ' || ('CAST($4[1] AS ' || _api_key_type || ')') || ' OR (' || _api_key || ' = ' || ('CAST($4[1] AS ' || _api_key_type || ')') || ' AND ' || CASE WHEN _api_tail_desc THEN '(("user"."id") < (CAST($4[2] AS bigint)))' ELSE '(("user"."id") > (CAST($4[2] AS bigint)))' END || '))'
          ELSE '(' || _api_key || ' > ' || ('CAST($4[1] AS ' || _api_key_type || ')') || ' OR ' || _api_key || ' IS NULL OR (' || _api_key || ' = ' || ('CAST($4[1] AS ' || _api_key_type || ')') || ' AND ' || CASE WHEN _api_tail_desc THEN '(("user"."id") < (CAST($4[2] AS bigint)))' ELSE '(("user"."id") > (CAST($4[2] AS bigint)))' END || '))'
        END;
      END IF;
    END IF;
    IF _api_count = 'estimated' THEN
      _api_total := api.execute_cached('SELECT to_json(count(*)) FROM (' || 'SELECT 1, (split_part("user"."email", ''@'', 2))
      FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
      WHERE ' || _api_cwhere || '' || ' LIMIT 1001) AS _api_c',
        $1, $2, _api_values, NULL, NULL, NULL, false)::text::bigint;
      IF _api_total > 1000 THEN
        _api_total := NULL;
        _api_count := 'planned';
      ELSE
        _api_count := 'exact';
      END IF;
      _api_extra := _api_extra || ', ''totalMode'', $6::text';
    ELSIF _api_count = 'planned' THEN
      _api_extra := _api_extra || ', ''totalMode'', $6::text';
    END IF;
    IF _api_count = 'planned' THEN
      _api_plan := api.execute_cached('SELECT 1, (split_part("user"."email", ''@'', 2))
      FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
      WHERE ' || _api_cwhere || '',
        $1, $2, _api_values, NULL, NULL, NULL, true);
      _api_total := round((_api_plan->0->'Plan'->>'Plan Rows')::numeric);
    END IF;
    _api_query := 'SELECT json_build_object(
        ''data'', COALESCE(json_agg(CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false))
            THEN json_build_object(
              ''id'', "user"."id",
              ''email'', "user"."email",
              ''lastLoginOn'', "user"."lastLoginOn",
              ''settings'', "user"."settings",
              ''companyName'', "c"."name",
              ''emailDomain'', (split_part("user"."email", ''@'', 2))
            )
            ELSE api.json_concat_objects(ARRAY[
              json_build_object(
                ''id'', "user"."id",
                ''email'', "user"."email"
              ),
              CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN json_build_object(
                ''lastLoginOn'', "user"."lastLoginOn"
              ) END,
              json_build_object(
                ''settings'', "user"."settings",
                ''companyName'', "c"."name",
                ''emailDomain'', (split_part("user"."email", ''@'', 2))
              )
            ]::json[])
          END), ''[]''::json),
        ''total'', '
      || CASE WHEN _api_total IS NULL THEN '(SELECT count(*) FROM (
          SELECT 1, (split_part("user"."email", ''@'', 2))
          FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE ' || _api_cwhere || '
        ) AS _api_c)' ELSE '$5' END
      || _api_extra || ')
        FROM (
          SELECT "user"."id" AS _api_w0_0, "user"."email" AS _api_w0_2, "user"."lastLoginOn" AS _api_w0_4, "user"."settings" AS _api_w0_5, "c"."name" AS _api_w1_1, '
      || _api_keys || ' AS _api_k
          FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE '
      || _api_where || '
          ORDER BY '
      || _api_order || '
          LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_2 AS "email", _api_p._api_w0_4 AS "lastLoginOn", _api_p._api_w0_5 AS "settings") AS "user"
        CROSS JOIN LATERAL (SELECT _api_p._api_w1_1 AS "name") AS "c"';
    RETURN api.execute_cached(_api_query, $1, $2, _api_values, _api_cursor, _api_total, _api_count, false);
  END IF;
  _api_query := 'SELECT json_build_object(
      ''data'', COALESCE((SELECT json_agg(CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false))
            THEN json_build_object(
              ''id'', "user"."id",
              ''email'', "user"."email",
              ''lastLoginOn'', "user"."lastLoginOn",
              ''settings'', "user"."settings",
              ''companyName'', "c"."name",
              ''emailDomain'', (split_part("user"."email", ''@'', 2))
            )
            ELSE api.json_concat_objects(ARRAY[
              json_build_object(
                ''id'', "user"."id",
                ''email'', "user"."email"
              ),
              CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN json_build_object(
                ''lastLoginOn'', "user"."lastLoginOn"
              ) END,
              json_build_object(
                ''settings'', "user"."settings",
                ''companyName'', "c"."name",
                ''emailDomain'', (split_part("user"."email", ''@'', 2))
              )
            ]::json[])
          END) FROM (
        SELECT "user"."id" AS _api_w0_0, "user"."email" AS _api_w0_2, "user"."lastLoginOn" AS _api_w0_4, "user"."settings" AS _api_w0_5, "c"."name" AS _api_w1_1
        FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
        WHERE '
    || _api_where || '
        ORDER BY '
    || _api_order || '
        LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
      ) AS _api_p
      CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_2 AS "email", _api_p._api_w0_4 AS "lastLoginOn", _api_p._api_w0_5 AS "settings") AS "user"
      CROSS JOIN LATERAL (SELECT _api_p._api_w1_1 AS "name") AS "c"), ''[]''::json),
      ''total'', (SELECT count(*) FROM (
        SELECT 1, (split_part("user"."email", ''@'', 2))
        FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>''role'') = ANY (ARRAY[''admin'']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
        LEFT JOIN (SELECT "id", "name" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
        WHERE '
    || _api_where || '
      ) AS _api_c))';
  RETURN api.execute_cached(_api_query, $1, $2, _api_values, NULL, NULL, NULL, false);
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) TO api_gateway;
