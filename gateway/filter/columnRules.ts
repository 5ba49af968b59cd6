// Which names a caller may filter and sort a PAGED route by and, when not, why: the gateway answers
// these itself, with the reason (docs/query-language.md, "Errors"). The names and the rule hiding
// each are the model's (generator/model/filterColumns.ts), the same the route function's map is
// built from (generator/routes/filter.ts), which keeps its own check as defense in depth.
//
// Saying that a column is hidden from the caller's role tells no more than the docs do (the schema
// is public to clients): it never says which roles or scopes would see it, and suggestions ("did
// you mean") only name what the caller may use.

import type { FilterColumn, FilterColumns } from "../../generator/model/index.ts";
import { closest } from "../../generator/schema/suggest.ts";
import { type AuthResult, allowedFor } from "../auth/context.ts";

export type ColumnUse = "filter" | "sort";

/** The reasons, as the messages end (`cannot be filtered: <reason>`). */
export const REASONS = {
  notInResponse: "not in this route's response",
  hiddenRole: "hidden from your role",
  hiddenScopes: "hidden from your scopes",
  computed: "computed (a raw SQL property; it can be sorted)",
  subquery: "a nested list (a subquery property; it can be neither filtered nor sorted)",
  grouped: "this route groups its rows: sort by the groupBy column or a property name",
  notJson: "not a JSON column (only JSON columns take a .jsonKey)",
  jsonKeySort: "a JSON key (it can be filtered, not sorted)",
  unknown: "unknown column",
} as const;

export interface ColumnRules {
  /** Null when the caller may use `column` so; otherwise why not (one of REASONS, maybe with a hint). */
  why(column: string, use: ColumnUse, auth: AuthResult): string | null;
}

/** Built once per route from the model; `why` costs a map lookup or two when allowed. */
export function columnRules({ entries, unavailable }: FilterColumns): ColumnRules {
  const hidden = (key: string, auth: AuthResult): string | null => {
    const access = entries.get(key)?.access;
    if (!access || allowedFor(access, auth)) return null;
    return access.roles.length > 0 ? REASONS.hiddenRole : REASONS.hiddenScopes;
  };
  const usable = (key: string, entry: FilterColumn, use: ColumnUse, auth: AuthResult) =>
    (use === "filter" ? entry.filter : entry.sort) && hidden(key, auth) === null;
  const sameColumn = (a: FilterColumn, b: FilterColumn) =>
    a.column !== undefined && a.column === b.column && a.source === b.source;

  /** `table.column.jsonKey`, split as api.filter_sql does: the key is everything after the second dot. */
  const jsonKey = (column: string, use: ColumnUse, auth: AuthResult): string | null | undefined => {
    const dot1 = column.indexOf(".");
    const dot2 = dot1 < 0 ? -1 : column.indexOf(".", dot1 + 1);
    if (dot2 < 0 || dot2 === column.length - 1) return undefined;
    const base = column.slice(0, dot2);
    const entry = entries.get(base);
    if (!entry) {
      const why = unavailable.get(base);
      return why ? REASONS[why] : undefined;
    }
    const isHidden = hidden(base, auth);
    if (isHidden) return isHidden;
    if (!entry.json || !entry.filter) return REASONS.notJson;
    return use === "sort" ? REASONS.jsonKeySort : null;
  };

  /** `unknown column`, with the closest usable name or, for `property.key`, its `table.column.key`. */
  const unknown = (column: string, use: ColumnUse, auth: AuthResult): string => {
    const [first, key, ...more] = column.split(".");
    const property = first === undefined ? undefined : entries.get(first);
    if (use === "filter" && key !== undefined && more.length === 0 && property?.json) {
      for (const [name, entry] of entries) {
        if (name.split(".").length === 2 && sameColumn(entry, property) && usable(name, entry, use, auth)) {
          return `${REASONS.unknown} (did you mean "${name}.${key}"? a JSON key needs table.column.jsonKey)`;
        }
      }
    }
    const candidates = [...entries].filter(([name, entry]) => usable(name, entry, use, auth)).map(([n]) => n);
    const match = closest(column, candidates);
    return match === undefined ? REASONS.unknown : `${REASONS.unknown} (did you mean "${match}"?)`;
  };

  return {
    why(column, use, auth) {
      const entry = entries.get(column);
      if (entry) {
        const isHidden = hidden(column, auth);
        if (isHidden) return isHidden;
        if (use === "filter") return entry.filter ? null : REASONS.computed;
        return entry.sort ? null : REASONS.grouped;
      }
      const why = unavailable.get(column);
      if (why) return REASONS[why];
      const keyed = jsonKey(column, use, auth);
      return keyed === undefined ? unknown(column, use, auth) : keyed;
    },
  };
}
