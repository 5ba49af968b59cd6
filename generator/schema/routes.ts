// Endpoint groups and routes: URLs, route conflicts, path parameters, deprecation, and the
// standard/custom specifics (standard queries are checked by queries.ts).

import type { Context } from "./context.ts";
import { checkCustomRoute, checkHandlerNames } from "./custom.ts";
import { checkDrift } from "./drift.ts";
import { at } from "./paths.ts";
import { checkProperties, checkQuery } from "./queries.ts";
import { checkRequest, type Params } from "./request.ts";
import {
  CUSTOM_ROUTE_TYPES,
  type CustomRoute,
  isStandardRoute,
  type Route,
  type StandardRoute,
} from "./types.ts";
import { IDENTIFIER } from "./values.ts";
import { checkAssignments } from "./where.ts";

interface Placed {
  route: Route;
  path: string;
  fullPath: string;
}

export function checkEndpoints(ctx: Context): void {
  const placed: Placed[] = [];
  const groupNames = new Map<string, string>();
  ctx.schema.endpoints.forEach((group, gi) => {
    const gp = `endpoints[${gi}]`;
    const first = groupNames.get(group.name);
    if (first !== undefined)
      ctx.diag.error(at(gp, "name"), `duplicate endpoint group name "${group.name}" (also at ${first})`);
    else groupNames.set(group.name, gp);
    checkBaseUrl(ctx, group.baseUrl, at(gp, "baseUrl"));
    group.routes.forEach((route, ri) => {
      const rp = at(at(gp, "routes"), ri);
      const fullPath = joinUrl(group.baseUrl, route.path);
      placed.push({ route, path: rp, fullPath });
      checkRoute(ctx, route, rp);
    });
  });
  const conflicting = checkConflicts(ctx, placed);
  checkAlternates(ctx, placed);
  const custom = placed.filter((p) => isCustomRoute(p.route) && !conflicting.has(p.path));
  checkHandlerNames(ctx, custom as (Placed & { route: CustomRoute })[], ctx.schema.endpoints);
}

function checkBaseUrl(ctx: Context, baseUrl: string, path: string): void {
  if (baseUrl === "") return;
  if (!baseUrl.startsWith("/")) ctx.diag.error(path, `baseUrl must start with "/", got "${baseUrl}"`);
  else if (baseUrl.endsWith("/")) ctx.diag.error(path, `baseUrl must not end with "/", got "${baseUrl}"`);
  else if (baseUrl.includes("//"))
    ctx.diag.error(path, `baseUrl must not contain empty segments, got "${baseUrl}"`);
  else if (baseUrl.split("/").some((s) => s.startsWith(":"))) {
    ctx.diag.error(path, `baseUrl cannot hold parameters, got "${baseUrl}"`);
  }
}

const isCustomRoute = (route: Route): route is CustomRoute =>
  (CUSTOM_ROUTE_TYPES as readonly string[]).includes(route.type);

/** baseUrl + path, without a trailing slash. */
export function joinUrl(baseUrl: string, path: string): string {
  return path === "/" ? baseUrl || "/" : baseUrl + path;
}

function checkRoute(ctx: Context, route: Route, rp: string): void {
  const params = checkRequest(ctx, route.request, at(rp, "request"));
  const pathParams = checkPath(ctx, route.path, at(rp, "path"));
  const takesWholeInput = isCustomRoute(route) && route.requestType !== undefined;
  for (const name of pathParams) {
    if (!takesWholeInput && !params.has(name) && params.complete) {
      ctx.diag.error(at(rp, "path"), `path parameter ":${name}" is not declared in request`);
    }
  }
  if (route.deprecation) checkDeprecation(ctx, route.deprecation.date, at(at(rp, "deprecation"), "date"));
  const alternate = route.deprecation?.alternate;
  if (alternate !== undefined && !alternate.startsWith("/")) {
    ctx.diag.error(
      at(at(rp, "deprecation"), "alternate"),
      `alternate must be a path starting with "/", got "${alternate}"`,
    );
  }
  if (isStandardRoute(route)) checkStandardRoute(ctx, route, rp, params);
  else if (isCustomRoute(route)) checkCustomRoute(ctx, route, rp);
}

