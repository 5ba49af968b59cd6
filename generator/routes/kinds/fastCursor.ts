// What the gateway needs to know of a PAGED route function's keyset fast path (pagedKeyset.ts
// keysetFastPath) to decode cursors for it (gateway/routes/cursor.ts). Apart from pagedKeyset.ts,
// which the route kinds import: this compiles the route, and the compiler's entry point imports
// the kinds.

import type { Model, ModelRoute } from "../../model/index.ts";
import type { StandardRoute } from "../../schema/types.ts";
import { filterColumns } from "../filter.ts";
import { querySpec } from "../index.ts";
import { Checks } from "../permissions.ts";
import { compileQuery } from "../select.ts";
import { fastPathTail } from "./pagedKeyset.ts";

export { DECODED_CURSOR } from "./pagedKeyset.ts";

/**
 * The number of keys in a cursor of the route's own order that its function's fast path takes
 * (keysetFastPath), compiled as the function compiles the route; undefined for a route without
 * that path (not PAGED, or no own order by a primary key every caller sees).
 */
export function fastCursorKeys(model: Model, modelRoute: ModelRoute): number | undefined {
  const route = modelRoute.route as StandardRoute;
  if (route.type !== "PAGED") return undefined;
  const q = compileQuery(querySpec(route), model, new Checks(), "");
  return fastPathTail(q, filterColumns(q, modelRoute.filterColumns))?.sql.length;
}
