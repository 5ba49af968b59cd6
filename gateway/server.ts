// The Fastify gateway: a route table compiled from the schema, the error envelope, and the
// liveness/readiness endpoints. Routing by method + path is Fastify's (find-my-way): a literal
// segment beats a `:param` whatever the order in the schema (docs/schema.md "Routes").

import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type pg from "pg";
import { buildModel } from "../generator/model/index.ts";
import type { CustomRoute, EndpointGroup, Schema } from "../generator/schema/types.ts";
import { isStandardRoute } from "../generator/schema/types.ts";
import { ident } from "../generator/sql/sql.ts";
import type { Authenticator } from "./auth/context.ts";
import { guardedAuthenticator } from "./auth/guard.ts";
import { type GatewayConfig, HANDLER_DEFAULTS } from "./config.ts";
import { routeConstraints } from "./constraints.ts";
import {
  type CallableRoute,
  compileCustomRoute,
  describeProblem,
  type LoadedHandlers,
  requestTypeValidator,
  routeKey,
} from "./custom/index.ts";
import { ApiError, errorBody } from "./errors.ts";
import { registerApiDocs } from "./http/apiDocs.ts";
import { clientErrorHandler } from "./http/clientError.ts";
import { registerCors } from "./http/cors.ts";
import { jsonBodies } from "./http/jsonBody.ts";
import { unknownRoutes } from "./http/methods.ts";
import { type RateLimitSettings, registerRateLimits } from "./http/rateLimit.ts";
import { requestId } from "./http/requestId.ts";
import { requestLogger } from "./http/requestLog.ts";
import { registerStatic } from "./http/static.ts";
import { serverTimeouts } from "./http/timeouts.ts";
import { registerOps } from "./ops/index.ts";
import { type ReadRouter, wantsPrimary } from "./readPool.ts";
import { registerRealtime } from "./realtime/index.ts";
import { compileColumnChecks } from "./request/columns.ts";
import { compileStandardRoute, type RouteRequest } from "./routes/standard.ts";

export interface GatewayDeps {
  schema: Schema;
  pool: pg.Pool;
  authenticate: Authenticator;
  config: Pick<GatewayConfig, "maxPerPage" | "bodyLimit" | "logLevel"> &
    Partial<Pick<GatewayConfig, "preparedStatements" | "ops" | "realtime" | "apiDocs">> &
    Partial<Pick<GatewayConfig, "handlerTimeoutMs" | "uploadMaxBytes" | "uploadMaxFiles" | "uploadTmpDir">> &
    Partial<
      Pick<GatewayConfig, "requestTimeoutMs" | "connectionTimeoutMs" | "keepAliveTimeoutMs" | "corsOrigins">
    >;
  /** Where the log goes (tests read it); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** The app's custom-route handlers (custom/load.ts). Absent: every custom route has none. */
  handlers?: LoadedHandlers;
  /**
   * Serve even when handlers are missing: those routes answer 501 NOT_IMPLEMENTED and log what
   * was expected. Off by default: a missing handler stops `buildGateway` (docs/handlers.md).
   */
  allowMissingHandlers?: boolean;
  /** The connection behind `req.service` (role api_service, docs/handlers.md); absent: unavailable. */
  servicePool?: pg.Pool;
  /**
   * GET standard routes run here (a read replica, gateway/readPool.ts) unless the request sends
   * `X-Read-Primary: 1`; absent: on `pool`.
   */
  reads?: ReadRouter;
  /** Rate limits: a default for every route, and where counters live (gateway/http/rateLimit.ts). */
  rateLimit?: RateLimitSettings;
  /** The app's static pages (`<app>/public`, gateway/http/static.ts); absent: none served. */
  publicDir?: string;
}

/** Thrown by buildGateway when custom routes lack handlers; `problems` are one line each. */
export class MissingHandlersError extends Error {
  constructor(readonly problems: string[]) {
    super(`custom routes without handlers:\n  ${problems.join("\n  ")}`);
    this.name = "MissingHandlersError";
  }
}

