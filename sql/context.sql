-- Caller context: the JSON object {"role": "admin" | null, "scopes": ["a", ...], "<global>": value}
-- that api.set_ctx(ctx) stores, transaction-locally: whole in the setting `api.ctx`, and each key
-- in a setting of its own, `api.ctx.<key>` (generator/api/context.ts; route functions inline the
-- same calls). Everything reads it through these helpers; see docs/architecture.md ("Caller
-- context"). They read the keys: one `current_setting` instead of parsing the whole JSON.
--
-- Loaded into schema `api` by the API layer rebuild (db/apiLayer.ts), after
-- `CREATE SCHEMA api`. SQL-standard bodies (RETURN ...) are parsed and bound when created, so
-- they do not depend on the caller's search_path; every name is schema-qualified anyway.
-- All are STABLE (the setting does not change within a statement) and PARALLEL SAFE.

-- The context as jsonb; NULL when unset. A setting made with set_config(..., true) reverts to ''
-- (not to "unset") when its transaction ends, so '' counts as unset too.
CREATE FUNCTION api.ctx() RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN NULLIF(pg_catalog.current_setting('api.ctx', true), '')::jsonb;

-- One key as text (`role`, `companyId`, ...); NULL when unset or empty, so a connection without
-- settings matches no condition that compares with it. A name that is no key reads NULL.
CREATE FUNCTION api.ctx_text(name text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN NULLIF(pg_catalog.current_setting('api.ctx.' OPERATOR(pg_catalog.||) name, true), '');

-- The caller's scopes; NULL when unset or not a JSON array (the key holds the member's JSON text).
CREATE FUNCTION api.ctx_scopes() RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN pg_catalog.jsonb_typeof(s) OPERATOR(pg_catalog.=) 'array'
    THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(s))
  END
  FROM (SELECT api.ctx_text('scopes')::jsonb AS s) AS ctx;
END;

-- True when `roles` is empty, else when the caller's role is one of them.
CREATE FUNCTION api.has_role(roles text[]) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN COALESCE(pg_catalog.cardinality(roles), 0) OPERATOR(pg_catalog.=) 0
  OR COALESCE(api.ctx_text('role') OPERATOR(pg_catalog.=) ANY (roles), false);

-- True when the caller holds every one of `scopes` (always true for an empty list).
CREATE FUNCTION api.has_scopes(scopes text[]) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN COALESCE(pg_catalog.cardinality(scopes), 0) OPERATOR(pg_catalog.=) 0
  OR COALESCE(scopes OPERATOR(pg_catalog.<@) api.ctx_scopes(), false);

-- The table and column rule of docs/permissions.md: roles non-empty: the role must be one of them;
-- else scopes non-empty: the caller must hold all of them; else true (public).
CREATE FUNCTION api.allowed(roles text[], scopes text[]) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE
  WHEN COALESCE(pg_catalog.cardinality(roles), 0) OPERATOR(pg_catalog.>) 0 THEN api.has_role(roles)
  ELSE api.has_scopes(scopes)
END;
