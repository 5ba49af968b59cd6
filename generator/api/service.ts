// The service role behind `req.service` (docs/permissions.md "The service role"): what trusted
// handler code (the example's login and refresh) may do outside the API, and nothing more. It
// replaces the migrating superuser the gateway used to hold a pool of.
//
// api_service: LOGIN, NOSUPERUSER, NOBYPASSRLS, NOCREATEDB, NOCREATEROLE, NOREPLICATION,
// NOINHERIT; owns nothing. On the schema's tables only: SELECT, INSERT, UPDATE (every column,
// private ones included: login reads the password hash) and USAGE on their sequences. No DELETE
// or TRUNCATE (delete through a standard route with `req.db.call`), no privilege on schema `api`,
// no CREATE anywhere, so no DDL; not a member of pg_execute_server_program or
// pg_read_server_files, so no `COPY ... PROGRAM` and no server files. Row-level security is on for
// every table (policies.ts) and binds it: one permissive policy `api:service` per table gives it
// every row, since its code scopes each statement itself (docs/handlers.md).

import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { TABLE_SCHEMA, tableRef } from "../tables/names.ts";

export const API_SERVICE = "api_service";
/** The permissive policy giving api_service every row of a table. */
export const SERVICE_POLICY = "api:service";

export const SERVICE_ATTRIBUTES = {
  attributes: sql`LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION`,
  expected: sql`rolcanlogin AND NOT rolinherit AND NOT rolsuper AND NOT rolbypassrls AND NOT rolcreatedb AND NOT rolcreaterole AND NOT rolreplication`,
};

/**
 * After the layer's grants (which revoked everything from api_service first). `sequences`: the
 * statement granting USAGE on the tables' sequences to a role, built by grants.ts.
 */
export function serviceGrantStatements(
  tables: readonly { name: string }[],
  sequences: (role: string) => Sql,
): Sql[] {
  const service = ident(API_SERVICE);
  if (tables.length === 0) return [];
  return [
    sql`GRANT USAGE ON SCHEMA ${ident(TABLE_SCHEMA)} TO ${service}`,
    sql`GRANT SELECT, INSERT, UPDATE ON TABLE ${join(tables.map((t) => tableRef(t.name)))} TO ${service}`,
    sequences(API_SERVICE),
    ...tables.map(
      (t) =>
        sql`CREATE POLICY ${ident(SERVICE_POLICY)} ON ${tableRef(t.name)} FOR ALL TO ${service} USING (true) WITH CHECK (true)`,
    ),
  ];
}
