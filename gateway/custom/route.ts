// A custom route as the gateway runs it (docs/handlers.md): route check -> uploads (multipart) ->
// validation (parameters, or the whole requestType) -> the handler method with `req`/`res`,
// raced against a timeout -> commit or roll back the handler's transaction -> the answer.

import type { FastifyReply, FastifyRequest } from "fastify";
import type pg from "pg";
import type { CustomRoute, EndpointGroup } from "../../generator/schema/types.ts";
import { type Authenticator, checkRoute, toCtx } from "../auth/context.ts";
import { ApiError, ERRORS, errorBody, invalidValueError } from "../errors.ts";
import { compileRequest, type RequestOptions } from "../request/index.ts";
import { valueTextProblem } from "../request/text.ts";
import { compileCtxJson } from "../routes/ctxJson.ts";
import { deprecationHeaders } from "../routes/deprecation.ts";
import { HandlerAnswer } from "./answer.ts";
import { type CallableRoute, callerSession, serviceDb } from "./db.ts";
import type { HandlerProblem } from "./load.ts";
import type { CallerDb, HandlerMethod, HandlerRequest, ServiceDb } from "./types.ts";
import { readUploads, removeUploads, type UploadLimits } from "./uploads.ts";

export interface CustomRouteOptions {
  pool: pg.Pool;
  servicePool: pg.Pool | undefined;
  authenticate: Authenticator;
  globalParams: string[];
  maxPerPage: number;
  requestType: RequestOptions["requestType"];
  handlerTimeoutMs: number;
  upload: UploadLimits;
  routes: Map<string, CallableRoute>;
  /** `req.db` texts as named prepared statements (PG_PREPARED_STATEMENTS; off for old poolers). */
  preparedStatements: boolean;
  /** The bound handler method; absent when it is missing (allowed): the route answers 501. */
  method: HandlerMethod | undefined;
  problem: HandlerProblem | undefined;
}

export function compileCustomRoute(route: CustomRoute, group: EndpointGroup, options: CustomRouteOptions) {
  const validate = compileRequest(route, {
    maxPerPage: options.maxPerPage,
    ...(options.requestType ? { requestType: options.requestType } : {}),
  });
  const access = { roles: route.roles, scopes: route.scopes, usesGlobals: [] };
  const deprecation = deprecationHeaders(route.deprecation, group.baseUrl);
  const label = `${route.method} ${group.baseUrl}${route.path}`;
  const paged = route.type === "CUSTOM_PAGED";
  // Made once per route (the service connection is the same for every request), frozen so that
  // one request's handler cannot change what the next one gets.
  const service = Object.freeze(withValueErrors(serviceDb(options.servicePool)));
  // `req.db`'s context text, remembered per caller as the standard routes' is.
  const ctxJson = compileCtxJson(options.globalParams);

  async function run(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ status: number; body: unknown }> {
    reply.headers(deprecation);
    const method = options.method;
    if (!method) {
      request.log.error({ route: label, expected: options.problem?.problem }, "custom route has no handler");
      throw new ApiError("NOT_IMPLEMENTED");
    }
    const auth = await options.authenticate(request);
    const denied = checkRoute(access, auth);
    if (denied !== "ok") throw new ApiError(denied.code, denied.message);

    const uploads = route.fileUploadType
      ? await readUploads(request, route.fileUploadType, options.upload)
      : undefined;
    try {
      const input = validate({
        query: request.query as Record<string, string | string[]>,
        params: request.params as Record<string, string>,
        body: uploads ? uploads.fields : request.body,
      });
      if (!input.ok) throw input.error;
      // NUL and lone surrogates (query strings, multipart fields): Postgres cannot store them.
      const textProblem = valueTextProblem(input.params);
      if (textProblem) throw new ApiError("BAD_REQUEST", textProblem);

      const ctx = toCtx(auth, options.globalParams);
      const db = callerSession(options.pool, auth, ctxJson(auth), {
        statementTimeoutMs: options.handlerTimeoutMs,
        routes: options.routes,
        preparedStatements: options.preparedStatements,
      });
      const res = new HandlerAnswer(paged, label, request.log);
      const req: HandlerRequest = {
        data: input.params,
        params: { ...(request.params as Record<string, string>) },
        global: ctx,
        headers: request.headers,
        id: request.id,
        db: withValueErrors(db),
        service,
        log: request.log,
        ...(uploads && route.fileUploadType === "SINGLE" ? { file: uploads.files[0] } : {}),
        ...(uploads && route.fileUploadType === "MULTIPLE" ? { files: uploads.files } : {}),
      };

      const outcome = await HandlerAnswer.run(res, method, req, options.handlerTimeoutMs);

      if (outcome.kind === "timeout") {
        request.log.error(
          { route: label, timeoutMs: options.handlerTimeoutMs },
          "handler did not answer in time",
        );
        db.end(false).catch((error: unknown) => request.log.error({ err: error }, "rollback failed"));
        throw new ApiError("SERVER_ERROR");
      }
      if (outcome.kind === "thrown") {
        await db.end(false).catch(() => {});
        if (outcome.error instanceof ApiError) throw outcome.error;
        const invalid = fromRequestValues.has(outcome.error as object)
          ? invalidValueError(outcome.error)
          : undefined;
        if (invalid) {
          request.log.info({ route: label, err: outcome.error }, "handler SQL refused a request value");
          throw invalid;
        }
        throw new ApiError("SERVER_ERROR", undefined, undefined, { cause: outcome.error });
      }
      if (outcome.kind === "error") {
        await db.end(false).catch(() => {});
        return {
          status: ERRORS[outcome.code].status,
          body: errorBody(outcome.code, outcome.message, outcome.details),
        };
      }
      try {
        await db.end(true);
      } catch (error) {
        throw new ApiError("SERVER_ERROR", undefined, undefined, { cause: error });
      }
      return { status: 200, body: outcome.body };
    } finally {
      // Before the answer goes out, so a client never sees a reply while its files remain.
      if (uploads) await removeUploads(uploads.dir);
    }
  }

  return async function handle(request: FastifyRequest, reply: FastifyReply) {
    const out = await run(request, reply);
    return reply.code(out.status).send(out.body);
  };
}

/**
 * Errors of handler statements that were given values: only these may be the client's fault. A
 * data error (class 22: a date that does not exist, `1.5` cast to bigint) of such a statement
 * answers 400 instead of 500 (errors.ts INVALID_VALUE_SQLSTATES); a statement without values
 * failing is the handler's own bug. The handler still sees the original error, and may catch it.
 */
const fromRequestValues = new WeakSet<object>();

type Query = CallerDb["query"];

function withValueErrors<Db extends CallerDb | ServiceDb>(db: Db): Db {
  return {
    ...db,
    query: marking(db.query.bind(db)),
    ...("queryAlone" in db ? { queryAlone: marking(db.queryAlone.bind(db)) } : {}),
  } as Db;
}

/** `query`, its errors marked as from request values when it was given values. */
function marking(query: Query): Query {
  return async (text: string, values: unknown[] = []) => {
    try {
      return await query(text, values);
    } catch (error) {
      if (values.length > 0 && typeof error === "object" && error !== null) fromRequestValues.add(error);
      throw error;
    }
  };
}
