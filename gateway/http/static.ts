// An application's static pages (`<app>/public/`, e.g. the example's live page) and the realtime
// client built for browsers at `/client/realtime.js`. Only the files found at start-up are
// served, each at its own fixed route: no path from a request ever reaches the file system.
// The client is bundled once, when the gateway starts, with esbuild (tsx's own compiler, which
// the gateway already runs under), so nothing is built or fetched per request.

import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";

/** Where the browser build of client/realtime.ts is served. */
export const CLIENT_SCRIPT_PATH = "/client/realtime.js";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

const CLIENT_ENTRY = path.join(import.meta.dirname, "../../client/realtime.ts");

/** Registers `publicDir`'s files (when the directory exists) and the browser client. */
export function registerStatic(app: FastifyInstance, publicDir: string): void {
  if (!fs.existsSync(publicDir)) return;
  for (const file of filesUnder(publicDir)) {
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()];
    if (!type) continue;
    const body = fs.readFileSync(path.join(publicDir, file));
    const url = `/${file.split(path.sep).join("/")}`;
    app.get(url, async (_request, reply) => reply.type(type).header("cache-control", "no-cache").send(body));
  }
  app.register(async (scope) => {
    const script = await bundleClient();
    scope.get(CLIENT_SCRIPT_PATH, async (_request, reply) =>
      reply
        .type(CONTENT_TYPES[".js"] as string)
        .header("cache-control", "no-cache")
        .send(script),
    );
  });
}

/** client/realtime.ts as one ES module for browsers. */
export async function bundleClient(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [CLIENT_ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2020",
    write: false,
    legalComments: "none",
  });
  return result.outputFiles[0]?.text ?? "";
}

function filesUnder(dir: string, prefix = ""): string[] {
  return fs.readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    if (entry.name.startsWith(".")) return [];
    return entry.isDirectory() ? filesUnder(dir, relative) : entry.isFile() ? [relative] : [];
  });
}
