// Which `#global` parameters a route uses: a route that uses one needs a caller
// (docs/authentication.md "Route rules: 401 or 403", rule 5).
// Computed once when the schema loads.

import { routeMentions } from "../../generator/schema/index.ts";
import { isStandardRoute, type Route } from "../../generator/schema/types.ts";

export function routeGlobals(route: Route): string[] {
  return isStandardRoute(route) ? [...routeMentions(route).globals].sort() : [];
}
