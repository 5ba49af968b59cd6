CREATE FUNCTION "api"."GET /api/v1/user/:id"(params jsonb, ctx jsonb)
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
  IF NOT COALESCE(($2->>'role') = ANY (ARRAY['admin', 'user']::text[]), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'A0403', MESSAGE = 'Insufficient permissions';
  END IF;
  IF COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false) AND COALESCE(($2->'scopes') @> '["billing:read"]'::jsonb, false) THEN
    SELECT json_build_object(
        'id', "user"."id",
        'email', "user"."email",
        'lastLoginOn', "user"."lastLoginOn",
        'companyName', "companyId_company"."name",
        'billingEmail', "companyId_company"."billingEmail"
      ) INTO _api_row
    FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn" FROM "public"."user") AS "user"
    INNER JOIN (SELECT "id", "name", CASE WHEN (SELECT COALESCE(($2->'scopes') @> '["billing:read"]'::jsonb, false)) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "companyId_company" ON "companyId_company"."id" = "user"."companyId"
    WHERE "user"."id" = ($1->>'id')::bigint AND "user"."companyId" = ($2->>'companyId')::bigint;
    IF NOT FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
    END IF;
    RETURN json_build_object('data', _api_row);
  END IF;
  SELECT api.json_concat_objects(ARRAY[
      json_build_object(
        'id', "user"."id",
        'email', "user"."email"
      ),
      CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN json_build_object(
        'lastLoginOn', "user"."lastLoginOn"
      ) END,
      json_build_object(
        'companyName', "companyId_company"."name"
      ),
      CASE WHEN (SELECT COALESCE(($2->'scopes') @> '["billing:read"]'::jsonb, false)) THEN json_build_object(
        'billingEmail', "companyId_company"."billingEmail"
      ) END
    ]::json[]) INTO _api_row
  FROM (SELECT "id", "companyId", "email", CASE WHEN (SELECT COALESCE(($2->>'role') = ANY (ARRAY['admin']::text[]), false)) THEN "lastLoginOn" END AS "lastLoginOn" FROM "public"."user") AS "user"
  INNER JOIN (SELECT "id", "name", CASE WHEN (SELECT COALESCE(($2->'scopes') @> '["billing:read"]'::jsonb, false)) THEN "billingEmail" END AS "billingEmail" FROM "public"."company") AS "companyId_company" ON "companyId_company"."id" = "user"."companyId"
  WHERE "user"."id" = ($1->>'id')::bigint AND "user"."companyId" = ($2->>'companyId')::bigint;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'A0404', MESSAGE = 'No user matches the request';
  END IF;
  RETURN json_build_object('data', _api_row);
END
$fn$;

ALTER FUNCTION "api"."GET /api/v1/user/:id"(jsonb, jsonb) OWNER TO api_owner;

REVOKE ALL ON FUNCTION "api"."GET /api/v1/user/:id"(jsonb, jsonb) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION "api"."GET /api/v1/user/:id"(jsonb, jsonb) TO api_gateway;
