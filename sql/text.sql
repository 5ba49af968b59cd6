-- Text helpers for generated SQL. Loaded into schema `api` by the API layer rebuild.

-- `value` as a LIKE/ILIKE pattern that matches it literally: `\`, `%` and `_` are escaped with
-- `\` (LIKE's default escape character). Generated SQL builds contains / starts-with / ends-with
-- patterns as '%' || api.like_literal(v) || '%'.
CREATE FUNCTION api.like_literal(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(value, '\', '\\'), '%', '\%'), '_', '\_');
