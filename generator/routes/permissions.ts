// Permission checks inside route functions (docs/permissions.md), in this order: the route rule (the gateway
// checks it first; this is defense in depth), the table rule for every table the query reads
// (base, joined, subquery tables), and "every column of a query hidden". Column visibility itself
// is decided inside the query (see object.ts).
//
// The rules read the function's `ctx` parameter (`$2`) directly, with the semantics of the API
// layer's helpers (sql/context.sql `api.has_role`, `api.has_scopes`, `api.allowed`), which read the
// context settings instead: a helper call costs 2.5-4 us, an inline test well under 1 us, and a
// function that reads no setting need not set it (function.ts).

import { contextReadBy } from "../api/context.ts";
import { sqlstateOf } from "../model/errors.ts";
import type { StandardRoute, Table } from "../schema/types.ts";
import { join, literal, type Sql, sql } from "../sql/sql.ts";
import { nl } from "./layout.ts";
import { CTX, textArray } from "./values.ts";

export interface Access {
  roles: readonly string[];
  scopes: readonly string[];
}

export const isRestricted = (a: Access): boolean => a.roles.length > 0 || a.scopes.length > 0;

/** A stable key for an access rule: equal rules share one check. */
export const accessKey = (a: Access): string => JSON.stringify([a.roles, a.scopes]);

/** `api.has_role(roles)` on the ctx parameter: the caller's role is one of `roles` (non-empty). */
const hasRole = (roles: readonly string[]): Sql =>
  sql`COALESCE((${CTX}->>'role') = ANY (${textArray(roles)}), false)`;

/**
 * `api.has_scopes(scopes)` on the ctx parameter: the caller's `scopes` is a JSON array holding every
 * one of `scopes` (non-empty). jsonb containment: an array contains an array whose elements it
 * holds; a string or an object contains no array.
 */
const hasScopes = (scopes: readonly string[]): Sql =>
  sql`COALESCE((${CTX}->'scopes') @> ${literal(JSON.stringify(scopes))}::jsonb, false)`;

/** The table/column rule for the caller (`api.allowed`): roles if any, else scopes if any, else true. */
export const allowedCall = (a: Access): Sql =>
  a.roles.length > 0 ? hasRole(a.roles) : a.scopes.length > 0 ? hasScopes(a.scopes) : sql`true`;

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

/** What a route function stores of its `ctx` for SQL that reads the caller from the settings. */
export interface ContextUse {
  /** Every key and the whole `api.ctx`: raw SQL, a write's triggers, a policy with raw SQL. */
  whole: boolean;
  /** Otherwise the keys its row policies and table rules read (none: nothing is set). */
  keys: readonly string[];
}

/** Collects what a route's function must check while its query is compiled. */
export class Checks {
  private readonly tables = new Map<string, Table>();
  private readonly allHidden = new Map<string, Access[]>();
  private readonly keys = new Set<string>();
  private whole = false;
  private masks = false;
  private raw = false;

  /** A table the query reads (base, join, subquery). */
  useTable(table: Table): void {
    if (isRestricted(table) && !this.tables.has(table.name)) this.tables.set(table.name, table);
    if (table.columns.some((c) => !c.private && isRestricted(c))) this.masks = true;
    // Its row policies (and the restrictive table-rule policy) read the context settings.
    const read = contextReadBy(table);
    if (read.all) this.whole = true;
    else for (const key of read.keys) this.keys.add(key);
  }

  /** The schema author's SQL is part of the query: it may read the API views, whose masks read the settings. */
  useRawSql(): void {
    this.whole = true;
    this.raw = true;
  }

  /** Whether the query holds the schema author's SQL (not a policy's: the query's own). */
  get readsRawSql(): boolean {
    return this.raw;
  }

  /**
   * Whether a caller passes every check after the route rule (each table rule, and "every
   * column hidden"), `allowed` deciding each rule as allowedCall does in SQL.
   */
  passes(allowed: (rule: Access) => boolean): boolean {
    for (const table of this.tables.values()) if (!allowed(table)) return false;
    for (const rules of this.allHidden.values()) if (!rules.some(allowed)) return false;
    return true;
  }

  /**
   * Whether a table the query reads has a column rule: through the API views, whose masks read
   * `role` and `scopes` from the settings, such a query needs them set.
   */
  get readsMaskedTable(): boolean {
    return this.masks;
  }

  /** What running the query reads of the caller context through the settings. */
  get context(): ContextUse {
    return { whole: this.whole, keys: [...this.keys].sort() };
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
    if (route.roles.length > 0) routeRule.push(hasRole(route.roles));
    if (route.scopes.length > 0) routeRule.push(hasScopes(route.scopes));
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
