// Custom routes: response/request types, uploads, and handler method names.

import { type Context, rejectedWithin } from "./context.ts";
import { BUILTIN_RESPONSE_TYPES } from "./customTypes.ts";
import { handlerFileSegment, handlerMethodName } from "./handlers.ts";
import { enumMessage } from "./messages.ts";
import { at } from "./paths.ts";
import { didYouMean } from "./suggest.ts";
import type { CustomRoute, EndpointGroup } from "./types.ts";

const METHOD_NAME = /^[A-Za-z_$][\w$]*$/;

export function checkCustomRoute(ctx: Context, route: CustomRoute, rp: string): void {
  const { diag, customTypes } = ctx;
  const typesKnown = !rejectedWithin(ctx, "customTypes");
  const known = [...BUILTIN_RESPONSE_TYPES, ...customTypes];
  const element = route.responseType.endsWith("[]") ? route.responseType.slice(0, -2) : route.responseType;
  if (typesKnown && route.responseType !== "" && !known.includes(element)) {
    diag.error(
      at(rp, "responseType"),
      `unknown response type "${route.responseType}": expected boolean, string, number, a type declared in customTypes, ` +
        `or an array of one of them${didYouMean(element, known)}`,
    );
  }
  if (typesKnown && route.requestType !== undefined && !customTypes.has(route.requestType)) {
    diag.error(
      at(rp, "requestType"),
      `unknown request type "${route.requestType}": expected a type declared in customTypes${didYouMean(route.requestType, customTypes)}`,
    );
  }
  if (route.requestType !== undefined && route.request.length > 0) {
    diag.error(
      at(rp, "request"),
      "a route with requestType takes its whole input from that type; remove the request list",
    );
  }
  if (route.fileUploadType !== undefined) {
    if (route.fileUploadType !== "SINGLE" && route.fileUploadType !== "MULTIPLE") {
      diag.error(at(rp, "fileUploadType"), enumMessage(route.fileUploadType, ["SINGLE", "MULTIPLE"]));
    } else if (route.method === "GET" || route.method === "DELETE") {
      diag.error(at(rp, "fileUploadType"), `file uploads need POST, PUT or PATCH, got ${route.method}`);
    }
  }
  if (route.action !== undefined && !METHOD_NAME.test(route.action)) {
    diag.error(
      at(rp, "action"),
      `invalid action "${route.action}": expected a method name (letters, digits, _ and $)`,
    );
  }
  const first = handlerFileSegment(route.path);
  if (route.path.startsWith("/") && (first === "" || first.startsWith(":"))) {
    diag.error(
      at(rp, "path"),
      "a custom route's path must start with a literal segment (it names the handler file)",
    );
  }
}

/** Two custom routes in the same handler file must not map to the same method name. */
export function checkHandlerNames(
  ctx: Context,
  routes: { route: CustomRoute; path: string }[],
  groups: EndpointGroup[],
): void {
  const seen = new Map<string, string>();
  const baseOf = new Map<string, string>();
  groups.forEach((g, gi) => {
    g.routes.forEach((_, ri) => {
      baseOf.set(`endpoints[${gi}].routes[${ri}]`, g.baseUrl);
    });
  });
  for (const { route, path } of routes) {
    const method = route.action ?? handlerMethodName(route.method, route.path);
    const key = `${baseOf.get(path)} ${handlerFileSegment(route.path)} ${method}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, path);
    else {
      const where = route.action === undefined ? "path" : "action";
      ctx.diag.error(
        at(path, where),
        `handler method "${method}" is also used by ${first} (same handler file)`,
      );
    }
  }
}
