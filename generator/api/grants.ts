// Privileges (docs/architecture.md "Database roles"), made exact on every rebuild: everything is
// revoked first, then granted again.
//
// - PUBLIC and api_gateway: no privilege on any table or sequence of schema public, and PUBLIC
//   may not create objects there (already so on Postgres 15+).
// - api_owner: SELECT, INSERT, UPDATE, DELETE on the schema's tables, USAGE on their sequences;
//   it owns schema `api` and everything in it (views, helpers, route functions). SELECT leaves out
//   private columns (a column grant instead of a table grant), so no view, route function or
//   trigger owned by it can read them, whatever SQL it runs; writes still reach them.
// - api_service (service.ts): SELECT, INSERT, UPDATE on the tables, for req.service.
// - api_gateway: USAGE on schema `api`, SELECT on the views, EXECUTE on the functions in `api`.
//   Every function in `api` is callable by the gateway, so a function that must not be (a
//   SECURITY DEFINER helper) belongs elsewhere or revokes EXECUTE itself after this step.

import type { ModelTable } from "../model/index.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { TABLE_SCHEMA, tableRef } from "../tables/names.ts";
import { textArray } from "./globals.ts";
import { API_GATEWAY, API_OWNER, API_SCHEMA, viewRef } from "./names.ts";
import { API_SERVICE, serviceGrantStatements } from "./service.ts";

export function grantStatements(tables: readonly ModelTable[]): string[] {
  const owner = ident(API_OWNER);
  const gateway = ident(API_GATEWAY);
  const service = ident(API_SERVICE);
  const pub = ident(TABLE_SCHEMA);
  const api = ident(API_SCHEMA);
  const statements = [
    sql`REVOKE CREATE ON SCHEMA ${pub} FROM PUBLIC`,
    sql`REVOKE ALL ON ALL TABLES IN SCHEMA ${pub} FROM PUBLIC, ${owner}, ${gateway}, ${service}`,
    sql`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${pub} FROM PUBLIC, ${owner}, ${gateway}, ${service}`,
    sql`GRANT USAGE ON SCHEMA ${pub} TO ${owner}`,
  ];
  // Identity and serial sequences of the schema's tables (they depend on their table).
  const sequences = (role: string): Sql => sql`DO $do$
DECLARE
  s regclass;
BEGIN
  FOR s IN SELECT DISTINCT d.objid::regclass FROM pg_catalog.pg_depend d
    JOIN pg_catalog.pg_class c ON c.oid = d.objid AND c.relkind = 'S'
    JOIN pg_catalog.pg_class t ON t.oid = d.refobjid
    WHERE d.classid = 'pg_catalog.pg_class'::regclass AND d.refclassid = 'pg_catalog.pg_class'::regclass
      AND t.relnamespace = ${literal(TABLE_SCHEMA)}::regnamespace AND t.relname = ANY (${textArray(tables.map((t) => t.name))})
  LOOP
    EXECUTE pg_catalog.format('GRANT USAGE ON SEQUENCE %s TO %I', s, ${literal(role)});
  END LOOP;
END
$do$`;
  if (tables.length > 0) {
    const refs = join(tables.map((t) => tableRef(t.name)));
    statements.push(sql`GRANT INSERT, UPDATE, DELETE ON TABLE ${refs} TO ${owner}`);
    const hasPrivate = (t: ModelTable) => t.readable.length < t.columns.length;
    const open = tables.filter((t) => !hasPrivate(t));
    if (open.length > 0) {
      statements.push(sql`GRANT SELECT ON TABLE ${join(open.map((t) => tableRef(t.name)))} TO ${owner}`);
    }
    for (const t of tables.filter(hasPrivate)) {
      const columns = join(t.readable.map((c) => ident(c.name)));
      statements.push(sql`GRANT SELECT (${columns}) ON TABLE ${tableRef(t.name)} TO ${owner}`);
    }
    statements.push(sequences(API_OWNER));
  }
  statements.push(
    // Whoever created them, everything in schema api belongs to api_owner.
    sql`DO $do$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
    WHERE p.pronamespace = ${literal(API_SCHEMA)}::regnamespace AND p.proowner <> ${literal(API_OWNER)}::regrole
  LOOP
    EXECUTE pg_catalog.format('ALTER ROUTINE %s OWNER TO %I', f, ${literal(API_OWNER)});
  END LOOP;
END
$do$`,
    sql`GRANT USAGE ON SCHEMA ${api} TO ${gateway}`,
    sql`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${api} FROM PUBLIC`,
    sql`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${api} TO ${gateway}`,
  );
  if (tables.length > 0) {
    statements.push(sql`GRANT SELECT ON TABLE ${join(tables.map((t) => viewRef(t.name)))} TO ${gateway}`);
  }
  statements.push(...serviceGrantStatements(tables, sequences));
  return statements.map((s) => s.toString());
}
