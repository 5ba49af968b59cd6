-- Caller context: the JSON object the gateway (or a route function) stores in the setting
-- `api.ctx`, transaction-locally: {"role": "admin" | null, "scopes": ["a", ...], "<global>": value}.
-- Everything reads it through these helpers; see docs/architecture.md ("Caller context").
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

-- One global parameter as text (`role`, `companyId`, ...); NULL when unset, so a connection
-- without settings matches no condition that compares with it.
CREATE FUNCTION api.ctx_text(name text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN api.ctx() OPERATOR(pg_catalog.->>) name;

-- The caller's scopes; NULL when unset or not a JSON array.
CREATE FUNCTION api.ctx_scopes() RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT CASE WHEN pg_catalog.jsonb_typeof(c OPERATOR(pg_catalog.->) 'scopes') OPERATOR(pg_catalog.=) 'array'
    THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(c OPERATOR(pg_catalog.->) 'scopes'))
  END
  FROM (SELECT api.ctx() AS c) AS ctx;
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
