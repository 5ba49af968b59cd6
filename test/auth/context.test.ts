// The route check (docs/authentication.md "Route rules: 401 or 403") and the ctx object route
// functions receive.

import t from "tap";
import {
  ANONYMOUS_MESSAGES,
  checkRoute,
  isPublicRoute,
  type RouteAccess,
  type RouteDenial,
  toCtx,
} from "../../gateway/auth/context.ts";
import type { AnonymousReason, AuthResult, UserContext } from "../../gateway/auth/types.ts";

const anonymous = (reason: AnonymousReason = "missing"): AuthResult => ({ anonymous: true, reason });
const as = (user: Partial<UserContext>): AuthResult => ({
  user: { role: null, scopes: [], globals: {}, ...user },
});
const route = (access: Partial<RouteAccess> = {}): RouteAccess => ({
  roles: [],
  scopes: [],
  usesGlobals: [],
  ...access,
});

const UNAUTHORIZED: RouteDenial = { status: 401, code: "UNAUTHORIZED", message: "Authentication required" };
const FORBIDDEN: RouteDenial = { status: 403, code: "FORBIDDEN", message: "Insufficient permissions" };

t.test("toCtx: anonymous and authenticated callers", async (t) => {
  t.same(toCtx(anonymous(), ["userId"]), { role: null, scopes: [] });
  t.same(toCtx(anonymous("expired"), ["userId"]), { role: null, scopes: [] });
  const result = as({
    role: "admin",
    scopes: ["a", "b"],
    globals: { userId: 5, companyId: "c-1", flag: false },
  });
  const ctx = toCtx(result, ["companyId", "userId", "flag", "email"]);
  t.same(ctx, { role: "admin", scopes: ["a", "b"], companyId: "c-1", userId: 5, flag: false });
  t.same(
    Object.keys(ctx),
    ["role", "scopes", "companyId", "userId", "flag"],
    "role, scopes, then globalParams order",
  );
  t.equal(
    JSON.stringify(toCtx(result, ["userId"])),
    '{"role":"admin","scopes":["a","b"],"userId":5}',
    "only declared globals; what the database receives",
  );
  t.same(toCtx(as({ globals: { email: null } }), ["email"]), { role: null, scopes: [], email: null });
  // A global can never overwrite role or scopes.
  t.same(toCtx(as({ role: "member", globals: { role: "admin" } as never }), ["role", "scopes"]), {
    role: "member",
    scopes: [],
  });
  const scopes = ["a"];
  const copy = toCtx(as({ scopes }), []);
  (copy.scopes as string[]).push("b");
  t.same(scopes, ["a"], "ctx does not share the caller's arrays");
});

t.test("public routes", async (t) => {
  t.ok(isPublicRoute(route()));
  t.notOk(isPublicRoute(route({ roles: ["admin"] })));
  t.notOk(isPublicRoute(route({ scopes: ["a"] })));
  t.equal(checkRoute(route(), anonymous()), "ok");
  t.equal(checkRoute(route(), anonymous("invalid")), "ok", "a bad token on a public route is just anonymous");
  t.equal(checkRoute(route(), as({})), "ok");
  t.equal(checkRoute(route(), as({ role: "admin", scopes: ["x"] })), "ok");
});

