// The implicit parameters of PAGED and CUSTOM_PAGED routes (docs/query-language.md): accepted without being
// declared; when a route declares one of them anyway (Restura's fixture does), its validators
// apply on top of the implicit rules, and `required` is honoured.

import { DEFAULT_PER_PAGE, PAGED_PARAMS, SORT_ORDERS } from "../../generator/model/paging.ts";
import type { RequestParam } from "../../generator/schema/types.ts";
import type { Kind } from "./messages.ts";
import * as msg from "./messages.ts";
import { declaredDef, type ParamDef } from "./param.ts";
import type { Check } from "./values.ts";

export { PAGED_PARAMS, SORT_ORDERS };

const atLeastOne: Check = (v) => ((v as number) >= 1 ? undefined : msg.atLeast(1));

function implicitDef(name: (typeof PAGED_PARAMS)[number], maxPerPage: number): ParamDef {
  const base = { name, required: false, nullable: false, isArray: false };
  switch (name) {
    case "page":
      return { ...base, kind: "integer", implicitChecks: [atLeastOne], fallback: 1 };
    case "perPage": {
      const tooMany = msg.atMost(maxPerPage);
      const atMostMax: Check = (v) => ((v as number) <= maxPerPage ? undefined : tooMany);
      return {
        ...base,
        kind: "integer",
        implicitChecks: [atLeastOne, atMostMax],
        fallback: Math.min(DEFAULT_PER_PAGE, maxPerPage),
      };
    }
    case "filter":
    case "sortBy":
    case "after":
      return { ...base, kind: "string" };
    case "sortOrder": {
      const allowed: ReadonlySet<unknown> = new Set(SORT_ORDERS);
      const message = msg.oneOf(SORT_ORDERS);
      return {
        ...base,
        kind: "string",
        normalize: (s) => s.toUpperCase(),
        implicitChecks: [(v) => (allowed.has(v) ? undefined : message)],
        fallback: "ASC",
      };
    }
  }
}

/** The TYPE_CHECK a declaration of the implicit parameter may carry. */
const COMPATIBLE: Record<(typeof PAGED_PARAMS)[number], Kind> = {
  page: "number",
  perPage: "number",
  filter: "string",
  sortBy: "string",
  sortOrder: "string",
  after: "string",
};

/**
 * The definitions of the six implicit parameters, merged with the route's declarations of
 * them. Throws when a declaration's TYPE_CHECK contradicts the implicit type (e.g. `page` as
 * `string`): such a route could never be called.
 */
export function pagedDefs(
  declared: ReadonlyMap<string, RequestParam>,
  maxPerPage: number,
  routeLabel: string,
): ParamDef[] {
  return PAGED_PARAMS.map((name) => {
    const implicit = implicitDef(name, maxPerPage);
    const param = declared.get(name);
    if (!param) return implicit;
    const own = declaredDef(param);
    if (own.isArray || (own.kind !== "any" && own.kind !== COMPATIBLE[name])) {
      const type = own.isArray ? `${own.kind}[]` : own.kind;
      throw new Error(
        `${routeLabel}: request parameter "${name}" is implicit on paged routes and must be a ${COMPATIBLE[name]}, not ${type}`,
      );
    }
    const merged: ParamDef = { ...implicit, required: param.required };
    if (own.oneOf) merged.oneOf = own.oneOf;
    if (own.min !== undefined) merged.min = own.min;
    if (own.max !== undefined) merged.max = own.max;
    return merged;
  });
}
