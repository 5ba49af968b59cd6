// Write routes that drifted from their tables (a column renamed, the route left behind): a
// request parameter that reaches nothing, and a NOT NULL column a POST can never set. Either
// makes every request fail at run time while the schema looks fine, so they are errors in an
// `api.schema.json` (warnings in a Restura file, which must load unchanged).

import { type Context, rejectedWithin, routeProblem, type TableInfo } from "./context.ts";
import { routeMentions } from "./mentions.ts";
import { at } from "./paths.ts";
import type { Params } from "./request.ts";
import { didYouMean } from "./suggest.ts";
import type { StandardRoute } from "./types.ts";

/** The query parameters the gateway adds to every PAGED route. */
const PAGED_PARAMS = ["page", "perPage", "sortBy", "sortOrder", "filter"];

const SERIAL_TYPES = new Set(["SERIAL", "BIGSERIAL", "SMALLSERIAL"]);

export function checkDrift(
  ctx: Context,
  route: StandardRoute,
  rp: string,
  params: Params,
  info: TableInfo | undefined,
): void {
  if (route.method === "GET") return;
  // Where something is already reported as broken, a drift finding would only be noise.
  if (!info || info.incomplete || !params.complete || rejectedWithin(ctx, rp)) return;
  checkUnusedParams(ctx, route, rp, info);
  if (route.method === "POST") checkUnsettableColumns(ctx, route, rp, params, info);
}

const pathParams = (route: StandardRoute): string[] =>
  route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : []));

function checkUnusedParams(ctx: Context, route: StandardRoute, rp: string, info: TableInfo): void {
  const used = routeMentions(route).params;
  for (const name of pathParams(route)) used.add(name);
  if (route.type === "PAGED") for (const name of PAGED_PARAMS) used.add(name);
  // POST, PUT and PATCH write the parameters named like base-table columns; DELETE writes none.
  const writes = route.method !== "DELETE";
  route.request.forEach((param, i) => {
    if (used.has(param.name) || (writes && info.columns.has(param.name))) return;
    const unclaimed = [...info.columns.keys()].filter((c) => !route.request.some((p) => p.name === c));
    const readers = "no assignment, where condition, join or raw SQL reads";
    const message = writes
      ? `no column of table "${info.table.name}" has that name, and ${readers} "$${param.name}"${didYouMean(param.name, unclaimed)}`
      : `a DELETE writes no column, and ${readers.replace("no assignment, ", "no ")} "$${param.name}"`;
    routeProblem(
      ctx,
      at(at(at(rp, "request"), i), "name"),
      `request parameter "${param.name}" is used by nothing: ${message}`,
    );
  });
}

function checkUnsettableColumns(
  ctx: Context,
  route: StandardRoute,
  rp: string,
  params: Params,
  info: TableInfo,
): void {
  const inPath = new Set(pathParams(route));
  const assigned = new Set(route.assignments.map((a) => a.name));
  for (const column of info.table.columns) {
    if (column.isNullable || column.default !== undefined) continue;
    if (SERIAL_TYPES.has(column.type) || column.hasAutoIncrement === true) continue;
    if (assigned.has(column.name) || (params.has(column.name) && !inPath.has(column.name))) continue;
    routeProblem(
      ctx,
      at(rp, "request"),
      `column "${column.name}" of table "${info.table.name}" is NOT NULL without a default, and this POST ` +
        `can never set it: every request would fail. Add a request parameter "${column.name}" or an assignment`,
    );
  }
}
