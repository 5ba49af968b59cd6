// From an authentication result to what the rest of the gateway needs: the route-level
// permission check (docs/authentication.md "Route rules: 401 or 403") and the `ctx` object every
// route function receives (docs/architecture.md "Caller context"). Pure functions.

import { globalNames } from "./claims.ts";
import {
  type AnonymousReason,
  type AuthResult,
  type GlobalValue,
  isAnonymous,
  type UserContext,
} from "./types.ts";

export type {
  Anonymous,
  AnonymousReason,
  Authenticator,
  AuthHeaders,
  AuthRequest,
  AuthResult,
  GlobalValue,
  LoadedAuthenticator,
  UserContext,
} from "./types.ts";
export { AuthHandlerError, isAnonymous } from "./types.ts";

/** `{"role": ..., "scopes": [...], "<globalParam>": value, ...}`: the route functions' `ctx`. */
export type Ctx = { role: string | null; scopes: string[] } & Record<string, GlobalValue | string[]>;

export function toCtx(result: AuthResult, globalParams: readonly string[]): Ctx {
  if (isAnonymous(result)) return { role: null, scopes: [] };
  const { role, scopes, globals } = result.user;
  const entries: [string, GlobalValue | string[]][] = [
    ["role", role],
    ["scopes", [...scopes]],
  ];
  for (const name of globalNames(globalParams)) {
    if (Object.hasOwn(globals, name)) entries.push([name, globals[name] as GlobalValue]);
  }
  return Object.fromEntries(entries) as Ctx;
}

/** A route's access requirements; `usesGlobals` are the `#global` names it uses, without `#`. */
export interface RouteAccess {
  roles: readonly string[];
  scopes: readonly string[];
  usesGlobals: readonly string[];
}

export interface RouteDenial {
  status: 401 | 403;
  code: "UNAUTHORIZED" | "FORBIDDEN";
  message: string;
}

/** The 401 message for each way of being anonymous: enough for a client to know to refresh. */
export const ANONYMOUS_MESSAGES = {
  missing: "Authentication required",
  invalid: "Invalid credentials",
  expired: "Token expired",
  not_yet_valid: "Token not yet valid",
} as const satisfies Record<AnonymousReason, string>;

export const FORBIDDEN_MESSAGE = "Insufficient permissions";

export function isPublicRoute(route: Pick<RouteAccess, "roles" | "scopes">): boolean {
  return route.roles.length === 0 && route.scopes.length === 0;
}

/**
 * The route check, in order:
 * 1. anonymous caller: ok on a public route that uses no `#global`; else 401 (message by reason);
 * 2. `roles` non-empty and the caller's role not among them: 403;
 * 3. a scope of `scopes` the caller lacks: 403;
 * 4. a used `#global` the caller's credentials do not carry (absent or null): 401.
 */
export function checkRoute(route: RouteAccess, result: AuthResult): "ok" | RouteDenial {
  if (isAnonymous(result)) {
    if (isPublicRoute(route) && route.usesGlobals.length === 0) return "ok";
    return { status: 401, code: "UNAUTHORIZED", message: ANONYMOUS_MESSAGES[result.reason] };
  }
  const { user } = result;
  if (route.roles.length > 0 && (user.role === null || !route.roles.includes(user.role))) return forbidden();
  if (!route.scopes.every((scope) => user.scopes.includes(scope))) return forbidden();
  const missing = route.usesGlobals.find((name) => globalOf(user, name) == null);
  if (missing !== undefined) {
    return {
      status: 401,
      code: "UNAUTHORIZED",
      message: `Your credentials do not carry "${missing}", which this route needs`,
    };
  }
  return "ok";
}

function globalOf(user: UserContext, name: string): GlobalValue | string[] | undefined {
  if (name === "role") return user.role;
  if (name === "scopes") return user.scopes;
  return Object.hasOwn(user.globals, name) ? user.globals[name] : undefined;
}

function forbidden(): RouteDenial {
  return { status: 403, code: "FORBIDDEN", message: FORBIDDEN_MESSAGE };
}

/**
 * The table and column rule (docs/permissions.md, rows "table" and "column"): `roles` non-empty,
 * the caller's role must be one of them; else `scopes` non-empty, the caller must hold them all;
 * else anyone, anonymous callers too.
 */
export function allowedFor(
  access: { roles: readonly string[]; scopes: readonly string[] },
  result: AuthResult,
): boolean {
  const user = isAnonymous(result) ? undefined : result.user;
  if (access.roles.length > 0) return user?.role != null && access.roles.includes(user.role);
  if (access.scopes.length > 0)
    return user !== undefined && access.scopes.every((s) => user.scopes.includes(s));
  return true;
}
