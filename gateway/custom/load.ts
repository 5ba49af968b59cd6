// Loading custom-route handlers (docs/handlers.md): `<app>/src/api/<version>/<segment>.api.<version>.ts`,
// one default-exported class per file, instantiated once, one method per route (named by
// generator/schema/handlers.ts, or the route's `action`). Everything is imported at start-up, so a
// missing file or method is reported before the first request, naming what was expected.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { handlerFileSegment, handlerMethodName } from "../../generator/schema/handlers.ts";
import type { CustomRoute, EndpointGroup, Schema } from "../../generator/schema/types.ts";
import { isStandardRoute } from "../../generator/schema/types.ts";
import type { HandlerContext, HandlerMethod } from "./types.ts";

export interface ExpectedHandler {
  route: CustomRoute;
  group: EndpointGroup;
  /** `POST /api/v1/user/login`. */
  label: string;
  /** Relative to the app directory: `src/api/v1/user.api.v1.ts`. */
  file: string;
  method: string;
}

export interface HandlerProblem extends ExpectedHandler {
  problem: string;
}

export interface LoadedHandlers {
  /** By `METHOD /full/path`. */
  methods: Map<string, HandlerMethod>;
  problems: HandlerProblem[];
}

/** `/api/v1` -> `v1`: the last segment of the base URL that looks like a version, else the last. */
export function groupVersion(baseUrl: string): string {
  const segments = baseUrl.split("/").filter((s) => s !== "");
  return [...segments].reverse().find((s) => /^v\d+$/i.test(s)) ?? segments.at(-1) ?? "v1";
}

export function routeKey(method: string, fullPath: string): string {
  return `${method} ${fullPath}`;
}

/** Every custom route's expected file and method. */
export function expectedHandlers(schema: Schema): ExpectedHandler[] {
  const out: ExpectedHandler[] = [];
  for (const group of schema.endpoints) {
    const version = groupVersion(group.baseUrl);
    for (const route of group.routes) {
      if (isStandardRoute(route)) continue;
      const segment = handlerFileSegment(route.path);
      out.push({
        route,
        group,
        label: `${route.method} ${group.baseUrl}${route.path}`,
        file: path.posix.join("src/api", version, `${segment}.api.${version}.ts`),
        method: route.action ?? handlerMethodName(route.method, route.path),
      });
    }
  }
  return out;
}

/** `POST /api/v1/user/login: src/api/v1/user.api.v1.ts has no method postUserLogin`. */
export function describeProblem(p: HandlerProblem): string {
  return `${p.label}: ${p.problem}`;
}

export interface LoadOptions {
  /**
   * Import the files afresh, with the modules they import (watch mode, gateway/dev): each load gets
   * its own tsx module namespace, since Node caches a module for the life of the process.
   */
  fresh?: boolean;
}

/** Imports every handler file the schema needs and binds each route's method. */
export async function loadHandlers(
  appDir: string,
  schema: Schema,
  options: LoadOptions = {},
): Promise<LoadedHandlers> {
  const methods = new Map<string, HandlerMethod>();
  const problems: HandlerProblem[] = [];
  const instances = new Map<string, { instance?: Record<string, unknown>; problem?: string }>();
  const context: HandlerContext = { appDir: path.resolve(appDir) };

  for (const expected of expectedHandlers(schema)) {
    let loaded = instances.get(expected.file);
    if (!loaded) {
      loaded = await instantiate(path.join(appDir, expected.file), expected.file, context, options);
      instances.set(expected.file, loaded);
    }
    if (loaded.problem !== undefined) {
      problems.push({ ...expected, problem: `${loaded.problem} (expected method ${expected.method})` });
      continue;
    }
    const fn = loaded.instance?.[expected.method];
    if (typeof fn !== "function") {
      problems.push({ ...expected, problem: `${expected.file} has no method ${expected.method}` });
      continue;
    }
    methods.set(
      routeKey(expected.route.method, `${expected.group.baseUrl}${expected.route.path}`),
      (fn as HandlerMethod).bind(loaded.instance),
    );
  }
  return { methods, problems };
}

async function instantiate(
  file: string,
  relative: string,
  context: HandlerContext,
  options: LoadOptions,
): Promise<{ instance?: Record<string, unknown>; problem?: string }> {
  if (!fs.existsSync(file)) return { problem: `handler file ${relative} is missing` };
  let module: { default?: unknown };
  try {
    module = (options.fresh ? await importFresh(file) : await import(pathToFileURL(file).href)) as {
      default?: unknown;
    };
  } catch (error) {
    return { problem: `${relative} failed to load: ${(error as Error).message}` };
  }
  let Handler = module.default;
  // A file compiled as CommonJS (an app without `"type": "module"`) arrives wrapped once more.
  if (typeof Handler === "object" && Handler !== null && "default" in Handler) {
    Handler = (Handler as { default: unknown }).default;
  }
  if (typeof Handler !== "function") {
    return { problem: `${relative} has no default-exported class` };
  }
  try {
    return { instance: new (Handler as new (context: HandlerContext) => Record<string, unknown>)(context) };
  } catch (error) {
    return { problem: `${relative}: the handler class's constructor threw: ${(error as Error).message}` };
  }
}

/** tsx's isolated import; loaded only in watch mode, which always runs under tsx. */
async function importFresh(file: string): Promise<unknown> {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(file, import.meta.url);
}
