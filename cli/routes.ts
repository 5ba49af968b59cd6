// `make routes APP=dir`: every route of the app as a table, sorted by path then method, with what
// serves it: the table of a standard route, the handler file and method of a custom one (the same
// names the gateway loads, gateway/custom/load.ts).

import path from "node:path";
import { AppError } from "../app/errors.ts";
import { expectedHandlers } from "../gateway/custom/load.ts";
import { joinUrl } from "../generator/schema/routes.ts";
import { HTTP_METHODS, isStandardRoute, type Schema } from "../generator/schema/types.ts";
import { ROUTES } from "./commands.ts";
import { parseArgs, runCli } from "./common.ts";

const HEADER = ["METHOD", "PATH", "TYPE", "ROLES", "SCOPES", "TABLE / HANDLER"];

/** One row per route, sorted by full path, then method in HTTP_METHODS order. */
export function routeRows(schema: Schema): string[][] {
  const handlers = new Map(expectedHandlers(schema).map((h) => [h.route, h]));
  const list = (names: string[], none: string) => (names.length === 0 ? none : names.join(","));
  const rows = schema.endpoints.flatMap((group) =>
    group.routes.map((route) => {
      const handler = handlers.get(route as never);
      const served = isStandardRoute(route)
        ? route.table
        : handler
          ? `${handler.file} ${handler.method}`
          : "?";
      return [
        route.method,
        joinUrl(group.baseUrl, route.path),
        route.type,
        list(route.roles, "(any)"),
        list(route.scopes, "-"),
        served,
      ];
    }),
  );
  const order = (method: string) => (HTTP_METHODS as readonly string[]).indexOf(method);
  return rows.sort(
    (a, b) =>
      ((a[1] as string) < (b[1] as string) ? -1 : (a[1] as string) > (b[1] as string) ? 1 : 0) ||
      order(a[0] as string) - order(b[0] as string),
  );
}

/** Left-aligned columns, two spaces apart. */
export function formatTable(rows: string[][]): string[] {
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd(),
  );
}

runCli(async () => {
  const { appDir } = parseArgs(ROUTES);
  const { readAppSchema } = await import("../app/load.ts");
  const result = readAppSchema(appDir);
  if (!result.schema) {
    const app = path.relative(process.cwd(), appDir) || ".";
    throw new AppError(
      `${result.file}: the schema has ${result.errors.length} error(s); \`make check APP=${app}\` lists them`,
    );
  }
  const rows = routeRows(result.schema);
  for (const line of formatTable([HEADER, ...rows])) console.log(line);
  const custom = rows.filter((r) => (r[2] as string).startsWith("CUSTOM")).length;
  console.log(`${rows.length} route(s): ${rows.length - custom} standard, ${custom} custom`);
  return 0;
});
