// The authenticator as the gateway runs it: the app's handler (built-in JWT or src/auth.ts), then
// the caller's globals against the schema's types (globalTypes.ts), and every refusal written to
// the log with the request id: why a token was refused (expired, bad signature, wrong algorithm,
// malformed, a custom handler's thrown message) is for the operator; the client gets only the
// 401 message of its reason (docs/authentication.md).

import type { Schema } from "../../generator/schema/types.ts";
import { globalTypeChecker } from "./globalTypes.ts";
import { perCaller } from "./perCaller.ts";
import {
  type Anonymous,
  type Authenticator,
  type AuthRequest,
  type AuthResult,
  isAnonymous,
} from "./types.ts";

interface RequestLog {
  info(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
}

export function guardedAuthenticator(authenticate: Authenticator, schema: Schema): Authenticator {
  const checker = globalTypeChecker(schema);
  const typeProblem = perCaller((user) => checker(user.globals));
  const checked = (request: AuthRequest, result: AuthResult): AuthResult => {
    if (isAnonymous(result)) {
      logRefusal(request, result);
      return result;
    }
    const problem = typeProblem(result.user);
    if (problem === undefined) return result;
    const refused: Anonymous = { anonymous: true, reason: "invalid", detail: problem };
    logRefusal(request, refused);
    return refused;
  };
  // The built-in handler answers synchronously: then so does this, with no promise of its own.
  return (request) => {
    const result = authenticate(request);
    return result instanceof Promise ? result.then((r) => checked(request, r)) : checked(request, result);
  };
}

/**
 * No credentials at all is ordinary (public routes), not logged. An expired token is routine
 * (clients refresh): info. Anything else may be an attack or a misconfigured issuer: warn.
 */
function logRefusal(request: AuthRequest, result: Anonymous): void {
  if (result.reason === "missing") return;
  const log = (request as AuthRequest & { log?: RequestLog }).log;
  if (!log) return;
  const entry = { auth: { reason: result.reason, detail: result.detail ?? "" } };
  if (result.reason === "invalid") log.warn(entry, "credentials refused");
  else log.info(entry, "credentials refused");
}
