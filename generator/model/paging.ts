// The query language's fixed vocabulary (docs/query-language.md), stated once for the route
// functions that check it in SQL, the gateway that checks it first, and the generated types and
// OpenAPI document that describe it.

/** The parameters every PAGED route takes without declaring them; `after` is a keyset page's cursor. */
export const PAGED_PARAMS = ["page", "perPage", "filter", "sortBy", "sortOrder", "after"] as const;
export type PagedParam = (typeof PAGED_PARAMS)[number];

/** `sortOrder` values, case-insensitive. */
export const SORT_ORDERS = ["ASC", "DESC", "NONE", "RAND"] as const;

/** How `total` is counted: a route's `total`, or a request's `Prefer: count=...`. */
export const TOTAL_MODES = ["exact", "planned", "estimated"] as const;

/** `perPage` when the request has none (at most the gateway's MAX_PER_PAGE). */
export const DEFAULT_PER_PAGE = 10;
