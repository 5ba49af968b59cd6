// CORS (CORS_ORIGINS): off unless configured, so a browser page on another origin cannot read
// answers by default. Tokens travel in the Authorization header, never in cookies, so credentials
// mode stays off and `*` is safe to offer for a public API.

import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import type { CorsOrigins } from "../config.ts";

/** Headers a browser script may read from our answers (ids for support, deprecation notices). */
const EXPOSED = ["x-request-id", "deprecation", "sunset", "link", "retry-after"];
/**
 * Headers a browser may send: the token, the JSON body, a request id for correlation, and
 * X-Read-Primary (read-your-writes with a replica, docs/scaling.md).
 */
const ALLOWED = ["authorization", "content-type", "x-request-id", "x-read-primary"];

export function registerCors(app: FastifyInstance, origins: CorsOrigins | undefined): void {
  if (origins === undefined) return;
  app.register(cors, {
    // A list: the request's Origin is echoed back only when it is one of them (with Vary: Origin).
    origin: origins === "*" ? "*" : origins,
    methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ALLOWED,
    exposedHeaders: EXPOSED,
    credentials: false,
    // Browsers cache a preflight this long (seconds), instead of one OPTIONS per request.
    maxAge: 600,
  });
}
