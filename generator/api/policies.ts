// Row-level security (docs/architecture.md "Row policies"). Every table of the schema gets
// ENABLE ROW LEVEL SECURITY and, binding api_owner (the owner of the views and route functions):
//
// - one permissive policy per schema policy, `api_<name>`, FOR ALL USING and WITH CHECK
//   `has_role(roles) AND has_scopes(scopes) AND (<where>)`; a table without policies gets one
//   `api:all_rows` policy USING (true), so enabling RLS changes nothing for it;
// - for a table with roles/scopes, a restrictive policy `api:table_access` holding the table rule
//   (docs/permissions.md, the "table" row), so the table rule binds every route, write and event
//   too, not only the view.
//
// Every policy already on the schema's tables is dropped first, whatever its name: what the schema
// says is exactly what holds. Policy expressions are bound when created, with search_path `public`
// (set by the layer), so `custom` SQL may name tables without a schema.

import { buildModel } from "../model/index.ts";
import { isRestricted } from "../routes/permissions.ts";
import type { Column, Policy, Schema, Table } from "../schema/types.ts";
import { ident, join, literal, type Sql, sql } from "../sql/sql.ts";
import { TABLE_SCHEMA, tableRef } from "../tables/names.ts";
import { compileConditions } from "./conditions.ts";
import { castTypeOf, globalExpr, textArray } from "./globals.ts";
import { ALL_ROWS_POLICY, API_OWNER, policyName, TABLE_ACCESS_POLICY } from "./names.ts";
import { allowedCheck } from "./views.ts";

export function policyStatements(schema: Schema): string[] {
  const globalTypes = buildModel(schema).globalTypes;
  return [
    dropPoliciesOn(schema.database.map((t) => t.name)),
    ...schema.database.flatMap((table) => tablePolicies(table, globalTypes)),
  ];
}

/** Drops every policy on the named tables of schema public (a DO block: names are read from pg_policies). */
export function dropPoliciesOn(tables: readonly string[]): string {
  return dropPoliciesWhere(sql`tablename = ANY (${textArray(tables)})`);
}

/** Drops every policy in schema public named like ours (`api_...`, `api:...`): before migrations. */
export function dropOurPolicies(): string {
  return dropPoliciesWhere(sql`(policyname LIKE 'api\\_%' OR policyname LIKE 'api:%')`);
}

function dropPoliciesWhere(condition: Sql): string {
  return sql`DO $do$
DECLARE
  p record;
BEGIN
  FOR p IN SELECT tablename, policyname FROM pg_catalog.pg_policies
    WHERE schemaname = ${literal(TABLE_SCHEMA)} AND ${condition}
  LOOP
    EXECUTE pg_catalog.format('DROP POLICY %I ON %I.%I', p.policyname, ${literal(TABLE_SCHEMA)}, p.tablename);
  END LOOP;
END
$do$`.toString();
}

function tablePolicies(table: Table, globalTypes: ReadonlyMap<string, string>): string[] {
  const ref = tableRef(table.name);
  const owner = ident(API_OWNER);
  const statements = [sql`ALTER TABLE ${ref} ENABLE ROW LEVEL SECURITY`.toString()];
  if (table.policies.length === 0) {
    statements.push(
      sql`CREATE POLICY ${ident(ALL_ROWS_POLICY)} ON ${ref} FOR ALL TO ${owner} USING (true) WITH CHECK (true)`.toString(),
    );
  }
  for (const policy of table.policies) {
    const cond = policyCondition(table, policy, globalTypes);
    statements.push(
      sql`CREATE POLICY ${ident(policyName(policy.name))} ON ${ref} FOR ALL TO ${owner}\n  USING (${cond})\n  WITH CHECK (${cond})`.toString(),
    );
  }
  if (isRestricted(table)) {
    const check = allowedCheck(table.roles, table.scopes);
    statements.push(
      sql`CREATE POLICY ${ident(TABLE_ACCESS_POLICY)} ON ${ref} AS RESTRICTIVE FOR ALL TO ${owner}\n  USING (${check})\n  WITH CHECK (${check})`.toString(),
    );
  }
  return statements;
}

/** `has_role(roles) AND has_scopes(scopes) AND (<where>)`, leaving out the parts that are always true. */
export function policyCondition(table: Table, policy: Policy, globalTypes: ReadonlyMap<string, string>): Sql {
  const parts: Sql[] = [];
  if (policy.roles.length > 0) parts.push(sql`(SELECT api.has_role(${textArray(policy.roles)}))`);
  if (policy.scopes.length > 0) parts.push(sql`(SELECT api.has_scopes(${textArray(policy.scopes)}))`);
  if (policy.where.length > 0) {
    const where = compileConditions(policy.where, {
      column: (tableName, name) =>
        tableName === table.name ? table.columns.find((c) => c.name === name) : undefined,
      global: (name, column: Column | undefined, inRawSql) =>
        globalExpr(name, column ? castTypeOf(column) : inRawSql ? globalTypes.get(name) : undefined),
    });
    parts.push(where);
  }
  return parts.length === 0 ? sql`true` : join(parts, " AND ");
}