/** Checks the path's shape and returns its parameter names. */
function checkPath(ctx: Context, urlPath: string, path: string): string[] {
  if (urlPath === "") return [];
  if (!urlPath.startsWith("/")) {
    ctx.diag.error(path, `path must start with "/", got "${urlPath}"`);
    return [];
  }
  if (urlPath.includes("//")) ctx.diag.error(path, `path must not contain empty segments, got "${urlPath}"`);
  const names: string[] = [];
  for (const segment of urlPath.split("/")) {
    if (!segment.startsWith(":")) continue;
    const name = segment.slice(1);
    if (!IDENTIFIER.test(name)) {
      ctx.diag.error(path, `invalid path parameter "${segment}": use letters, digits and _ after ":"`);
    } else if (names.includes(name)) {
      ctx.diag.error(path, `path parameter ":${name}" appears more than once`);
    } else names.push(name);
  }
  return names;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function checkDeprecation(ctx: Context, date: string, path: string): void {
  if (!ISO_DATE.test(date) || Number.isNaN(Date.parse(date))) {
    ctx.diag.error(
      path,
      `expected an ISO 8601 date like "2026-12-31" or "2026-12-31T00:00:00Z", got "${date}"`,
    );
  }
}

function checkStandardRoute(ctx: Context, route: StandardRoute, rp: string, params: Params) {
  const { diag } = ctx;
  if (route.type === "PAGED" && route.method !== "GET") {
    diag.error(at(rp, "method"), `PAGED routes must use GET, got ${route.method}`);
  }
  if (route.method === "DELETE" && route.where.length === 0) {
    diag.error(
      at(rp, "where"),
      "a DELETE route needs at least one where condition (it would delete every row)",
    );
  }
  if (route.assignments.length > 0 && (route.method === "GET" || route.method === "DELETE")) {
    diag.error(
      at(rp, "assignments"),
      `assignments only apply to POST, PUT and PATCH routes, not ${route.method}`,
    );
  }
  if (route.method === "GET" && route.response.length === 0) {
    diag.error(at(rp, "response"), "a GET route needs at least one response property");
  }
  const { env, base } = checkQuery(ctx, route, rp, params);
  checkProperties(env, route.response, at(rp, "response"));
  checkAssignments(env, route.assignments, base, at(rp, "assignments"));
  checkDrift(ctx, route, rp, params, base.info);
}

/** Same method and same path shape (parameter names ignored, literal segments exact) conflict. */
function checkConflicts(ctx: Context, placed: Placed[]): Set<string> {
  const seen = new Map<string, Placed>();
  const conflicting = new Set<string>();
  for (const p of placed) {
    if (p.route.path === "" || !p.route.path.startsWith("/")) continue;
    const shape = p.fullPath
      .split("/")
      .map((s) => (s.startsWith(":") ? ":" : s))
      .join("/");
    const key = `${p.route.method} ${shape}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, p);
      continue;
    }
    conflicting.add(p.path);
    const mine = `${p.route.method} ${p.fullPath}`;
    const theirs = `${first.route.method} ${first.fullPath}`;
    ctx.diag.error(
      at(p.path, "path"),
      mine === theirs
        ? `duplicate route ${mine} (also at ${first.path})`
        : `${mine} conflicts with ${theirs} at ${first.path}`,
    );
  }
  return conflicting;
}

/** A deprecation's alternate should name an existing route (full path or path within a group). */
function checkAlternates(ctx: Context, placed: Placed[]): void {
  const known = new Set(placed.flatMap((p) => [p.fullPath, p.route.path]));
  for (const p of placed) {
    const alternate = p.route.deprecation?.alternate;
    if (alternate === undefined || !alternate.startsWith("/")) continue;
    const normalised = alternate.length > 1 ? alternate.replace(/\/+$/, "") : alternate;
    if (!known.has(normalised)) {
      ctx.diag.warn(at(at(p.path, "deprecation"), "alternate"), `no route has the path "${alternate}"`);
    }
  }
}
