// Which columns a write route sets from the request (docs/schema.md "Write rules"): decided once
// here for the route function that writes them (generator/routes/kinds/write.ts), the gateway's
// checks of the values (gateway/request/columns.ts) and its constraint errors, which name the
// request's fields rather than columns (gateway/constraints.ts).

import type { Column, StandardRoute, Table } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";

/** The request parameters a write sets: body parameters naming base-table columns. */
function writtenParams(
  route: StandardRoute,
  table: Table,
): { name: string; column: Column; required: boolean }[] {
  const inPath = new Set(route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : [])));
  const assigned = new Set(route.assignments.map((a) => a.name));
  const out: { name: string; column: Column; required: boolean }[] = [];
  for (const p of route.request) {
    if (inPath.has(p.name) || assigned.has(p.name)) continue;
    const column = table.columns.find((c) => c.name === p.name);
    if (column) out.push({ name: p.name, column, required: p.required });
  }
  return out;
}

/** A column a write may set from the request: a body parameter's own, or an assignment's `$param`. */
export interface ParamWrite {
  /** The request parameter. */
  param: string;
  column: Column;
  /** A required parameter is always in the request (the gateway refuses it otherwise). */
  required: boolean;
}

/**
 * The columns the request's parameters reach: `writtenParams`, then the assignments whose value
 * is a `$param`. Both follow the same absent / null / present rules.
 */
export function paramWrites(route: StandardRoute, table: Table): ParamWrite[] {
  const out: ParamWrite[] = writtenParams(route, table).map((p) => ({
    param: p.name,
    column: p.column,
    required: p.required,
  }));
  for (const a of route.assignments) {
    const form = classifyValue(a.value);
    if (form.kind !== "param") continue;
    const declared = route.request.find((p) => p.name === form.name);
    out.push({ param: form.name, column: columnOf(table, a.name), required: declared?.required === true });
  }
  return out;
}

function columnOf(table: Table, name: string): Column {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw new Error(`table "${table.name}" has no column "${name}"`);
  return column;
}
