// Unknown routes: 404 for a path no route has; 405 with `Allow` for a path that exists under
// other methods (so a client sending PUT where only PATCH exists learns which to use). Paths are
// matched as the router does: literal segments exactly, `:param` segments by any non-empty text.

import http from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import { errorBody } from "../errors.ts";

interface Pattern {
  segments: string[];
  methods: Set<string>;
}

/** Call before any route is added: it records each route's method and path. */
export function unknownRoutes(app: FastifyInstance): void {
  const patterns = new Map<string, Pattern>();
  app.addHook("onRoute", (route) => {
    // Wildcards (CORS's `OPTIONS *`) would make every path "exist".
    if (route.url.includes("*")) return;
    const pattern = patterns.get(route.url) ?? { segments: route.url.split("/"), methods: new Set() };
    for (const method of [route.method].flat()) {
      pattern.methods.add(method);
      // Fastify answers HEAD for every GET route.
      if (method === "GET") pattern.methods.add("HEAD");
    }
    patterns.set(route.url, pattern);
  });

  const allowed = (url: string): string[] => {
    const path = url.split("?", 1)[0] as string;
    const segments = path.split("/");
    const methods = new Set<string>();
    for (const pattern of patterns.values()) {
      if (pattern.segments.length !== segments.length) continue;
      const matches = pattern.segments.every((s, i) =>
        s.startsWith(":") ? segments[i] !== "" : s === segments[i],
      );
      if (matches) for (const m of pattern.methods) methods.add(m);
    }
    return [...methods].sort();
  };

  // CONNECT never reaches the router: Node hands the raw socket to a `connect` listener, and
  // without one drops it silently. This is not a proxy: say so in the envelope and close.
  app.server.on("connect", (_request: http.IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify(errorBody("METHOD_NOT_ALLOWED", "CONNECT is not supported"));
    socket.end(
      `HTTP/1.1 405 ${http.STATUS_CODES[405]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  app.setNotFoundHandler((request, reply) => {
    const methods = allowed(request.url);
    if (methods.length === 0) return reply.code(404).send(errorBody("NOT_FOUND", "Route not found"));
    return reply
      .code(405)
      .header("allow", methods.join(", "))
      .send(errorBody("METHOD_NOT_ALLOWED", `This path allows only ${methods.join(", ")}`));
  });
}
