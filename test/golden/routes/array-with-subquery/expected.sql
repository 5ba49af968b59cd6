CREATE FUNCTION "api"."GET /api/v1/user/with-orders"(params jsonb, ctx jsonb)
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
    pg_catalog.set_config('api.ctx.userId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'userId', ''), true),
    pg_catalog.set_config('api.ctx.companyId', COALESCE(ctx OPERATOR(pg_catalog.->>) 'companyId', ''), true)];
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['admin', 'user']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'You do not have permission to access this table';
  END IF;
  RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (
    SELECT json_build_object(
        'id', "user"."id",
        'email', "user"."email",
        'orders', (SELECT COALESCE(json_agg("_api_s1".j), '[]'::json) FROM (
          SELECT json_build_object(
              'id', "order"."id",
              'amount', "order"."amount",
              'items', (SELECT COALESCE(json_agg("_api_s2".j), '[]'::json) FROM (
                SELECT json_build_object(
                    'sku', "item"."sku"
                  ) AS j
                FROM "public"."item" AS "item"
                WHERE "item"."orderId" = "order"."id"
                ORDER BY "item"."id" ASC
              ) AS "_api_s2")
            ) AS j
          FROM "public"."order" AS "order"
          WHERE "order"."userId" = "user"."id"
          ORDER BY "order"."createdOn" DESC, "order"."id" ASC
        ) AS "_api_s1")
      ) AS j
    FROM (SELECT "id", "companyId", "email", "firstName" FROM "public"."user") AS "user"
    WHERE "user"."email" ILIKE '%' || api.like_literal(($1->>'q')) || '%' OR ("user"."id" = ANY (ARRAY(SELECT jsonb_array_elements_text($1->'ids'))::bigint[]) AND "user"."firstName" NOT IN ('a', 'b') AND ("user"."companyId" = ($2->>'companyId')::bigint))
    ORDER BY "user"."email" ASC, "user"."id" ASC
  ) AS _api_r));
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/with-orders"(jsonb, jsonb) TO api_gateway;
