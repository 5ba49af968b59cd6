// Route functions: one SQL function per standard route (reads: ONE, ARRAY, PAGED; writes: POST,
// PUT/PATCH, DELETE), in schema `api`.
// See README.md in this folder and docs/architecture.md ("Route functions").

import { contextKeys } from "../api/context.ts";
import { buildModel } from "../model/index.ts";
import type { EndpointGroup, Schema, StandardRoute } from "../schema/types.ts";
import { isStandardRoute } from "../schema/types.ts";
import { functionStatements } from "./function.ts";
import { guardStatements, pageGuardName } from "./guards.ts";
import { helperStatements } from "./helpers.ts";
import { array } from "./kinds/array.ts";
import { one } from "./kinds/one.ts";
import { paged } from "./kinds/paged.ts";
import { readGuardStatements } from "./kinds/readViews.ts";
import type { Compile, Kind } from "./kinds/types.ts";
import { post, remove, update } from "./kinds/write.ts";
import { pageFunctionName, routeFunctionName } from "./names.ts";
import { Checks } from "./permissions.ts";
import { compileQuery, type QuerySpec } from "./select.ts";

export type { ColumnMap } from "./filter.ts";
export { HELPER_FUNCTIONS, helperStatements } from "./helpers.ts";
export { routeFunctionName } from "./names.ts";

const KINDS = { ONE: one, ARRAY: array, PAGED: paged } satisfies Record<StandardRoute["type"], Kind>;
/** Write routes: the kind follows the method (the loader allows ONE and ARRAY there, not PAGED). */
const WRITE_KINDS = { POST: post, PUT: update, PATCH: update, DELETE: remove } satisfies Record<
  Exclude<StandardRoute["method"], "GET">,
  Kind
>;

export interface RouteFunction {
  name: string;
  route: StandardRoute;
  group: EndpointGroup;
}

/** The standard routes that get a function (reads and writes), sorted by function name. */
export function routeFunctions(schema: Schema): RouteFunction[] {
  const found: RouteFunction[] = [];
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      if (isStandardRoute(route)) {
        found.push({ name: routeFunctionName(route, group), route, group });
      }
    }
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One route's statements: CREATE FUNCTION, owner, REVOKE from PUBLIC, GRANT to api_gateway. */
export function routeFunctionStatementsFor(
  schema: Schema,
  route: StandardRoute,
  group: EndpointGroup,
): string[] {
  const checks = new Checks();
  const model = buildModel(schema);
  const compile: Compile = (indent, form) =>
    compileQuery(querySpec(route), model, checks, indent, undefined, form);
  compile("");
  const write = route.method !== "GET";
  const names = { page: pageFunctionName(route, group) };
  const kind =
    route.method === "GET"
      ? KINDS[route.type](route, compile, names)
      : WRITE_KINDS[route.method](route, compile, names);
  const own = functionStatements(routeFunctionName(route, group), {
    declare: kind.declare,
    checks: (indent) => checks.statements(route, indent),
    statements: kind.statements,
    // Writes always set all of it: triggers and defaults an app adds in its own migrations (audit
    // columns, say) may read the caller from `api.ctx`.
    context: write ? { whole: true, keys: [] } : checks.context,
    contextKeys: contextKeys(schema),
  });
  // The gateway's own read of the route, where it has one, is valid in this layer (readViews.ts).
  const modelRoute = model.routes.find((r) => r.route === route);
  const guard = modelRoute ? readGuardStatements(model, modelRoute) : [];
  // A helper first: the function's dynamic SQL calls it.
  return [...(kind.helpers ?? []), ...own, ...guard];
}

/** The route's query as the compiler reads it. */
export function querySpec(route: StandardRoute): QuerySpec {
  return {
    table: route.table,
    joins: route.joins,
    where: route.where,
    properties: route.response,
    ...(route.orderBy ? { orderBy: route.orderBy } : {}),
    ...(route.groupBy ? { groupBy: route.groupBy } : {}),
  };
}

/**
 * Every statement of the route functions: the runtime helpers they call, then each standard
 * route's function, reads and writes (sorted by name), then the guard of the gateway's own pages
 * (guards.ts). Run after the API layer's views and grants exist, as a
 * superuser or the owner of schema `api`.
 */
export function routeFunctionStatements(schema: Schema): string[] {
  return [...helperStatements(), ...routeStatements(schema), ...guardStatements(pageGuardName(schema))];
}

/** The route functions' statements alone (without the helpers). */
export function routeStatements(schema: Schema): string[] {
  return routeFunctions(schema).flatMap((f) => routeFunctionStatementsFor(schema, f.route, f.group));
}
