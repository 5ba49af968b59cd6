// The whole API layer as a list of statements, run in one transaction on every migrate
// (docs/architecture.md "The API layer"). Tables are never touched except their policies,
// ENABLE ROW LEVEL SECURITY, grants and the realtime capture triggers (generator/realtime).

import { buildModel } from "../model/index.ts";
import { realtimeGrantStatements, realtimeStatements } from "../realtime/index.ts";
import type { Schema } from "../schema/types.ts";
import { ident, literal, sql } from "../sql/sql.ts";
import { TABLE_SCHEMA } from "../tables/names.ts";
import { setContextFunction } from "./context.ts";
import { grantStatements } from "./grants.ts";
import { API_GATEWAY, API_OWNER, API_SCHEMA } from "./names.ts";
import { dropOurPolicies, policyStatements } from "./policies.ts";
import { roleStatements } from "./roles.ts";
import { viewStatements } from "./views.ts";

export interface ApiLayerParts {
  /** Roles, then the schema dropped and created again. */
  prologue: string[];
  /** The hand-written runtime (sql/*.sql), as given, then `api.set_ctx` (it knows the schema's globals). */
  runtime: string[];
  views: string[];
  policies: string[];
  /** Route functions: whatever the caller passed as `extra`. */
  extra: string[];
  /** Realtime (generator/realtime): change capture triggers and api.realtime_events. */
  realtime: string[];
  /** Last, so they cover everything created before. */
  grants: string[];
  /** After the grants: what no role behind the API may do at run time (see lockdownStatements). */
  lockdown: string[];
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
      // Owned by the migrating user, not by api_owner: the owner of a schema can always create
      // in it, and route functions run as api_owner. CREATE is granted for the rebuild only
      // (handing an object to api_owner needs it) and revoked again by the lockdown.
      sql`CREATE SCHEMA ${ident(API_SCHEMA)}`.toString(),
      sql`GRANT USAGE, CREATE ON SCHEMA ${ident(API_SCHEMA)} TO ${ident(API_OWNER)}`.toString(),
    ],
    runtime: [...runtimeSql, setContextFunction(schema)],
    views: buildModel(schema).tables.flatMap(viewStatements),
    policies: policyStatements(schema),
    extra: [...extra],
    realtime: realtimeStatements(schema),
    grants: [...grantStatements(buildModel(schema).tables), ...realtimeGrantStatements()],
    lockdown: lockdownStatements(),
  };
}

/**
 * What the roles behind the API may not do once the layer stands:
 * - api_owner (whose SECURITY DEFINER functions the gateway calls) creates nothing in schema
 *   `api`: even SQL that somehow ran as api_owner could not leave a function or view behind;
 * - api_gateway creates no temporary objects: TEMPORARY on the database is revoked from PUBLIC
 *   (a role cannot lose what PUBLIC holds otherwise). The database owner and superusers keep it;
 *   another role that needs temporary tables must be granted TEMPORARY explicitly, never
 *   api_gateway. A migrating user that neither owns the database nor holds the privilege with
 *   grant option only gets a warning: revoke it by hand then.
 */
export function lockdownStatements(): string[] {
  return [
    sql`REVOKE CREATE ON SCHEMA ${ident(API_SCHEMA)} FROM ${ident(API_OWNER)}`.toString(),
    sql`DO $do$
BEGIN
  EXECUTE pg_catalog.format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, %I', pg_catalog.current_database(), ${literal(API_GATEWAY)});
END
$do$`.toString(),
  ];
}

/** Every statement of the layer, in order. */
export function apiLayerStatements(
  schema: Schema,
  runtimeSql: readonly string[],
  extra: readonly string[] = [],
): string[] {
  const p = apiLayerParts(schema, runtimeSql, extra);
  return [
    ...p.prologue,
    ...p.runtime,
    ...p.views,
    ...p.policies,
    ...p.extra,
    ...p.realtime,
    ...p.grants,
    ...p.lockdown,
  ];
}

/**
 * Removes what depends on the tables' columns (schema api and our policies), so that migrations
 * may drop or change columns. Until the layer is rebuilt, RLS stays enabled with no policy for
 * api_owner: nothing is visible through the API (it fails closed).
 */
export function dropApiLayerStatements(): string[] {
  return [sql`DROP SCHEMA IF EXISTS ${ident(API_SCHEMA)} CASCADE`.toString(), dropOurPolicies()];
}
