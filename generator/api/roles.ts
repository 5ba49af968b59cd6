// The three cluster-wide roles of the API layer (docs/architecture.md "Database roles"), created
// idempotently: CREATE ROLE has no IF NOT EXISTS, so a DO block checks pg_roles, tolerates a
// concurrent migrate creating the same role, and resets the attributes only when they differ
// (ALTER ROLE on every run would make parallel migrates of one cluster collide).
//
// What the migrating user (DATABASE_URL's) needs:
// - a superuser: nothing else (the embedded cluster's case);
// - otherwise: owner of the tables and CREATE on the database (for schema `api`), and either
//   CREATEROLE (it creates the roles and grants itself `api_owner`; on Postgres 16+ it has
//   ADMIN on the roles it created) or, when an administrator created the roles, membership of
//   `api_owner` (`GRANT api_owner TO <migrating user>`), which it needs to own schema `api`'s
//   objects through `api_owner`. Table owners are not subject to row-level security, so that
//   membership does not change what the migrating user sees.

import { ident, literal, type Sql, sql } from "../sql/sql.ts";
import { API_GATEWAY, API_OWNER } from "./names.ts";
import { API_SERVICE, SERVICE_ATTRIBUTES } from "./service.ts";

export function roleStatements(): string[] {
  return [
    ensureRole(
      API_OWNER,
      sql`NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION`,
      sql`NOT rolcanlogin AND NOT rolsuper AND NOT rolbypassrls AND NOT rolcreatedb AND NOT rolcreaterole AND NOT rolreplication`,
    ),
    ensureRole(
      API_GATEWAY,
      sql`LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION`,
      sql`rolcanlogin AND NOT rolinherit AND NOT rolsuper AND NOT rolbypassrls AND NOT rolcreatedb AND NOT rolcreaterole AND NOT rolreplication`,
    ),
    ensureRole(API_SERVICE, SERVICE_ATTRIBUTES.attributes, SERVICE_ATTRIBUTES.expected),
    // The gateway must never be able to become the owner role (it would skip the views) nor the
    // service role (it would skip the API), and the service role never the owner (it could
    // rewrite schema api's views and functions, which the gateway runs).
    ...[
      [API_GATEWAY, API_OWNER],
      [API_GATEWAY, API_SERVICE],
      [API_SERVICE, API_OWNER],
    ].map(([member, role]) =>
      sql`DO $do$
BEGIN
  IF pg_catalog.pg_has_role(${literal(member as string)}, ${literal(role as string)}, 'MEMBER') THEN
    REVOKE ${ident(role as string)} FROM ${ident(member as string)} CASCADE;
  END IF;
END
$do$`.toString(),
    ),
    // A non-superuser migrating user needs to be a member of api_owner to hand objects to it.
    sql`DO $do$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
     AND NOT pg_catalog.pg_has_role(current_user, ${literal(API_OWNER)}, 'MEMBER') THEN
    EXECUTE pg_catalog.format('GRANT %I TO %I', ${literal(API_OWNER)}, current_user);
  END IF;
END
$do$`.toString(),
  ];
}

function ensureRole(name: string, attributes: Sql, expected: Sql): string {
  const role = ident(name);
  const text = literal(name);
  return sql`DO $do$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ${text}) THEN
    BEGIN
      CREATE ROLE ${role} ${attributes};
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL; -- created by a concurrent migrate of another database
    END;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = ${text} AND ${expected}) THEN
    ALTER ROLE ${role} ${attributes};
  END IF;
END
$do$`.toString();
}
