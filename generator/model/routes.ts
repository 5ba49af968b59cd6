// Routes resolved once: the full path clients call, where parameters come from, the route rule,
// and what a standard route reads from the caller (`#global`s) and the request (`$param`s).

import { routeFunctionName } from "../routes/names.ts";
import { isRestricted } from "../routes/permissions.ts";
import { routeMentions } from "../schema/index.ts";
import { type EndpointGroup, isStandardRoute, type Route } from "../schema/types.ts";
import { type FilterColumns, routeFilterColumns } from "./filterColumns.ts";
import { responseProperties } from "./response.ts";
import type { ModelRoute, ModelTable } from "./types.ts";
import { paramWrites } from "./writes.ts";

const NO_FILTER_COLUMNS: FilterColumns = { entries: new Map(), unavailable: new Map() };

export function modelRoute(
  route: Route,
  group: EndpointGroup,
  table: (name: string) => ModelTable,
): ModelRoute {
  const path = `${group.baseUrl}${route.path}`;
  const mentions = isStandardRoute(route) ? routeMentions(route) : undefined;
  return {
    route,
    group,
    method: route.method,
    path,
    key: `${route.method} ${path}`,
    functionName: isStandardRoute(route) ? routeFunctionName(route, group) : undefined,
    kind: route.type,
    access: isRestricted(route) ? { roles: route.roles, scopes: route.scopes } : undefined,
    pathParams: route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : [])),
    paramsIn: route.method === "GET" || route.method === "DELETE" ? "query" : "body",
    globals: mentions ? [...mentions.globals].sort() : [],
    mentionedParams: mentions ? [...mentions.params].sort() : [],
    table: isStandardRoute(route) ? table(route.table) : undefined,
    response: isStandardRoute(route)
      ? responseProperties(table(route.table).table, route.joins, route.response, (name) => table(name).table)
      : [],
    writes: isStandardRoute(route) && route.method !== "GET" ? paramWrites(route, table(route.table)) : [],
    filterColumns: isStandardRoute(route) ? routeFilterColumns(route, table) : NO_FILTER_COLUMNS,
  };
}
