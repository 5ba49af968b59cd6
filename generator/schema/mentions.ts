// The `$param` and `#global` names a standard route reads, wherever they stand: assignments, where
// values and custom conditions, custom join clauses, raw selectors, and subqueries at any depth.
// One walk serves the drift check (parameters used by nothing) and the gateway (a route that reads
// a global needs a caller), so the two can never disagree about what a route mentions.

import type { Join, ResponseProperty, StandardRoute, WhereCondition } from "./types.ts";
import { classifyValue, sqlMentions } from "./values.ts";

export interface RouteMentions {
  params: Set<string>;
  globals: Set<string>;
}

export function routeMentions(route: StandardRoute): RouteMentions {
  const found: RouteMentions = { params: new Set(), globals: new Set() };
  const value = (v: unknown) => {
    if (typeof v === "string") {
      const form = classifyValue(v);
      if (form.kind === "param") found.params.add(form.name);
      if (form.kind === "global") found.globals.add(form.name);
    } else if (Array.isArray(v)) v.forEach(value);
  };
  const raw = (sql: string | undefined) => {
    if (sql === undefined) return;
    const { params, globals } = sqlMentions(sql);
    for (const name of params) found.params.add(name);
    for (const name of globals) found.globals.add(name);
  };
  const conditions = (list: WhereCondition[]) => {
    for (const c of list) {
      value(c.value);
      raw(c.custom);
    }
  };
  const joins = (list: Join[]) => {
    for (const j of list) raw(j.custom);
  };
  const properties = (list: ResponseProperty[]) => {
    for (const p of list) {
      raw(p.selector);
      if (p.subquery) {
        joins(p.subquery.joins);
        conditions(p.subquery.where);
        properties(p.subquery.properties);
      }
    }
  };
  for (const a of route.assignments) value(a.value);
  joins(route.joins);
  conditions(route.where);
  properties(route.response);
  return found;
}
