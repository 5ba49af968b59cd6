// What a subscription may ask for, compiled once per schema from the model (generator/model): the
// tables with `notify`, their notify columns (never private ones), each column's rule and type. `checkSubscription` answers a
// subscribe message with the filter to evaluate or the standard error to send (docs/realtime.md
// "Errors"); the database repeats the table, column and row decisions for every event.

import { buildModel, type ModelColumn } from "../../generator/model/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import {
  ANONYMOUS_MESSAGES,
  type AuthResult,
  allowedFor,
  FORBIDDEN_MESSAGE,
  isAnonymous,
} from "../auth/context.ts";
import { ApiError } from "../errors.ts";
import { REASONS } from "../filter/columnRules.ts";
import { checkFilterColumns, type FilterExpr, parseFilter } from "../filter/parse.ts";
import { type ColumnKind, columnKind, compileMatcher, type RowMatcher, valueProblem } from "./match.ts";

export interface NotifyColumn {
  name: string;
  kind: ColumnKind;
  access: { roles: readonly string[]; scopes: readonly string[] };
}

export interface NotifyTable {
  name: string;
  access: { roles: readonly string[]; scopes: readonly string[] };
  columns: Map<string, NotifyColumn>;
  /** Every non-private column, sent or not (for the error message). */
  readable: ReadonlySet<string>;
}

/** Why a column cannot be filtered in a subscription, beyond the PAGED reasons. */
export const NOT_NOTIFIED = "not a notify column of this table (events do not carry it)";

export function notifyTables(schema: Schema): Map<string, NotifyTable> {
  const out = new Map<string, NotifyTable>();
  for (const table of buildModel(schema).notifyTables) {
    out.set(table.name, {
      name: table.name,
      access: { roles: table.table.roles, scopes: table.table.scopes },
      columns: new Map((table.notify ?? []).map((c) => [c.name, describe(c)])),
      readable: new Set(table.readable.map((c) => c.name)),
    });
  }
  return out;
}

function describe(column: ModelColumn): NotifyColumn {
  return {
    name: column.name,
    kind: columnKind(column.pgType.name),
    access: { roles: column.column.roles, scopes: column.column.scopes },
  };
}

export type SubscriptionCheck = { ok: true; match: RowMatcher | undefined } | { ok: false; error: ApiError };

/**
 * The subscribe rules, in order: the table exists, has `notify`, the caller may read it (401 for
 * an anonymous caller, 403 otherwise, as for routes), then the filter: its syntax, each column
 * (a notify column the caller may see), each value (it casts to the column's type).
 */
export function checkSubscription(
  tables: Map<string, NotifyTable>,
  schemaTables: ReadonlySet<string>,
  request: { table: string; filter?: string },
  auth: AuthResult,
): SubscriptionCheck {
  const table = tables.get(request.table);
  if (!table) {
    if (schemaTables.has(request.table)) {
      return fail("BAD_REQUEST", `table ${quote(request.table)} sends no events (it has no "notify")`);
    }
    return fail("NOT_FOUND", `unknown table ${quote(request.table)}`);
  }
  if (!allowedFor(table.access, auth)) {
    return isAnonymous(auth)
      ? fail("UNAUTHORIZED", ANONYMOUS_MESSAGES[auth.reason])
      : fail("FORBIDDEN", FORBIDDEN_MESSAGE);
  }
  if (request.filter === undefined) return { ok: true, match: undefined };
  const parsed = parseFilter(request.filter);
  if (!parsed.ok) return fail("BAD_REQUEST", `invalid filter: ${parsed.error.message}`);
  const columnOf = (name: string) => resolveColumn(table, name);
  const refused = checkFilterColumns(parsed.ast, (name) => whyNot(table, name, auth));
  if (refused) {
    return fail(
      "BAD_REQUEST",
      `invalid filter: column ${quote(refused.column)} at position ${refused.position} cannot be filtered: ${refused.reason}`,
    );
  }
  const badValue = firstBadValue(parsed.ast, columnOf);
  if (badValue) return fail("BAD_REQUEST", badValue);
  return { ok: true, match: compileMatcher(parsed.ast, columnOf) };
}

/** `column`, `table.column`, or `table.column.jsonKey` of a JSON column. */
export interface ResolvedColumn {
  column: NotifyColumn;
  jsonKey?: string;
}

export function resolveColumn(table: NotifyTable, name: string): ResolvedColumn | undefined {
  const parts = name.split(".");
  if (parts.length === 1) {
    const column = table.columns.get(name);
    return column ? { column } : undefined;
  }
  if (parts[0] !== table.name) return undefined;
  const column = table.columns.get(parts[1] as string);
  if (!column) return undefined;
  if (parts.length === 2) return { column };
  return column.kind === "json" ? { column, jsonKey: parts.slice(2).join(".") } : undefined;
}

function whyNot(table: NotifyTable, name: string, auth: AuthResult): string | null {
  const resolved = resolveColumn(table, name);
  if (!resolved) {
    const parts = name.split(".");
    const base = parts.length === 1 ? name : parts[0] === table.name ? parts[1] : undefined;
    if (base !== undefined && table.columns.has(base)) return REASONS.notJson;
    return base !== undefined && base !== "" ? unknownOrUnsent(table, base) : REASONS.unknown;
  }
  const { access } = resolved.column;
  if (allowedFor(access, auth)) return null;
  return access.roles.length > 0 ? REASONS.hiddenRole : REASONS.hiddenScopes;
}

// The schema is public to clients (docs/query-language.md): saying a column exists but is not
// sent tells nothing new. Private columns are reported as unknown.
function unknownOrUnsent(table: NotifyTable, column: string): string {
  return table.readable.has(column) ? NOT_NOTIFIED : REASONS.unknown;
}

function firstBadValue(
  ast: FilterExpr,
  columnOf: (name: string) => ResolvedColumn | undefined,
): string | undefined {
  const stack: FilterExpr[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop() as FilterExpr;
    if ("and" in node) stack.push(...node.and);
    else if ("or" in node) stack.push(...node.or);
    else if ("not" in node) stack.push(node.not);
    else {
      const resolved = columnOf(node.column);
      if (!resolved || resolved.jsonKey !== undefined) continue;
      if (
        node.op === "has" ||
        node.op === "sw" ||
        node.op === "ew" ||
        node.op === "null" ||
        node.op === "notnull"
      ) {
        continue;
      }
      const values = Array.isArray(node.value) ? node.value : [node.value ?? ""];
      for (const value of values) {
        const problem = valueProblem(resolved.column.kind, value);
        if (problem) return `filter value for column ${quote(node.column)} is not a valid ${problem}`;
      }
    }
  }
  return undefined;
}

function fail(code: ApiError["code"], message: string): SubscriptionCheck {
  return { ok: false, error: new ApiError(code, message) };
}

/** A client's name in a message: double-quoted, control characters escaped as in JSON. */
export function quote(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}...` : name);
}
