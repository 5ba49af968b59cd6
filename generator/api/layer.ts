// The whole API layer as a list of statements, run in one transaction on every migrate
// (docs/architecture.md "The API layer"). Tables are never touched except their policies,
// ENABLE ROW LEVEL SECURITY and grants.

import type { Schema } from "../schema/types.ts";
import { ident, sql } from "../sql/sql.ts";
import { TABLE_SCHEMA } from "../tables/names.ts";
import { grantStatements } from "./grants.ts";
import { API_OWNER, API_SCHEMA } from "./names.ts";
import { dropOurPolicies, policyStatements } from "./policies.ts";
import { roleStatements } from "./roles.ts";
import { viewStatements } from "./views.ts";

export interface ApiLayerParts {
  /** Roles, then the schema dropped and created again. */
  prologue: string[];
  /** The hand-written runtime (sql/*.sql), as given. */
  runtime: string[];
  views: string[];
  policies: string[];
  /** Route functions, change triggers: whatever the caller passed as `extra`. */
  extra: string[];
  /** Last, so they cover everything created before. */
  grants: string[];
}

/**
 * The parts in order. `runtimeSql`: the text of each runtime file (the caller reads them: the
 * generator does no I/O). `extra`: statements that need the views and runtime in place and whose
 * functions the grants should cover (route functions, triggers).
 */
export function apiLayerParts(
  schema: Schema,
  runtimeSql: readonly string[],
  extra: readonly string[] = [],
): ApiLayerParts {
  return {
    prologue: [
      // Custom policy SQL may name tables without a schema; it is bound now, to schema public.
      sql`SET LOCAL search_path = ${ident(TABLE_SCHEMA)}`.toString(),
      ...roleStatements(),
      ...dropApiLayerStatements(),
      sql`CREATE SCHEMA ${ident(API_SCHEMA)} AUTHORIZATION ${ident(API_OWNER)}`.toString(),
    ],
    runtime: [...runtimeSql],
    views: schema.database.flatMap(viewStatements),
    policies: policyStatements(schema),
    extra: [...extra],
    grants: grantStatements(schema.database),
  };
}

/** Every statement of the layer, in order. */
export function apiLayerStatements(
  schema: Schema,
  runtimeSql: readonly string[],
  extra: readonly string[] = [],
): string[] {
  const p = apiLayerParts(schema, runtimeSql, extra);
  return [...p.prologue, ...p.runtime, ...p.views, ...p.policies, ...p.extra, ...p.grants];
}

/**
 * Removes what depends on the tables' columns (schema api and our policies), so that migrations
 * may drop or change columns. Until the layer is rebuilt, RLS stays enabled with no policy for
 * api_owner: nothing is visible through the API (it fails closed).
 */
export function dropApiLayerStatements(): string[] {
  return [sql`DROP SCHEMA IF EXISTS ${ident(API_SCHEMA)} CASCADE`.toString(), dropOurPolicies()];
}
