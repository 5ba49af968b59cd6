// The model stage: `buildModel(schema)` once, after the loader validated and normalised the
// schema, before any emitter or the gateway (docs/architecture.md "The model").

import { inferGlobalTypes } from "../api/globals.ts";
import type { Route, Schema } from "../schema/types.ts";
import { constraintIndex } from "./constraints.ts";
import { modelRoute } from "./routes.ts";
import { modelTable } from "./tables.ts";
import type { Model, ModelRoute, ModelTable } from "./types.ts";

export type { FilterColumn, Unavailable } from "./filterColumns.ts";

export type {
  Access,
  FilterColumns,
  Model,
  ModelColumn,
  ModelProperty,
  ModelRoute,
  ModelTable,
  ParamWrite,
  PgType,
  PgTypeName,
  RouteKind,
  ValueType,
} from "./types.ts";

const built = new WeakMap<Schema, Model>();

/** The schema's model, built on first use and shared by every stage that asks for it. */
export function buildModel(schema: Schema): Model {
  let model = built.get(schema);
  if (!model) {
    model = resolve(schema);
    built.set(schema, model);
  }
  return model;
}

function resolve(schema: Schema): Model {
  const tables = schema.database.map(modelTable);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const table = (name: string): ModelTable => {
    const found = byName.get(name);
    if (!found)
      throw new Error(`table "${name}" does not exist (the model is built from a validated schema)`);
    return found;
  };
  const routes = schema.endpoints.flatMap((group) => group.routes.map((r) => modelRoute(r, group, table)));
  const byRoute = new Map(routes.map((r) => [r.route, r]));
  const routeOf = (route: Route): ModelRoute => {
    const found = byRoute.get(route);
    if (!found) throw new Error(`${route.method} ${route.path} is not a route of this schema`);
    return found;
  };
  return {
    schema,
    tables,
    routes,
    table,
    findTable: (name) => byName.get(name),
    routeOf,
    constraints: constraintIndex(schema),
    notifyTables: tables.filter((t) => t.notify !== undefined),
    globalTypes: inferGlobalTypes(schema),
  };
}