t.test("a public route that uses a #global needs a caller that carries it", async (t) => {
  const mine = route({ usesGlobals: ["userId"] });
  t.same(checkRoute(mine, anonymous()), UNAUTHORIZED);
  t.same(checkRoute(mine, anonymous("expired")), { ...UNAUTHORIZED, message: "Token expired" });
  t.equal(checkRoute(mine, as({ globals: { userId: 1 } })), "ok");
  t.equal(checkRoute(mine, as({ globals: { userId: 0 } })), "ok", "falsy values are values");
  t.equal(checkRoute(mine, as({ globals: { userId: "" } })), "ok");
  t.equal(checkRoute(mine, as({ globals: { userId: false } })), "ok");
  const missing = {
    status: 401,
    code: "UNAUTHORIZED",
    message: 'Your credentials do not carry "userId", which this route needs',
  };
  t.same(checkRoute(mine, as({ globals: {} })), missing, "authenticated, claim absent");
  t.same(checkRoute(mine, as({ globals: { userId: null } })), missing, "authenticated, claim null");
  t.same(checkRoute(mine, as({ globals: { companyId: 1 } })), missing, "another global does not count");
  const both = route({ usesGlobals: ["companyId", "userId"] });
  t.same(checkRoute(both, as({ globals: { userId: 1 } })), {
    ...missing,
    message: 'Your credentials do not carry "companyId", which this route needs',
  });
  t.equal(checkRoute(both, as({ globals: { userId: 1, companyId: 2 } })), "ok");
  // #role reads the role; #scopes is always there for a user.
  t.same(checkRoute(route({ usesGlobals: ["role"] }), as({})), {
    ...missing,
    message: 'Your credentials do not carry "role", which this route needs',
  });
  t.equal(checkRoute(route({ usesGlobals: ["role"] }), as({ role: "member" })), "ok");
  t.equal(checkRoute(route({ usesGlobals: ["scopes"] }), as({})), "ok");
});

t.test("anonymous callers on non-public routes: 401, message by reason", async (t) => {
  for (const access of [
    route({ roles: ["admin"] }),
    route({ scopes: ["a"] }),
    route({ roles: ["admin"], scopes: ["a"] }),
  ]) {
    for (const reason of ["missing", "invalid", "expired", "not_yet_valid"] as const) {
      t.same(checkRoute(access, anonymous(reason)), {
        status: 401,
        code: "UNAUTHORIZED",
        message: ANONYMOUS_MESSAGES[reason],
      });
    }
  }
  t.same(ANONYMOUS_MESSAGES, {
    missing: "Authentication required",
    invalid: "Invalid credentials",
    expired: "Token expired",
    not_yet_valid: "Token not yet valid",
  });
});

t.test("role lists: any one role", async (t) => {
  const staff = route({ roles: ["admin", "manager"] });
  t.equal(checkRoute(staff, as({ role: "admin" })), "ok");
  t.equal(checkRoute(staff, as({ role: "manager" })), "ok");
  t.same(checkRoute(staff, as({ role: "member" })), FORBIDDEN);
  t.same(checkRoute(staff, as({ role: null })), FORBIDDEN, "no role");
  t.same(checkRoute(staff, as({ role: "Admin" })), FORBIDDEN, "roles are case-sensitive");
  t.same(checkRoute(staff, as({ role: "member", scopes: ["admin"] })), FORBIDDEN, "a scope is not a role");
});

t.test("scope lists: every scope", async (t) => {
  const billing = route({ scopes: ["billing:read", "billing:write"] });
  t.equal(checkRoute(billing, as({ scopes: ["billing:read", "billing:write"] })), "ok");
  t.equal(
    checkRoute(billing, as({ scopes: ["x", "billing:write", "billing:read"] })),
    "ok",
    "order and extras",
  );
  t.same(checkRoute(billing, as({ scopes: ["billing:read"] })), FORBIDDEN, "one of two");
  t.same(checkRoute(billing, as({ scopes: [] })), FORBIDDEN);
  t.same(checkRoute(billing, as({ role: "admin" })), FORBIDDEN, "a role does not stand in for scopes");
});

t.test("roles and scopes together: both must hold", async (t) => {
  const access = route({ roles: ["admin"], scopes: ["billing:read"] });
  t.equal(checkRoute(access, as({ role: "admin", scopes: ["billing:read"] })), "ok");
  t.same(checkRoute(access, as({ role: "admin" })), FORBIDDEN);
  t.same(checkRoute(access, as({ role: "member", scopes: ["billing:read"] })), FORBIDDEN);
});

t.test("permissions are checked before globals", async (t) => {
  const access = route({ roles: ["admin"], usesGlobals: ["companyId"] });
  t.same(checkRoute(access, as({ role: "member" })), FORBIDDEN);
  t.match(checkRoute(access, as({ role: "admin" })), { status: 401, code: "UNAUTHORIZED" });
  t.equal(checkRoute(access, as({ role: "admin", globals: { companyId: 3 } })), "ok");
  t.same(checkRoute(access, anonymous()), UNAUTHORIZED);
});
