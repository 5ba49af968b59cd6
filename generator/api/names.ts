// Names of the API layer's objects: the schema, the two roles, views and policies.

import { ident, type Sql } from "../sql/sql.ts";
import { derivedName } from "../tables/names.ts";

/** The schema rebuilt whole on every migrate: views, runtime helpers, route functions. */
export const API_SCHEMA = "api";
/** NOLOGIN owner of schema `api`; row-level security binds it. */
export const API_OWNER = "api_owner";
/** The gateway's LOGIN role: owns nothing, reads the views, executes the route functions. */
export const API_GATEWAY = "api_gateway";

/**
 * Policies compiled from the schema are named `api_<name>`; the layer's own ones `api:<what>`, so
 * the two never collide. Migrations start by dropping every policy named either way.
 */
export const POLICY_PREFIXES = ["api_", "api:"] as const;

/** `api."<table>"`: the table's view. */
export function viewRef(table: string): Sql {
  return ident(API_SCHEMA, table);
}

/** `api_<schema policy name>`, shortened with a hash past Postgres's 63-byte limit. */
export function policyName(name: string): string {
  return derivedName("api", name);
}

/** The permissive policy of a table without schema policies (all rows). */
export const ALL_ROWS_POLICY = "api:all_rows";
/** The restrictive policy holding a table's own roles/scopes. */
export const TABLE_ACCESS_POLICY = "api:table_access";
