// Permission checks inside route functions (docs/permissions.md), in this order: the route rule (the gateway
// checks it first; this is defense in depth), the table rule for every table the query reads
// (base, joined, subquery tables), and "every column of a query hidden". Column visibility itself
// is decided inside the query (see object.ts). The rules are the runtime helpers of the API layer
// (sql/context.sql): `api.has_role`, `api.has_scopes`, `api.allowed`.

import { sqlstateOf } from "../model/errors.ts";
import type { StandardRoute, Table } from "../schema/types.ts";
import { join, literal, type Sql, sql } from "../sql/sql.ts";
import { nl } from "./layout.ts";
import { textArray } from "./values.ts";

export interface Access {
  roles: readonly string[];
  scopes: readonly string[];
}

export const isRestricted = (a: Access): boolean => a.roles.length > 0 || a.scopes.length > 0;

/** A stable key for an access rule: equal rules share one check. */
export const accessKey = (a: Access): string => JSON.stringify([a.roles, a.scopes]);

/** The table/column rule for the caller. */
export const allowedCall = (a: Access): Sql =>
  sql`api.allowed(${textArray(a.roles)}, ${textArray(a.scopes)})`;

/** Inside a query: wrapped so Postgres evaluates it once per statement, not per row. */
export const allowedOnce = (a: Access): Sql => sql`(SELECT ${allowedCall(a)})`;

/** The SQLSTATEs route functions raise, from the one error registry. */
export const SQLSTATE = {
  badRequest: sqlstateOf("BAD_REQUEST"),
  forbidden: sqlstateOf("FORBIDDEN"),
  notFound: sqlstateOf("NOT_FOUND"),
  conflict: sqlstateOf("CONFLICT"),
  validation: sqlstateOf("VALIDATION_ERROR"),
} as const;

export const MESSAGES = {
  route: "Insufficient permissions",
  table: "You do not have permission to access this table",
  columns: "You do not have permission to access any columns in this table",
} as const;

export function raise(code: string, message: string): Sql {
  return sql`RAISE EXCEPTION USING ERRCODE = ${literal(code)}, MESSAGE = ${literal(message)};`;
}

/** `RAISE` with a message computed at run time (`format(...)` of generator-owned text and names). */
export function raiseComputed(code: string, message: Sql): Sql {
  return sql`RAISE EXCEPTION USING ERRCODE = ${literal(code)}, MESSAGE = ${message};`;
}

/** Collects what a route's function must check while its query is compiled. */
export class Checks {
  private readonly tables = new Map<string, Table>();
  private readonly allHidden = new Map<string, Access[]>();

  /** A table the query reads (base, join, subquery). */
  useTable(table: Table): void {
    if (isRestricted(table) && !this.tables.has(table.name)) this.tables.set(table.name, table);
  }

  /**
   * A query whose every property is a column with roles/scopes: the caller needs at least one of
   * them. Queries with any other property (public column, raw SQL, subquery) never qualify.
   */
  requireAnyColumn(accesses: Access[]): void {
    const unique = [...new Map(accesses.map((a) => [accessKey(a), a])).values()];
    this.allHidden.set(JSON.stringify(unique.map(accessKey)), unique);
  }

  /** The plpgsql statements, in the order above (docs/permissions.md), each at `indent`. */
  statements(route: StandardRoute, indent: string): Sql[] {
    const out: Sql[] = [];
    const routeRule: Sql[] = [];
    if (route.roles.length > 0) routeRule.push(sql`api.has_role(${textArray(route.roles)})`);
    if (route.scopes.length > 0) routeRule.push(sql`api.has_scopes(${textArray(route.scopes)})`);
    if (routeRule.length > 0) {
      const cond = routeRule.length === 1 ? (routeRule[0] as Sql) : sql`(${join(routeRule, " AND ")})`;
      out.push(ifNot(cond, raise(SQLSTATE.forbidden, MESSAGES.route), indent));
    }
    for (const table of this.tables.values()) {
      out.push(ifNot(allowedCall(table), raise(SQLSTATE.forbidden, MESSAGES.table), indent));
    }
    for (const accesses of this.allHidden.values()) {
      const any = accesses.map(allowedCall);
      const cond = any.length === 1 ? (any[0] as Sql) : sql`(${join(any, " OR ")})`;
      out.push(ifNot(cond, raise(SQLSTATE.forbidden, MESSAGES.columns), indent));
    }
    return out;
  }
}

export function ifNot(cond: Sql, then: Sql, indent: string): Sql {
  return sql`IF NOT ${cond} THEN${nl(`${indent}  `)}${then}${nl(indent)}END IF;`;
}