export function buildGateway({
  schema,
  pool,
  authenticate: appAuthenticate,
  config,
  handlers,
  allowMissingHandlers = false,
  servicePool,
  logStream,
  rateLimit,
  reads,
  publicDir,
}: GatewayDeps): FastifyInstance {
  // Globals checked against the schema's types, refusals logged (gateway/auth/guard.ts).
  const authenticate = guardedAuthenticator(appAuthenticate, schema);
  const model = buildModel(schema);
  const missing = handlers
    ? handlers.problems.map(describeProblem)
    : schema.endpoints.flatMap((g) =>
        g.routes
          .filter((r) => !isStandardRoute(r))
          .map((r) => `${r.method} ${g.baseUrl}${r.path}: no handlers were loaded`),
      );
  if (missing.length > 0 && !allowMissingHandlers) throw new MissingHandlersError(missing);
  const app = Fastify({
    logger:
      config.logLevel === "silent"
        ? false
        : { level: config.logLevel, ...(logStream ? { stream: logStream } : {}) },
    // Each request's logger is made when the request first logs (http/requestLog.ts).
    childLoggerFactory: requestLogger,
    bodyLimit: config.bodyLimit,
    ...serverTimeouts(config),
    // Request ids go to the log and back in a header, so a 500 can be traced (http/requestId.ts).
    requestIdHeader: false,
    genReqId: requestId,
    clientErrorHandler,
    // While closing, requests on open connections are served (with Connection: close) and
    // /ready answers 503 in the envelope (ops/shutdown.ts), not Fastify's own 503 body.
    return503OnClosing: false,
    // Malformed URLs (bad percent-encoding, over-long parameters) fail before routing: answer
    // them in the envelope like everything else.
    frameworkErrors: (error, request, reply) => {
      // Path parameters are ids and short keys: over 100 characters is refused (Fastify's default).
      const message = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? "Path parameter too long" : "Malformed URL";
      (reply as FastifyReply)
        .header("x-request-id", request.id)
        .code(400)
        .send(errorBody("BAD_REQUEST", message));
    },
  });
  // Hooks on every request take a callback rather than return a promise: no promise and
  // microtask per request for a synchronous step.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  registerRateLimits(app, schema, rateLimit);
  unknownRoutes(app);
  jsonBodies(app);
  registerCors(app, config.corsOrigins);
  registerOps(app, { pool, servicePool, ops: config.ops });
  if (config.apiDocs !== false) registerApiDocs(app, model);
  if (publicDir) registerStatic(app, publicDir);
  registerRealtime(app, { schema, pool, authenticate, config: config.realtime });

  // Standard routes as `req.db.call` runs them, by `METHOD /full/path`.
  const callable = new Map<string, CallableRoute>();
  const customs: { route: CustomRoute; group: EndpointGroup }[] = [];
  // `METHOD /url` of upload routes: their bodies are multipart, not JSON (the 415 message says so).
  const uploadRoutes = new Set<string>();
  for (const modelRoute of model.routes) {
    const { route, group } = modelRoute;
    if (!isStandardRoute(route)) {
      customs.push({ route, group });
      if (route.fileUploadType) uploadRoutes.add(modelRoute.key);
      continue;
    }
    const write =
      route.method !== "GET"
        ? {
            columnChecks: compileColumnChecks(route, modelRoute.writes),
            errors: {
              constraints: routeConstraints(model.constraints, modelRoute),
              method: route.method,
              table: route.table,
            },
          }
        : undefined;
    const run = compileStandardRoute(modelRoute, {
      maxPerPage: config.maxPerPage,
      globalParams: schema.globalParams,
      model,
      warn: (details, message) => app.log.warn(details, message),
      ...(config.preparedStatements === false ? { preparedStatements: false } : {}),
      ...(write ? { write } : {}),
    });
    callable.set(modelRoute.key, {
      functionSql: String(ident("api", modelRoute.functionName as string)),
      access: { roles: route.roles, scopes: route.scopes, usesGlobals: modelRoute.globals },
      ...(write ? { errors: write.errors } : {}),
    });
    const replica = route.method === "GET" ? reads : undefined;
    app.route({
      method: route.method,
      url: `${group.baseUrl}${route.path}`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // Set first, so an error answer of a deprecated route carries them too
        // (docs/schema.md "Deprecation").
        reply.headers(run.deprecation);
        const auth = await authenticate(request);
        const db = replica && !wantsPrimary(request.headers) ? replica : pool;
        const out = await run(db, auth, {
          query: request.query as RouteRequest["query"],
          params: request.params as RouteRequest["params"],
          body: request.body,
          headers: request.headers,
        });
        return reply.code(out.status).headers(out.headers).send(out.body);
      },
    });
  }

  // Custom routes, in their own scope: only they parse multipart bodies (a standard route
  // still refuses one as a malformed body).
  if (customs.length > 0) {
    const requestType = requestTypeValidator(schema.customTypes);
    const problems = new Map(
      (handlers?.problems ?? []).map((p) => [
        routeKey(p.route.method, `${p.group.baseUrl}${p.route.path}`),
        p,
      ]),
    );
    const compiled = customs.map(({ route, group }) => {
      const key = routeKey(route.method, `${group.baseUrl}${route.path}`);
      return {
        method: route.method,
        url: `${group.baseUrl}${route.path}`,
        handler: compileCustomRoute(route, group, {
          pool,
          servicePool,
          authenticate,
          globalParams: schema.globalParams,
          maxPerPage: config.maxPerPage,
          requestType,
          handlerTimeoutMs: config.handlerTimeoutMs ?? HANDLER_DEFAULTS.handlerTimeoutMs,
          upload: {
            maxBytes: config.uploadMaxBytes ?? HANDLER_DEFAULTS.uploadMaxBytes,
            maxFiles: config.uploadMaxFiles ?? HANDLER_DEFAULTS.uploadMaxFiles,
            ...(config.uploadTmpDir ? { tmpDir: config.uploadTmpDir } : {}),
          },
          routes: callable,
          preparedStatements: config.preparedStatements !== false,
          method: handlers?.methods.get(key),
          problem: problems.get(key),
        }),
      };
    });
    app.register(async (scope) => {
      await scope.register(multipart, { throwFileSizeLimit: true });
      for (const route of compiled) scope.route(route);
    });
  }

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) {
        // The route's pattern, so a 503 or 504 says which route met the fault.
        const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
        request.log.error({ err: error.cause ?? error, route }, "request failed");
      }
      return reply.code(error.status).send(errorBody(error.code, error.message, error.details));
    }
    const fastifyError = error as { statusCode?: number; code?: string };
    if (fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return reply.code(413).send(errorBody("PAYLOAD_TOO_LARGE", "Request body is too large"));
    }
    if (fastifyError.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      const expected = uploadRoutes.has(`${request.method} ${request.routeOptions.url}`)
        ? "multipart/form-data"
        : "application/json";
      return reply.code(415).send(errorBody("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${expected}`));
    }
    if (fastifyError.statusCode === 400 || fastifyError.statusCode === 415) {
      return reply.code(400).send(errorBody("BAD_REQUEST", "Malformed request body"));
    }
    request.log.error({ err: error }, "unexpected error");
    return reply.code(500).send(errorBody("SERVER_ERROR", "An unexpected error occurred"));
  });
  return app;
}
