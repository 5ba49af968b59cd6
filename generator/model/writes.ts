// Which columns a write route sets from the request (docs/schema.md "Write rules"): decided once
// here for the route function that writes them (generator/routes/kinds/write.ts), the gateway's
// checks of the values (gateway/request/columns.ts) and its constraint errors, which name the
// request's fields rather than columns (gateway/constraints.ts).

import type { StandardRoute } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import type { ModelColumn, ModelTable } from "./types.ts";

/** A column a write may set from the request: a body parameter's own, or an assignment's `$param`. */
export interface ParamWrite {
  /** The request parameter. */
  readonly param: string;
  readonly column: ModelColumn;
  /** A required parameter is always in the request (the gateway refuses it otherwise). */
  readonly required: boolean;
}

/**
 * The columns the request's parameters reach: body parameters naming base-table columns (not
 * path parameters, not names an assignment sets), then the assignments whose value is a `$param`.
 * Both follow the same absent / null / present rules.
 */
export function paramWrites(route: StandardRoute, table: ModelTable): ParamWrite[] {
  const inPath = new Set(route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : [])));
  const assigned = new Set(route.assignments.map((a) => a.name));
  const out: ParamWrite[] = [];
  for (const p of route.request) {
    if (inPath.has(p.name) || assigned.has(p.name)) continue;
    const column = table.column(p.name);
    if (column) out.push({ param: p.name, column, required: p.required });
  }
  for (const a of route.assignments) {
    const form = classifyValue(a.value);
    if (form.kind !== "param") continue;
    const declared = route.request.find((p) => p.name === form.name);
    out.push({ param: form.name, column: columnOf(table, a.name), required: declared?.required === true });
  }
  return out;
}

function columnOf(table: ModelTable, name: string): ModelColumn {
  const column = table.column(name);
  if (!column) throw new Error(`table "${table.name}" has no column "${name}"`);
  return column;
}
