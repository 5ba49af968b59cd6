// The errors a route can answer with, from what the route is (docs/errors.md "The codes"): what a
// client of that route must handle. The OpenAPI document lists them per operation. Errors of the
// transport that every route shares and no route decides (405, 408, 431) are left out.

import { isStandardRoute } from "../schema/types.ts";
import type { ErrorCode } from "./errors.ts";
import type { ModelRoute } from "./types.ts";

export function routeErrors(route: ModelRoute): ErrorCode[] {
  const r = route.route;
  const standard = isStandardRoute(r);
  const hasBody = route.paramsIn === "body";
  const writes = r.method !== "GET";
  const out = new Set<ErrorCode>(["BAD_REQUEST"]);
  // A route rule or a `#global` needs a caller; a custom handler may refuse one itself.
  if (route.access || route.globals.length > 0 || !standard) out.add("UNAUTHORIZED");
  // A rule the caller may fail: the route's, its table's, every column hidden, a hidden column written.
  const table = route.table;
  const columnRules = table?.readable.some((c) => c.access !== undefined) === true;
  if (route.access || table?.access || columnRules || (standard && writes) || !standard) out.add("FORBIDDEN");
  // ONE routes (reads and writes by key) answer 404 when no row matches for this caller.
  if (route.kind === "ONE" || !standard) out.add("NOT_FOUND");
  if (writes) out.add("CONFLICT");
  if (hasBody) {
    out.add("PAYLOAD_TOO_LARGE");
    out.add("UNSUPPORTED_MEDIA_TYPE");
  }
  if (r.request.length > 0 || route.kind === "PAGED" || hasBody || !standard) out.add("VALIDATION_ERROR");
  if (r.rateLimit) out.add("TOO_MANY_REQUESTS");
  out.add("SERVER_ERROR");
  if (!standard) out.add("NOT_IMPLEMENTED");
  out.add("SERVICE_UNAVAILABLE");
  out.add("GATEWAY_TIMEOUT");
  return [...out];
}
