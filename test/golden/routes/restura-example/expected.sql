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

CREATE OR REPLACE FUNCTION "api"."read_083fd5dc5a5022c1"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_083fd5dc5a5022c1"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_083fd5dc5a5022c1"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_083fd5dc5a5022c1"() TO api_gateway;

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

CREATE OR REPLACE FUNCTION "api"."read_3d6c350518b48ffa"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_3d6c350518b48ffa"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_3d6c350518b48ffa"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_3d6c350518b48ffa"() TO api_gateway;

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

CREATE OR REPLACE FUNCTION "api"."read_8502f38730f96356"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_8502f38730f96356"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_8502f38730f96356"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_8502f38730f96356"() TO api_gateway;

CREATE FUNCTION "api"."GET /api/v1/user/all/orders"(params jsonb, ctx jsonb)
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
BEGIN
  "_api_ctx_set" := ARRAY[pg_catalog.set_config('api.ctx', COALESCE(ctx::text, ''), true),
    pg_catalog.set_config('api.ctx.role', COALESCE(ctx OPERATOR(pg_catalog.->>) 'role', ''), true),
    pg_catalog.set_config('api.ctx.scopes', COALESCE((ctx OPERATOR(pg_catalog.->) 'scopes')::text, ''), true),
    pg_catalog.set_config('api.ctx.companyId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'companyId', ''), true),
    pg_catalog.set_config('api.ctx.userId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'userId', ''), true)];
  IF NOT COALESCE(($2->'scopes') @> '["read:user"]'::jsonb, false) THEN
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
DECLARE
  "_api_ctx_set" text[];
BEGIN
  "_api_ctx_set" := ARRAY[pg_catalog.set_config('api.ctx', COALESCE(ctx::text, ''), true),
    pg_catalog.set_config('api.ctx.role', COALESCE(ctx OPERATOR(pg_catalog.->>) 'role', ''), true),
    pg_catalog.set_config('api.ctx.scopes', COALESCE((ctx OPERATOR(pg_catalog.->) 'scopes')::text, ''), true),
    pg_catalog.set_config('api.ctx.companyId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'companyId', ''), true),
    pg_catalog.set_config('api.ctx.userId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'userId', ''), true)];
  IF NOT COALESCE(($2->'scopes') @> '["read:user"]'::jsonb, false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
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
BEGIN
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['user', 'admin']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
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
    ) INTO _api_row
  FROM "public"."user" AS "user"
  WHERE "user"."id" = ($2->>'userId')::bigint;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
  END IF;
  RETURN json_build_object('data', _api_row);
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/me"(jsonb, jsonb) TO api_gateway;

CREATE OR REPLACE FUNCTION "api"."read_6788eaeba05a10c5"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_6788eaeba05a10c5"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_6788eaeba05a10c5"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_6788eaeba05a10c5"() TO api_gateway;

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
BEGIN
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['user', 'admin']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
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
    ) INTO _api_row
  FROM "public"."user" AS "user"
  WHERE "user"."id" = ($2->>'userId')::bigint;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
  END IF;
  RETURN json_build_object('data', _api_row);
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/my-user"(jsonb, jsonb) TO api_gateway;

CREATE OR REPLACE FUNCTION "api"."read_60dc1c296ba6d946"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_60dc1c296ba6d946"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_60dc1c296ba6d946"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_60dc1c296ba6d946"() TO api_gateway;

CREATE FUNCTION "api"."PAGE /api/v1/user/paged"(params jsonb, ctx jsonb, keys bigint[])
RETURNS json
LANGUAGE plpgsql
STABLE
SET search_path = pg_catalog, api, pg_temp
SET timezone = 'UTC'
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $fn$
#variable_conflict use_column
BEGIN
  RETURN COALESCE((
      SELECT json_agg(_api_o.j) FROM (SELECT json_build_object(
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
      WHERE "user"."id" = ANY ($3) ORDER BY array_position($3, "user"."id")) AS _api_o
    ), '[]'::json);
END
$fn$;

ALTER FUNCTION "api"."PAGE /api/v1/user/paged"(jsonb, jsonb, bigint[]) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."PAGE /api/v1/user/paged"(jsonb, jsonb, bigint[]) FROM PUBLIC;

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
  _api_page_end bigint;
BEGIN
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['user', 'admin']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  IF $1 ? '$after' THEN
    IF NOT $1 ?| ARRAY['sortBy', 'filter'] AND upper(COALESCE($1->>'sortOrder', 'ASC')) = 'ASC'
    AND COALESCE(($1->>'page')::bigint, 1) = 1 AND COALESCE(($1->>'perPage')::bigint, 10) >= 1 AND COALESCE($1->>'$count', 'exact') IN ('exact', 'planned') THEN
      IF COALESCE($1->>'$count', 'exact') = 'exact' THEN
        IF ($1->>'$after') = '' THEN
          RETURN (SELECT json_build_object(
            'data', COALESCE(json_agg(json_build_object(
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
          )), '[]'::json),
            'total', (SELECT count(*) FROM (
              SELECT 1
              FROM "public"."user" AS "user"
              WHERE true
            ) AS _api_c), 'next', CASE WHEN count(*) = COALESCE(($1->>'perPage')::bigint, 10) THEN translate(encode(convert_to(json_build_object('s', COALESCE(NULLIF($1->>'sortBy', ''), ''), 'o', upper(COALESCE($1->>'sortOrder', 'ASC')), 'k', json_build_array(max(_api_p._api_k)))::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END)
            FROM (
              SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21, "user"."id" AS _api_k
              FROM "public"."user" AS "user"
              WHERE true
              ORDER BY "user"."id" ASC
              LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
            ) AS _api_p
            CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user");
        END IF;
        RETURN (SELECT json_build_object(
            'data', COALESCE(json_agg(json_build_object(
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
          )), '[]'::json),
            'total', (SELECT count(*) FROM (
              SELECT 1
              FROM "public"."user" AS "user"
              WHERE true
            ) AS _api_c), 'next', CASE WHEN count(*) = COALESCE(($1->>'perPage')::bigint, 10) THEN translate(encode(convert_to(json_build_object('s', COALESCE(NULLIF($1->>'sortBy', ''), ''), 'o', upper(COALESCE($1->>'sortOrder', 'ASC')), 'k', json_build_array(max(_api_p._api_k)))::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END)
            FROM (
              SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21, "user"."id" AS _api_k
              FROM "public"."user" AS "user"
              WHERE true AND (("user"."id") > (CAST((($1->>'$after')::jsonb->'k'->>0) AS bigint)))
              ORDER BY "user"."id" ASC
              LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
            ) AS _api_p
            CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user");
      END IF;
      _api_total := (SELECT CASE WHEN c.relpages > 0 AND c.reltuples >= 0 THEN round(c.reltuples::float8 / c.relpages * NULLIF(pg_relation_size(c.oid) / current_setting('block_size')::bigint, 0))::bigint END FROM pg_class AS c WHERE c.oid = '"public"."user"'::regclass);
      IF _api_total IS NOT NULL THEN
        IF ($1->>'$after') = '' THEN
          RETURN (SELECT json_build_object(
            'data', COALESCE(json_agg(json_build_object(
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
          )), '[]'::json),
            'total', _api_total, 'next', CASE WHEN count(*) = COALESCE(($1->>'perPage')::bigint, 10) THEN translate(encode(convert_to(json_build_object('s', COALESCE(NULLIF($1->>'sortBy', ''), ''), 'o', upper(COALESCE($1->>'sortOrder', 'ASC')), 'k', json_build_array(max(_api_p._api_k)))::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END, 'totalMode', 'planned'::text)
            FROM (
              SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21, "user"."id" AS _api_k
              FROM "public"."user" AS "user"
              WHERE true
              ORDER BY "user"."id" ASC
              LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
            ) AS _api_p
            CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user");
        END IF;
        RETURN (SELECT json_build_object(
            'data', COALESCE(json_agg(json_build_object(
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
          )), '[]'::json),
            'total', _api_total, 'next', CASE WHEN count(*) = COALESCE(($1->>'perPage')::bigint, 10) THEN translate(encode(convert_to(json_build_object('s', COALESCE(NULLIF($1->>'sortBy', ''), ''), 'o', upper(COALESCE($1->>'sortOrder', 'ASC')), 'k', json_build_array(max(_api_p._api_k)))::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END, 'totalMode', 'planned'::text)
            FROM (
              SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21, "user"."id" AS _api_k
              FROM "public"."user" AS "user"
              WHERE true AND (("user"."id") > (CAST((($1->>'$after')::jsonb->'k'->>0) AS bigint)))
              ORDER BY "user"."id" ASC
              LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
            ) AS _api_p
            CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user");
      END IF;
    END IF;
  END IF;
  IF COALESCE(($1->>'page')::bigint, 1) < 1 OR COALESCE(($1->>'perPage')::bigint, 10) < 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'A0400', MESSAGE = 'page and perPage must be at least 1';
  END IF;
  IF NOT $1 ?| ARRAY['sortBy', 'filter', '$count', 'after'] AND upper(COALESCE($1->>'sortOrder', 'ASC')) = 'ASC' THEN
    IF (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10) >= 100 THEN
      RETURN (SELECT json_build_object(
        'data', "api"."PAGE /api/v1/user/paged"($1, $2, ARRAY(
          SELECT "user"."id"
          FROM "public"."user" AS "user"
          WHERE true
          ORDER BY "user"."id" ASC
          LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10))),
        'total', (SELECT count(*)
          FROM "public"."user" AS "user"
          WHERE true)));
    END IF;
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
        SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21
        FROM "public"."user" AS "user"
        ORDER BY "user"."id" ASC
        LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10)
      ) AS _api_p
      CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user"), '[]'::json),
      'total', (SELECT count(*) FROM (
        SELECT 1
        FROM "public"."user" AS "user"
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
  IF _api_filter IS NULL AND _api_sort_by IS NULL AND _api_sort_order = 'DESC' AND _api_count = 'exact' AND NOT $1 ? 'after' THEN
    RETURN (SELECT json_build_object(
      'data', "api"."PAGE /api/v1/user/paged"($1, $2, ARRAY(
        SELECT "user"."id"
        FROM "public"."user" AS "user"
        WHERE true
        ORDER BY "user"."id" DESC
        LIMIT COALESCE(($1->>'perPage')::bigint, 10) OFFSET (COALESCE(($1->>'page')::bigint, 1) - 1) * COALESCE(($1->>'perPage')::bigint, 10))),
      'total', (SELECT count(*)
        FROM "public"."user" AS "user"
        WHERE true)));
  END IF;
  _api_columns := '{"user.id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"user.createdOn":{"sql":"\"user\".\"createdOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.modifiedOn":{"sql":"\"user\".\"modifiedOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.firstName":{"sql":"\"user\".\"firstName\"","type":"text","filter":true,"sort":true,"json":false},"user.lastName":{"sql":"\"user\".\"lastName\"","type":"text","filter":true,"sort":true,"json":false},"user.companyId":{"sql":"\"user\".\"companyId\"","type":"bigint","filter":true,"sort":true,"json":false},"user.email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"user.role":{"sql":"\"user\".\"role\"","type":"text","filter":true,"sort":true,"json":false},"user.permissionLogin":{"sql":"\"user\".\"permissionLogin\"","type":"boolean","filter":true,"sort":true,"json":false},"user.lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"user.phone":{"sql":"\"user\".\"phone\"","type":"text","filter":true,"sort":true,"json":false},"user.accountStatus":{"sql":"\"user\".\"accountStatus\"","type":"text","filter":true,"sort":true,"json":false},"user.onboardingStatus":{"sql":"\"user\".\"onboardingStatus\"","type":"text","filter":true,"sort":true,"json":false},"user.testAge":{"sql":"\"user\".\"testAge\"","type":"integer","filter":true,"sort":true,"json":false},"user.metadata":{"sql":"\"user\".\"metadata\"","type":"jsonb","filter":true,"sort":true,"json":true},"id":{"sql":"\"user\".\"id\"","type":"bigint","filter":true,"sort":true,"json":false},"createdOn":{"sql":"\"user\".\"createdOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"modifiedOn":{"sql":"\"user\".\"modifiedOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"firstName":{"sql":"\"user\".\"firstName\"","type":"text","filter":true,"sort":true,"json":false},"lastName":{"sql":"\"user\".\"lastName\"","type":"text","filter":true,"sort":true,"json":false},"companyId":{"sql":"\"user\".\"companyId\"","type":"bigint","filter":true,"sort":true,"json":false},"email":{"sql":"\"user\".\"email\"","type":"text","filter":true,"sort":true,"json":false},"role":{"sql":"\"user\".\"role\"","type":"text","filter":true,"sort":true,"json":false},"permissionLogin":{"sql":"\"user\".\"permissionLogin\"","type":"boolean","filter":true,"sort":true,"json":false},"lastLoginOn":{"sql":"\"user\".\"lastLoginOn\"","type":"timestamptz","filter":true,"sort":true,"json":false},"phone":{"sql":"\"user\".\"phone\"","type":"text","filter":true,"sort":true,"json":false},"accountStatus":{"sql":"\"user\".\"accountStatus\"","type":"text","filter":true,"sort":true,"json":false},"onboardingStatus":{"sql":"\"user\".\"onboardingStatus\"","type":"text","filter":true,"sort":true,"json":false},"testAge":{"sql":"\"user\".\"testAge\"","type":"integer","filter":true,"sort":true,"json":false},"metadata":{"sql":"\"user\".\"metadata\"","type":"jsonb","filter":true,"sort":true,"json":true}}'::jsonb;
  _api_where := 'true';
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
    WHEN _api_sort_order = 'DESC' THEN '"user"."id" DESC'
    ELSE '"user"."id" ASC'
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
        _api_key := NULL;
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
      _api_total := api.execute_cached('SELECT to_json(count(*)) FROM (' || 'SELECT 1
      FROM "public"."user" AS "user"
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
      IF _api_filter IS NULL THEN
        _api_total := (SELECT CASE WHEN c.relpages > 0 AND c.reltuples >= 0 THEN round(c.reltuples::float8 / c.relpages * NULLIF(pg_relation_size(c.oid) / current_setting('block_size')::bigint, 0))::bigint END FROM pg_class AS c WHERE c.oid = '"public"."user"'::regclass);
      END IF;
      IF _api_total IS NULL THEN
        _api_plan := api.execute_cached('SELECT 1
      FROM "public"."user" AS "user"
      WHERE ' || _api_cwhere || '',
          $1, $2, _api_values, NULL, NULL, NULL, true);
        _api_total := round((_api_plan->0->'Plan'->>'Plan Rows')::numeric);
      END IF;
    END IF;
    _api_query := 'SELECT json_build_object(
        ''data'', COALESCE(json_agg(json_build_object(
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
          )), ''[]''::json),
        ''total'', '
      || CASE WHEN _api_total IS NULL THEN '(SELECT count(*) FROM (
          SELECT 1
          FROM "public"."user" AS "user"
          WHERE ' || _api_cwhere || '
        ) AS _api_c)' ELSE '$5' END
      || _api_extra || ')
        FROM (
          SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21, '
      || _api_keys || ' AS _api_k
          FROM "public"."user" AS "user"
          WHERE '
      || _api_where || '
          ORDER BY '
      || _api_order || '
          LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
        ) AS _api_p
        CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user"';
    RETURN api.execute_cached(_api_query, $1, $2, _api_values, _api_cursor, _api_total, _api_count, false);
  END IF;
  IF _api_sort_by IS NULL OR (_api_entry->>'type') IS NOT NULL THEN
    _api_page_end := COALESCE(($1->>'page')::bigint, 1) * COALESCE(($1->>'perPage')::bigint, 10);
    RETURN api.execute_cached('SELECT json_build_object(
      ''data'', "api"."PAGE /api/v1/user/paged"($1, $2, (ARRAY(
        SELECT "user"."id"
        FROM "public"."user" AS "user"
        WHERE '
      || _api_where || '
        ORDER BY '
      || _api_order || '
        LIMIT '
      || CASE WHEN _api_page_end > 1024 THEN 'COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)))'
        ELSE CASE
          WHEN _api_page_end <= 16 THEN '16'
          WHEN _api_page_end <= 32 THEN '32'
          WHEN _api_page_end <= 64 THEN '64'
          WHEN _api_page_end <= 128 THEN '128'
          WHEN _api_page_end <= 256 THEN '256'
          WHEN _api_page_end <= 512 THEN '512'
          WHEN _api_page_end <= 1024 THEN '1024'
        END || '))[(COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10) + 1 : COALESCE(($1->>''page'')::bigint, 1) * COALESCE(($1->>''perPage'')::bigint, 10)]' END || '),
      ''total'', (SELECT count(*)
        FROM "public"."user" AS "user"
        WHERE '
      || _api_where || '))',
      $1, $2, _api_values, NULL, NULL, NULL, false);
  END IF;
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
        SELECT "user"."id" AS _api_w0_0, "user"."createdOn" AS _api_w0_1, "user"."modifiedOn" AS _api_w0_2, "user"."firstName" AS _api_w0_3, "user"."lastName" AS _api_w0_4, "user"."companyId" AS _api_w0_5, "user"."email" AS _api_w0_7, "user"."role" AS _api_w0_8, "user"."permissionLogin" AS _api_w0_9, "user"."lastLoginOn" AS _api_w0_10, "user"."phone" AS _api_w0_11, "user"."accountStatus" AS _api_w0_16, "user"."onboardingStatus" AS _api_w0_18, "user"."testAge" AS _api_w0_20, "user"."metadata" AS _api_w0_21
        FROM "public"."user" AS "user"
        WHERE '
    || _api_where || '
        ORDER BY '
    || _api_order || '
        LIMIT COALESCE(($1->>''perPage'')::bigint, 10) OFFSET (COALESCE(($1->>''page'')::bigint, 1) - 1) * COALESCE(($1->>''perPage'')::bigint, 10)
      ) AS _api_p
      CROSS JOIN LATERAL (SELECT _api_p._api_w0_0 AS "id", _api_p._api_w0_1 AS "createdOn", _api_p._api_w0_2 AS "modifiedOn", _api_p._api_w0_3 AS "firstName", _api_p._api_w0_4 AS "lastName", _api_p._api_w0_5 AS "companyId", _api_p._api_w0_7 AS "email", _api_p._api_w0_8 AS "role", _api_p._api_w0_9 AS "permissionLogin", _api_p._api_w0_10 AS "lastLoginOn", _api_p._api_w0_11 AS "phone", _api_p._api_w0_16 AS "accountStatus", _api_p._api_w0_18 AS "onboardingStatus", _api_p._api_w0_20 AS "testAge", _api_p._api_w0_21 AS "metadata") AS "user"), ''[]''::json),
      ''total'', (SELECT count(*) FROM (
        SELECT 1
        FROM "public"."user" AS "user"
        WHERE '
    || _api_where || '
      ) AS _api_c))';
  RETURN api.execute_cached(_api_query, $1, $2, _api_values, NULL, NULL, NULL, false);
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
  IF NOT COALESCE(($2->'scopes') @> '["read:user"]'::jsonb, false) THEN
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

CREATE OR REPLACE FUNCTION "api"."read_6e9f4ef840f846b3"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;

ALTER FUNCTION "api"."read_6e9f4ef840f846b3"() OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."read_6e9f4ef840f846b3"() FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."read_6e9f4ef840f846b3"() TO api_gateway;

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
  "_api_ctx_set" text[];
  _api_row json;
BEGIN
  "_api_ctx_set" := ARRAY[pg_catalog.set_config('api.ctx', COALESCE(ctx::text, ''), true),
    pg_catalog.set_config('api.ctx.role', COALESCE(ctx OPERATOR(pg_catalog.->>) 'role', ''), true),
    pg_catalog.set_config('api.ctx.scopes', COALESCE((ctx OPERATOR(pg_catalog.->) 'scopes')::text, ''), true),
    pg_catalog.set_config('api.ctx.companyId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'companyId', ''), true),
    pg_catalog.set_config('api.ctx.userId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'userId', ''), true)];
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['user', 'admin']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  UPDATE "public"."user" AS "user"
  SET "firstName" = CASE WHEN $1 ? 'firstName' THEN ($1->>'firstName') ELSE "user"."firstName" END,
      "lastName" = CASE WHEN $1 ? 'lastName' THEN ($1->>'lastName') ELSE "user"."lastName" END,
      "email" = CASE WHEN $1 ? 'email' THEN ($1->>'email') ELSE "user"."email" END,
      "phone" = CASE WHEN $1 ? 'phone' THEN ($1->>'phone') ELSE "user"."phone" END,
      "password" = CASE WHEN $1 ? 'password' THEN ($1->>'password') ELSE "user"."password" END
  WHERE ("user"."id" = ($2->>'userId')::bigint)
  RETURNING json_build_object(
        'id', "user"."id",
        'firstName', "user"."firstName",
        'lastName', "user"."lastName",
        'email', "user"."email",
        'phone', "user"."phone"
      ) INTO _api_row;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
  END IF;
  RETURN json_build_object('data', _api_row);
END
$fn$;

ALTER FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."PATCH /api/v1/user/me"(jsonb, jsonb) TO api_gateway;
