// Messages about a route name it as `METHOD /full/path` next to their JSON path: an index like
// `endpoints[2].routes[14]` alone sends the reader counting through the file.

import { joinUrl } from "./routes.ts";
import type { Diagnostic, Schema } from "./types.ts";

/** Each route's JSON path -> `METHOD /full/path` (routes without a usable method or path left out). */
export function routeNames(schema: Schema): Record<string, string> {
  const names: Record<string, string> = {};
  schema.endpoints.forEach((group, gi) => {
    group.routes.forEach((route, ri) => {
      if (route.method && route.path.startsWith("/")) {
        names[`endpoints[${gi}].routes[${ri}]`] = `${route.method} ${joinUrl(group.baseUrl, route.path)}`;
      }
    });
  });
  return names;
}

const ROUTE_PATH = /^endpoints\[\d+\]\.routes\[\d+\]/;

/** `path (METHOD /full/path): message`, or `path: message` outside routes; no path: the message. */
export function describeDiagnostic(d: Diagnostic, routes: Record<string, string> = {}): string {
  const route = ROUTE_PATH.exec(d.path)?.[0];
  const name = route === undefined ? undefined : routes[route];
  if (d.path === "") return d.message;
  return `${d.path}${name === undefined ? "" : ` (${name})`}: ${d.message}`;
}
