// Which `#global` parameters a route uses: a route that uses one needs a caller
// (docs/authentication.md "Route rules: 401 or 403", rule 5).
// Computed once when the schema loads.

import { sqlMentions } from "../../generator/schema/index.ts";
import type { Join, ResponseProperty, Route, WhereCondition } from "../../generator/schema/types.ts";
import { isStandardRoute } from "../../generator/schema/types.ts";

export function routeGlobals(route: Route): string[] {
  const found = new Set<string>();
  const fromSql = (text: string | undefined) => {
    if (text) for (const g of sqlMentions(text).globals) found.add(g);
  };
  const fromValue = (value: unknown) => {
    if (typeof value === "string" && value.startsWith("#")) found.add(value.slice(1));
  };
  const fromWhere = (where: WhereCondition[]) => {
    for (const w of where) {
      fromValue(w.value);
      fromSql(w.custom);
    }
  };
  const fromJoins = (joins: Join[]) => {
    for (const j of joins) fromSql(j.custom);
  };
  const fromResponse = (props: ResponseProperty[]) => {
    for (const p of props) {
      if (p.subquery) {
        fromJoins(p.subquery.joins);
        fromWhere(p.subquery.where);
        fromResponse(p.subquery.properties);
      } else if (p.selector && !/^[A-Za-z_]\w*\.[A-Za-z_]\w*$/.test(p.selector)) fromSql(p.selector);
    }
  };
  if (isStandardRoute(route)) {
    fromJoins(route.joins);
    fromWhere(route.where);
    fromResponse(route.response);
    for (const a of route.assignments) fromValue(a.value);
  }
  return [...found].sort();
}
