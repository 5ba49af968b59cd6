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
  _api_sort_order text;
  _api_sort_by text;
  _api_filter jsonb;
  _api_columns jsonb;
  _api_entry jsonb;
  _api_where text;
  _api_order text;
  _api_clause text;
  _api_values text[] := '{}';
  _api_result json;
  _api_query text;
  _api_fsql text;
  _api_fop text;
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  BEGIN
    IF COALESCE(($1->>'page')::bigint, 1) < 1 OR COALESCE(($1->>'perPage')::bigint, 10) < 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'page and perPage must be at least 1';
    END IF;
    _api_sort_order := upper(COALESCE($1->>'sortOrder', 'ASC'));
    IF _api_sort_order NOT IN ('ASC', 'DESC', 'NONE', 'RAND') THEN
      RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'sortOrder must be one of ASC, DESC, NONE, RAND';
    END IF;
    _api_sort_by := NULLIF($1->>'sortBy', '');
    _api_filter := NULLIF($1->'filter', 'null'::jsonb);
    IF _api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC' THEN
      RETURN (SELECT json_build_object(
        'data', COALESCE((SELECT json_agg(CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[]))
              THEN json_build_object(
                'id', "user"."id",
                'email', "user"."email",
                'lastLoginOn', "user"."lastLoginOn",
                'settings', "user"."settings",
                'companyName', "c"."name",
                'emailDomain', (split_part("user"."email", '@', 2))
              )
              ELSE api.json_concat_objects(ARRAY[
                json_build_object(
                  'id', "user"."id",
                  'email', "user"."email"
                ),
                CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN json_build_object(
                  'lastLoginOn', "user"."lastLoginOn"
                ) END,
                json_build_object(
                  'settings', "user"."settings",
                  'companyName', "c"."name",
                  'emailDomain', (split_part("user"."email", '@', 2))
                )
              ]::json[])
            END) FROM (
          SELECT "user" AS _api_w0, "c" AS _api_w1
          FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed('{}'::text[], ARRAY['billing:read']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE "user"."companyId" = ($2->>'companyId')::bigint
          ORDER BY "user"."email" ASC, "user"."id" ASC
          LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"
        CROSS JOIN LATERAL (SELECT (_api_p._api_w1).*) AS "c"), '[]'::json),
        'total', (SELECT count(*) FROM (
          SELECT 1, (split_part("user"."email", '@', 2))
          FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed('{}'::text[], ARRAY['billing:read']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE "user"."companyId" = ($2->>'companyId')::bigint
        ) AS _api_c)));
    END IF;
    _api_columns := '{"user.id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"user.email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"user.lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.settings":{"sql":"\"user\".\"settings\"","type":"jsonb","filter":true,"sort":true,"json":true},"c.name":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"company.name":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"settings":{"sql":"\"user\".\"settings\"","type":"jsonb","filter":true,"sort":true,"json":true},"companyName":{"sql":"\"c\".\"name\"","type":"text","filter":true,"sort":true,"json":false},"emailDomain":{"sql":"(split_part(\"user\".\"email\", ''@'', 2))","type":null,"filter":false,"sort":true,"json":false}}'::jsonb;
    IF NOT api.allowed(ARRAY['admin']::text[], '{}'::text[]) THEN
      _api_columns := _api_columns - ARRAY['user.lastLoginOn', 'lastLoginOn']::text[];
    END IF;
    _api_where := '("user"."companyId" = ($2->>''companyId'')::bigint)';
    IF _api_filter IS NOT NULL THEN
      SELECT f.vals, f.clause INTO _api_values, _api_clause FROM api.filter_sql(_api_filter, _api_columns, _api_values, 0) AS f;
      _api_where := _api_where || ' AND ' || _api_clause;
    END IF;
    IF _api_sort_by IS NOT NULL THEN
      _api_entry := _api_columns -> _api_sort_by;
      IF _api_entry IS NULL OR NOT (_api_entry->>'sort')::boolean THEN
        RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = format('column "%s" is not available for sorting', left(_api_sort_by, 200));
      END IF;
    END IF;
    IF _api_filter IS NOT NULL AND _api_sort_by IS NULL AND _api_sort_order = 'ASC'
      AND jsonb_typeof(_api_filter) = 'object' AND NOT (_api_filter ?| ARRAY['and', 'or', 'not']) THEN
      _api_entry := _api_columns -> (_api_filter->>'column');
      IF _api_entry IS NOT NULL AND (_api_entry->>'filter')::boolean THEN
        _api_fsql := _api_entry->>'sql';
        _api_fop := _api_filter->>'op';
        RETURN (SELECT json_build_object(
          'data', COALESCE((SELECT json_agg(CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[]))
              THEN json_build_object(
                'id', "user"."id",
                'email', "user"."email",
                'lastLoginOn', "user"."lastLoginOn",
                'settings', "user"."settings",
                'companyName', "c"."name",
                'emailDomain', (split_part("user"."email", '@', 2))
              )
              ELSE api.json_concat_objects(ARRAY[
                json_build_object(
                  'id', "user"."id",
                  'email', "user"."email"
                ),
                CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN json_build_object(
                  'lastLoginOn', "user"."lastLoginOn"
                ) END,
                json_build_object(
                  'settings', "user"."settings",
                  'companyName', "c"."name",
                  'emailDomain', (split_part("user"."email", '@', 2))
                )
              ]::json[])
            END) FROM (
            SELECT "user" AS _api_w0, "c" AS _api_w1
            FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed('{}'::text[], ARRAY['billing:read']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
            WHERE ("user"."companyId" = ($2->>'companyId')::bigint) AND (((SELECT _api_fsql <> '"user"."id"') OR CASE _api_fop WHEN 'eq' THEN "user"."id" = CAST(_api_values[1] AS bigint) WHEN 'ne' THEN "user"."id" <> CAST(_api_values[1] AS bigint) WHEN 'gt' THEN "user"."id" > CAST(_api_values[1] AS bigint) WHEN 'gte' THEN "user"."id" >= CAST(_api_values[1] AS bigint) WHEN 'lt' THEN "user"."id" < CAST(_api_values[1] AS bigint) WHEN 'lte' THEN "user"."id" <= CAST(_api_values[1] AS bigint) WHEN 'has' THEN "user"."id"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."id"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."id"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."id" = ANY(CAST(_api_values AS bigint[])) WHEN 'null' THEN "user"."id" IS NULL WHEN 'notnull' THEN "user"."id" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."email"') OR CASE _api_fop WHEN 'eq' THEN "user"."email" = _api_values[1] WHEN 'ne' THEN "user"."email" <> _api_values[1] WHEN 'gt' THEN "user"."email" > _api_values[1] WHEN 'gte' THEN "user"."email" >= _api_values[1] WHEN 'lt' THEN "user"."email" < _api_values[1] WHEN 'lte' THEN "user"."email" <= _api_values[1] WHEN 'has' THEN "user"."email" ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."email" ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."email" ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."email" = ANY(_api_values) WHEN 'null' THEN "user"."email" IS NULL WHEN 'notnull' THEN "user"."email" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."lastLoginOn"') OR CASE _api_fop WHEN 'eq' THEN "user"."lastLoginOn" = CAST(_api_values[1] AS timestamptz) WHEN 'ne' THEN "user"."lastLoginOn" <> CAST(_api_values[1] AS timestamptz) WHEN 'gt' THEN "user"."lastLoginOn" > CAST(_api_values[1] AS timestamptz) WHEN 'gte' THEN "user"."lastLoginOn" >= CAST(_api_values[1] AS timestamptz) WHEN 'lt' THEN "user"."lastLoginOn" < CAST(_api_values[1] AS timestamptz) WHEN 'lte' THEN "user"."lastLoginOn" <= CAST(_api_values[1] AS timestamptz) WHEN 'has' THEN "user"."lastLoginOn"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."lastLoginOn"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."lastLoginOn"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."lastLoginOn" = ANY(CAST(_api_values AS timestamptz[])) WHEN 'null' THEN "user"."lastLoginOn" IS NULL WHEN 'notnull' THEN "user"."lastLoginOn" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."settings"') OR CASE _api_fop WHEN 'eq' THEN "user"."settings" = CAST(_api_values[1] AS jsonb) WHEN 'ne' THEN "user"."settings" <> CAST(_api_values[1] AS jsonb) WHEN 'gt' THEN "user"."settings" > CAST(_api_values[1] AS jsonb) WHEN 'gte' THEN "user"."settings" >= CAST(_api_values[1] AS jsonb) WHEN 'lt' THEN "user"."settings" < CAST(_api_values[1] AS jsonb) WHEN 'lte' THEN "user"."settings" <= CAST(_api_values[1] AS jsonb) WHEN 'has' THEN "user"."settings"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."settings"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."settings"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."settings" = ANY(CAST(_api_values AS jsonb[])) WHEN 'null' THEN "user"."settings" IS NULL WHEN 'notnull' THEN "user"."settings" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"c"."name"') OR CASE _api_fop WHEN 'eq' THEN "c"."name" = _api_values[1] WHEN 'ne' THEN "c"."name" <> _api_values[1] WHEN 'gt' THEN "c"."name" > _api_values[1] WHEN 'gte' THEN "c"."name" >= _api_values[1] WHEN 'lt' THEN "c"."name" < _api_values[1] WHEN 'lte' THEN "c"."name" <= _api_values[1] WHEN 'has' THEN "c"."name" ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "c"."name" ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "c"."name" ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "c"."name" = ANY(_api_values) WHEN 'null' THEN "c"."name" IS NULL WHEN 'notnull' THEN "c"."name" IS NOT NULL END))
            ORDER BY "user"."email" ASC, "user"."id" ASC
            LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
          ) AS _api_p
          CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"
          CROSS JOIN LATERAL (SELECT (_api_p._api_w1).*) AS "c"), '[]'::json),
          'total', (SELECT count(*) FROM (
            SELECT 1, (split_part("user"."email", '@', 2))
            FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY['admin']::text[], '{}'::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed('{}'::text[], ARRAY['billing:read']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
            WHERE ("user"."companyId" = ($2->>'companyId')::bigint) AND (((SELECT _api_fsql <> '"user"."id"') OR CASE _api_fop WHEN 'eq' THEN "user"."id" = CAST(_api_values[1] AS bigint) WHEN 'ne' THEN "user"."id" <> CAST(_api_values[1] AS bigint) WHEN 'gt' THEN "user"."id" > CAST(_api_values[1] AS bigint) WHEN 'gte' THEN "user"."id" >= CAST(_api_values[1] AS bigint) WHEN 'lt' THEN "user"."id" < CAST(_api_values[1] AS bigint) WHEN 'lte' THEN "user"."id" <= CAST(_api_values[1] AS bigint) WHEN 'has' THEN "user"."id"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."id"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."id"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."id" = ANY(CAST(_api_values AS bigint[])) WHEN 'null' THEN "user"."id" IS NULL WHEN 'notnull' THEN "user"."id" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."email"') OR CASE _api_fop WHEN 'eq' THEN "user"."email" = _api_values[1] WHEN 'ne' THEN "user"."email" <> _api_values[1] WHEN 'gt' THEN "user"."email" > _api_values[1] WHEN 'gte' THEN "user"."email" >= _api_values[1] WHEN 'lt' THEN "user"."email" < _api_values[1] WHEN 'lte' THEN "user"."email" <= _api_values[1] WHEN 'has' THEN "user"."email" ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."email" ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."email" ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."email" = ANY(_api_values) WHEN 'null' THEN "user"."email" IS NULL WHEN 'notnull' THEN "user"."email" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."lastLoginOn"') OR CASE _api_fop WHEN 'eq' THEN "user"."lastLoginOn" = CAST(_api_values[1] AS timestamptz) WHEN 'ne' THEN "user"."lastLoginOn" <> CAST(_api_values[1] AS timestamptz) WHEN 'gt' THEN "user"."lastLoginOn" > CAST(_api_values[1] AS timestamptz) WHEN 'gte' THEN "user"."lastLoginOn" >= CAST(_api_values[1] AS timestamptz) WHEN 'lt' THEN "user"."lastLoginOn" < CAST(_api_values[1] AS timestamptz) WHEN 'lte' THEN "user"."lastLoginOn" <= CAST(_api_values[1] AS timestamptz) WHEN 'has' THEN "user"."lastLoginOn"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."lastLoginOn"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."lastLoginOn"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."lastLoginOn" = ANY(CAST(_api_values AS timestamptz[])) WHEN 'null' THEN "user"."lastLoginOn" IS NULL WHEN 'notnull' THEN "user"."lastLoginOn" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"user"."settings"') OR CASE _api_fop WHEN 'eq' THEN "user"."settings" = CAST(_api_values[1] AS jsonb) WHEN 'ne' THEN "user"."settings" <> CAST(_api_values[1] AS jsonb) WHEN 'gt' THEN "user"."settings" > CAST(_api_values[1] AS jsonb) WHEN 'gte' THEN "user"."settings" >= CAST(_api_values[1] AS jsonb) WHEN 'lt' THEN "user"."settings" < CAST(_api_values[1] AS jsonb) WHEN 'lte' THEN "user"."settings" <= CAST(_api_values[1] AS jsonb) WHEN 'has' THEN "user"."settings"::text ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "user"."settings"::text ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "user"."settings"::text ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "user"."settings" = ANY(CAST(_api_values AS jsonb[])) WHEN 'null' THEN "user"."settings" IS NULL WHEN 'notnull' THEN "user"."settings" IS NOT NULL END)
            AND ((SELECT _api_fsql <> '"c"."name"') OR CASE _api_fop WHEN 'eq' THEN "c"."name" = _api_values[1] WHEN 'ne' THEN "c"."name" <> _api_values[1] WHEN 'gt' THEN "c"."name" > _api_values[1] WHEN 'gte' THEN "c"."name" >= _api_values[1] WHEN 'lt' THEN "c"."name" < _api_values[1] WHEN 'lte' THEN "c"."name" <= _api_values[1] WHEN 'has' THEN "c"."name" ILIKE '%' || api.like_literal(_api_values[1]) || '%' WHEN 'sw' THEN "c"."name" ILIKE api.like_literal(_api_values[1]) || '%' WHEN 'ew' THEN "c"."name" ILIKE '%' || api.like_literal(_api_values[1]) WHEN 'in' THEN "c"."name" = ANY(_api_values) WHEN 'null' THEN "c"."name" IS NULL WHEN 'notnull' THEN "c"."name" IS NOT NULL END))
          ) AS _api_c)));
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
    _api_query := 'SELECT json_build_object(
        ''data'', COALESCE((SELECT json_agg(CASE WHEN (SELECT api.allowed(ARRAY[''admin'']::text[], ''{}''::text[]))
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
                CASE WHEN (SELECT api.allowed(ARRAY[''admin'']::text[], ''{}''::text[])) THEN json_build_object(
                  ''lastLoginOn'', "user"."lastLoginOn"
                ) END,
                json_build_object(
                  ''settings'', "user"."settings",
                  ''companyName'', "c"."name",
                  ''emailDomain'', (split_part("user"."email", ''@'', 2))
                )
              ]::json[])
            END) FROM (
          SELECT "user" AS _api_w0, "c" AS _api_w1
          FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY[''admin'']::text[], ''{}''::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed(''{}''::text[], ARRAY[''billing:read'']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE '
      || _api_where || '
          ORDER BY '
      || _api_order || '
          LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"
        CROSS JOIN LATERAL (SELECT (_api_p._api_w1).*) AS "c"), ''[]''::json),
        ''total'', (SELECT count(*) FROM (
          SELECT 1, (split_part("user"."email", ''@'', 2))
          FROM (SELECT "id", "companyId", "email", "firstName", CASE WHEN (SELECT api.allowed(ARRAY[''admin'']::text[], ''{}''::text[])) THEN "lastLoginOn" END AS "lastLoginOn", "settings" FROM "public"."user") AS "user"
          LEFT JOIN (SELECT "id", "name", CASE WHEN (SELECT api.allowed(''{}''::text[], ARRAY[''billing:read'']::text[])) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "c" ON "c"."id" = "user"."companyId"
          WHERE '
      || _api_where || '
        ) AS _api_c))';
    EXECUTE _api_query INTO _api_result USING $1, $2, _api_values;
    RETURN _api_result;
  EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_datetime_format
      OR datetime_field_overflow OR invalid_time_zone_displacement_value OR invalid_parameter_value THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'A request value does not match the type of the column it is compared with';
  END;
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user"(jsonb, jsonb) TO api_gateway;
