CREATE FUNCTION "api"."GET /api/v1/item/all"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'id', "item"."id",
        'createdOn', "item"."createdOn",
        'modifiedOn', "item"."modifiedOn",
        'orderAmountCents', "orderId_order"."amountCents"
      ) AS j
    FROM "public"."item" AS "item"
    LEFT JOIN "public"."order" AS "orderId_order" ON "orderId_order"."id" = "item"."orderId"
    ORDER BY "item"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/item/all"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/item/all"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/item/all"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/order/all"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'id', "order"."id",
        'userFirstName', "userId_user"."firstName",
        'userLastName', "userId_user"."lastName",
        'companyName', "companyId_company"."name"
      ) AS j
    FROM "public"."order" AS "order"
    INNER JOIN "public"."user" AS "userId_user" ON "userId_user"."id" = "order"."userId"
    INNER JOIN "public"."company" AS "companyId_company" ON "companyId_company"."id" = "userId_user"."companyId"
    ORDER BY "order"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/order/all"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/order/all"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/order/all"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/all"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'id', "user"."id",
        'createdOn', "user"."createdOn",
        'modifiedOn', "user"."modifiedOn",
        'firstName', "user"."firstName",
        'lastName', "user"."lastName",
        'companyId', "user"."companyId",
        'password', "user"."password",
        'email', "user"."email",
        'role', "user"."role",
        'permissionLogin', "user"."permissionLogin",
        'lastLoginOn', "user"."lastLoginOn",
        'phone', "user"."phone",
        'loginDisabledOn', "user"."loginDisabledOn",
        'passwordResetGuid', "user"."passwordResetGuid",
        'verifyEmailPin', "user"."verifyEmailPin",
        'verifyEmailPinExpiresOn', "user"."verifyEmailPinExpiresOn",
        'accountStatus', "user"."accountStatus",
        'passwordResetExpiresOn', "user"."passwordResetExpiresOn",
        'onboardingStatus', "user"."onboardingStatus",
        'pendingEmail', "user"."pendingEmail",
        'testAge', "user"."testAge",
        'metadata', "user"."metadata"
      ) AS j
    FROM "public"."user" AS "user"
    WHERE "user"."firstName" NOT ILIKE '%bill%'
    ORDER BY "user"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/all"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/all"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/all"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/all/orders"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_scopes(ARRAY['read:user']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'firstName', "user"."firstName",
        'lastName', "user"."lastName",
        'orderCount', ((SELECT COUNT(*) FROM "order"                 WHERE "order"."userId" = "user"."id"))
      ) AS j
    FROM "public"."user" AS "user"
    WHERE (EXISTS (         SELECT 1 FROM "order" WHERE "order"."userId" = "user"."id" ))
    ORDER BY "user"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/all/orders"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/all/orders"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/all/orders"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/before"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_scopes(ARRAY['read:user']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  BEGIN
    RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
      SELECT json_build_object(
          'id', "user"."id",
          'firstName', "user"."firstName",
          'lastName', "user"."lastName",
          'companyName', "custom_company"."name"
        ) AS j
      FROM "public"."user" AS "user"
      INNER JOIN "public"."company" AS "custom_company" ON ("user"."companyId" = "custom_company"."id" AND "user"."createdOn" < ($1->>'date')::timestamptz)
      ORDER BY "user"."id" ASC, "custom_company"."id" ASC
    ) AS _api_r));
  EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_datetime_format
      OR datetime_field_overflow OR invalid_time_zone_displacement_value OR invalid_parameter_value THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'A request value does not match the type of the column it is compared with';
  END;
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/before"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/before"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/before"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/me"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  _api_row json;
  _api_count bigint;
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_role(ARRAY['user', 'admin']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  BEGIN
    SELECT (array_agg(_api_r.j))[1], count(*) INTO _api_row, _api_count FROM (
      SELECT json_build_object(
          'id', "user"."id",
          'createdOn', "user"."createdOn",
          'modifiedOn', "user"."modifiedOn",
          'firstName', "user"."firstName",
          'lastName', "user"."lastName",
          'companyId', "user"."companyId",
          'email', "user"."email",
          'role', "user"."role",
          'permissionLogin', "user"."permissionLogin",
          'lastLoginOn', "user"."lastLoginOn",
          'phone', "user"."phone",
          'accountStatus', "user"."accountStatus",
          'onboardingStatus', "user"."onboardingStatus",
          'testAge', "user"."testAge",
          'metadata', "user"."metadata"
        ) AS j
      FROM "public"."user" AS "user"
      WHERE "user"."id" = ($2->>'userId')::bigint
      LIMIT 2
    ) AS _api_r;
    IF _api_count = 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
    ELSIF _api_count > 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0409', MESSAGE = 'More than one user matches the request';
    END IF;
    RETURN json_build_object('data', _api_row);
  EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_datetime_format
      OR datetime_field_overflow OR invalid_time_zone_displacement_value OR invalid_parameter_value THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'A request value does not match the type of the column it is compared with';
  END;
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/my-user"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  _api_row json;
  _api_count bigint;
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_role(ARRAY['user', 'admin']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  BEGIN
    SELECT (array_agg(_api_r.j))[1], count(*) INTO _api_row, _api_count FROM (
      SELECT json_build_object(
          'id', "user"."id",
          'createdOn', "user"."createdOn",
          'modifiedOn', "user"."modifiedOn",
          'firstName', "user"."firstName",
          'lastName', "user"."lastName",
          'companyId', "user"."companyId",
          'email', "user"."email",
          'role', "user"."role",
          'permissionLogin', "user"."permissionLogin",
          'lastLoginOn', "user"."lastLoginOn",
          'phone', "user"."phone",
          'accountStatus', "user"."accountStatus",
          'onboardingStatus', "user"."onboardingStatus",
          'testAge', "user"."testAge",
          'metadata', "user"."metadata"
        ) AS j
      FROM "public"."user" AS "user"
      WHERE "user"."id" = ($2->>'userId')::bigint
      LIMIT 2
    ) AS _api_r;
    IF _api_count = 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
    ELSIF _api_count > 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0409', MESSAGE = 'More than one user matches the request';
    END IF;
    RETURN json_build_object('data', _api_row);
  EXCEPTION WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_datetime_format
      OR datetime_field_overflow OR invalid_time_zone_displacement_value OR invalid_parameter_value THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'A request value does not match the type of the column it is compared with';
  END;
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/paged"(params jsonb, ctx jsonb)
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
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_role(ARRAY['user', 'admin']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
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
        'data', COALESCE((SELECT json_agg(json_build_object(
              'id', "user"."id",
              'createdOn', "user"."createdOn",
              'modifiedOn', "user"."modifiedOn",
              'firstName', "user"."firstName",
              'lastName', "user"."lastName",
              'companyId', "user"."companyId",
              'email', "user"."email",
              'role', "user"."role",
              'permissionLogin', "user"."permissionLogin",
              'lastLoginOn', "user"."lastLoginOn",
              'phone', "user"."phone",
              'accountStatus', "user"."accountStatus",
              'onboardingStatus', "user"."onboardingStatus",
              'testAge', "user"."testAge",
              'metadata', "user"."metadata"
            )) FROM (
          SELECT "user" AS _api_w0
          FROM "public"."user" AS "user"
          ORDER BY "user"."id" ASC
          LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"), '[]'::json),
        'total', (SELECT count(*) FROM (
          SELECT 1
          FROM "public"."user" AS "user"
        ) AS _api_c)));
    END IF;
    _api_columns := '{"user.id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"user.createdOn":{"sql":"\"user\".\"createdOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.modifiedOn":{"sql":"\"user\".\"modifiedOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.firstName":{"sql":"\"user\".\"firstName\"","type":"text","filter":true,"sort":true,"json":false},"user.lastName":{"sql":"\"user\".\"lastName\"","type":"text","filter":true,"sort":true,"json":false},"user.companyId":{"sql":"\"user\".\"companyId\"","type":"bigint","filter":true,"sort":true,"json":false},"user.email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"user.role":{"sql":"\"user\".\"role\"","type":"text","filter":true,"sort":true,"json":false},"user.permissionLogin":{"sql":"\"user\".\"permissionLogin\"","type":"boolean","filter":true,"sort":true,"json":false},"user.lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.phone":{"sql":"\"user\".\"phone\"","type":"text","filter":true,"sort":true,"json":false},"user.accountStatus":{"sql":"\"user\".\"accountStatus\"","type":"text","filter":true,"sort":true,"json":false},"user.onboardingStatus":{"sql":"\"user\".\"onboardingStatus\"","type":"text","filter":true,"sort":true,"json":false},"user.testAge":{"sql":"\"user\".\"testAge\"","type":"integer","filter":true,"sort":true,"json":false},"user.metadata":{"sql":"\"user\".\"metadata\"","type":"jsonb","filter":true,"sort":true,"json":true},"id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"createdOn":{"sql":"\"user\".\"createdOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"modifiedOn":{"sql":"\"user\".\"modifiedOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"firstName":{"sql":"\"user\".\"firstName\"","type":"text","filter":true,"sort":true,"json":false},"lastName":{"sql":"\"user\".\"lastName\"","type":"text","filter":true,"sort":true,"json":false},"companyId":{"sql":"\"user\".\"companyId\"","type":"bigint","filter":true,"sort":true,"json":false},"email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"role":{"sql":"\"user\".\"role\"","type":"text","filter":true,"sort":true,"json":false},"permissionLogin":{"sql":"\"user\".\"permissionLogin\"","type":"boolean","filter":true,"sort":true,"json":false},"lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"phone":{"sql":"\"user\".\"phone\"","type":"text","filter":true,"sort":true,"json":false},"accountStatus":{"sql":"\"user\".\"accountStatus\"","type":"text","filter":true,"sort":true,"json":false},"onboardingStatus":{"sql":"\"user\".\"onboardingStatus\"","type":"text","filter":true,"sort":true,"json":false},"testAge":{"sql":"\"user\".\"testAge\"","type":"integer","filter":true,"sort":true,"json":false},"metadata":{"sql":"\"user\".\"metadata\"","type":"jsonb","filter":true,"sort":true,"json":true}}'::jsonb;
    _api_where := 'true';
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
    _api_order := CASE
      WHEN _api_sort_order = 'RAND' THEN 'random(), "user"."id" ASC'
      WHEN _api_sort_order = 'NONE' THEN '"user"."id" ASC'
      WHEN _api_sort_by IS NOT NULL AND _api_sort_order = 'DESC' THEN (_api_entry->>'sql') || ' DESC, "user"."id" DESC'
      WHEN _api_sort_by IS NOT NULL THEN (_api_entry->>'sql') || ' ASC, "user"."id" ASC'
      WHEN _api_sort_order = 'DESC' THEN '"user"."id" DESC'
      ELSE '"user"."id" ASC'
    END;
    _api_query := 'SELECT json_build_object(
        ''data'', COALESCE((SELECT json_agg(json_build_object(
              ''id'', "user"."id",
              ''createdOn'', "user"."createdOn",
              ''modifiedOn'', "user"."modifiedOn",
              ''firstName'', "user"."firstName",
              ''lastName'', "user"."lastName",
              ''companyId'', "user"."companyId",
              ''email'', "user"."email",
              ''role'', "user"."role",
              ''permissionLogin'', "user"."permissionLogin",
              ''lastLoginOn'', "user"."lastLoginOn",
              ''phone'', "user"."phone",
              ''accountStatus'', "user"."accountStatus",
              ''onboardingStatus'', "user"."onboardingStatus",
              ''testAge'', "user"."testAge",
              ''metadata'', "user"."metadata"
            )) FROM (
          SELECT "user" AS _api_w0
          FROM "public"."user" AS "user"
          WHERE '
      || _api_where || '
          ORDER BY '
      || _api_order || '
          LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT (_api_p._api_w0).*) AS "user"), ''[]''::json),
        ''total'', (SELECT count(*) FROM (
          SELECT 1
          FROM "public"."user" AS "user"
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

ALTER FUNCTION "api"."GET /api/v1/user/paged"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/paged"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/paged"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/with-orders"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_scopes(ARRAY['read:user']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'id', "user"."id",
        'firstName', "user"."firstName",
        'lastName', "user"."lastName",
        'order', (SELECT COALESCE(json_agg("_api_s1".j), '[]'::json) FROM (
          SELECT json_build_object(
              'id', "order"."id",
              'createdOn', "order"."createdOn",
              'modifiedOn', "order"."modifiedOn"
            ) AS j
          FROM "public"."order" AS "order"
          WHERE "order"."userId" = "user"."id"
          ORDER BY "order"."id" ASC
        ) AS "_api_s1")
      ) AS j
    FROM "public"."user" AS "user"
    ORDER BY "user"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) TO api_gateway;

CREATE FUNCTION "api"."PATCH /api/v1/user/me"(params jsonb, ctx jsonb)
RETURNS json
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  _api_row json;
  _api_count bigint;
  _api_k0 bigint;
BEGIN
  PERFORM set_config('api.ctx', COALESCE(ctx, '{}'::jsonb)::text, true);
  IF NOT api.has_role(ARRAY['user', 'admin']::text[]) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  BEGIN
    SELECT count(*), (array_agg(_api_s.k0))[1] INTO _api_count, _api_k0 FROM (
      SELECT "user"."id" AS k0
      FROM "public"."user" AS "user"
      WHERE "user"."id" = ($2->>'userId')::bigint
      LIMIT 2
      FOR UPDATE OF "user"
    ) AS _api_s;
    IF _api_count = 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
    ELSIF _api_count > 1 THEN
      RAISE EXCEPTION USING ERRCODE = 'A0409', MESSAGE = 'More than one user matches the request';
    END IF;
    UPDATE "public"."user" AS "user"
    SET "firstName" = CASE WHEN $1 ? 'firstName' THEN ($1->>'firstName') ELSE "user"."firstName" END,
        "lastName" = CASE WHEN $1 ? 'lastName' THEN ($1->>'lastName') ELSE "user"."lastName" END,
        "email" = CASE WHEN $1 ? 'email' THEN ($1->>'email') ELSE "user"."email" END,
        "phone" = CASE WHEN $1 ? 'phone' THEN ($1->>'phone') ELSE "user"."phone" END,
        "password" = CASE WHEN $1 ? 'password' THEN ($1->>'password') ELSE "user"."password" END
    WHERE "user"."id" = _api_k0;
    SELECT _api_r.j INTO _api_row FROM (
      SELECT json_build_object(
          'id', "user"."id",
          'firstName', "user"."firstName",
          'lastName', "user"."lastName",
          'email', "user"."email",
          'phone', "user"."phone"
        ) AS j
      FROM "public"."user" AS "user"
      WHERE "user"."id" = _api_k0
      LIMIT 1
    ) AS _api_r;
    RETURN json_build_object('data', _api_row);
  EXCEPTION
    WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_datetime_format
      OR datetime_field_overflow OR invalid_time_zone_displacement_value OR invalid_parameter_value THEN
      RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'A request value does not match the type of the column it is compared with';
    WHEN string_data_right_truncation THEN
      RAISE EXCEPTION USING ERRCODE = 'A0422', MESSAGE = 'A request value is too long for its column';
    WHEN insufficient_privilege THEN
      RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'You do not have permission to write this row';
  END;
END
$fn$;

ALTER FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) TO api_gateway;
