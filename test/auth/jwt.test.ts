// The built-in JWT handler: what it accepts, and every way a token is refused.

import { createSecretKey } from "node:crypto";
import jwt from "jsonwebtoken";
import t from "tap";
import type { AuthConfig } from "../../gateway/auth/config.ts";
import { bearerToken, createJwtAuthenticator } from "../../gateway/auth/jwt.ts";
import type { AuthHeaders, AuthResult } from "../../gateway/auth/types.ts";
import {
  bearer,
  claims,
  es256,
  esConfig,
  forge,
  hs256,
  hsConfig,
  NOW,
  now,
  otherRsa,
  rs256,
  rsa,
  rsConfig,
  SECRET,
} from "./fixtures/keys.ts";

const GLOBALS = ["userId", "companyId", "email", "isStaff"];

function auth(config: AuthConfig, headers: AuthHeaders, globalParams = GLOBALS): AuthResult {
  return createJwtAuthenticator(config, globalParams, { now })(headers);
}

const user = (
  extra: Partial<{ role: string | null; scopes: string[]; globals: Record<string, unknown> }> = {},
) => ({
  user: { role: null, scopes: [], globals: {}, ...extra },
});

t.test("valid tokens for each algorithm", async (t) => {
  const payload = claims({ role: "admin", scopes: ["a"], userId: 7 });
  const expected = user({ role: "admin", scopes: ["a"], globals: { userId: 7 } });
  t.same(auth(hsConfig(), bearer(hs256(payload))), expected, "HS256");
  t.same(auth(rsConfig(), bearer(rs256(payload))), expected, "RS256");
  t.same(auth(esConfig(), bearer(es256(payload))), expected, "ES256");
  t.same(auth(hsConfig(), bearer(hs256())), user(), "no role, no scopes");
});

t.test("the wrong key is refused", async (t) => {
  t.match(auth(hsConfig(), bearer(hs256(claims(), `${SECRET}x`))), {
    anonymous: true,
    reason: "invalid",
    detail: "invalid signature",
  });
  t.match(auth(rsConfig(), bearer(rs256(claims(), otherRsa.privateKey))), {
    reason: "invalid",
    detail: "invalid signature",
  });
  // A token altered after signing.
  const [h, , s] = hs256(claims({ role: "member" })).split(".");
  const altered = `${h}.${Buffer.from(JSON.stringify(claims({ role: "admin" }))).toString("base64url")}.${s}`;
  t.match(auth(hsConfig(), bearer(altered)), { reason: "invalid", detail: "invalid signature" });
});

t.test("alg none is always refused", async (t) => {
  for (const alg of ["none", "None", "NONE"]) {
    const unsigned = forge({ alg, typ: "JWT" }, claims({ role: "admin" }));
    t.match(
      auth(hsConfig(), bearer(unsigned)),
      { anonymous: true, reason: "invalid" },
      `${alg} against HS256`,
    );
    t.match(
      auth(rsConfig(), bearer(unsigned)),
      { anonymous: true, reason: "invalid" },
      `${alg} against RS256`,
    );
    // Even carrying some signature bytes.
    t.match(auth(hsConfig(), bearer(forge({ alg }, claims(), SECRET))), {
      anonymous: true,
      reason: "invalid",
    });
  }
  t.match(
    bearerToken(bearer(forge({ alg: "none" }, claims()))),
    { token: /\.$/ },
    "`a.b.` passes as a bearer token",
  );
});

t.test("algorithm switching: the token's alg header never chooses", async (t) => {
  // The classic key confusion: HS256 with the RSA *public* key (which is public) as the HMAC secret.
  const forged = forge({ alg: "HS256", typ: "JWT" }, claims({ role: "admin" }), rsa.publicPem);
  t.ok(
    jwt.verify(forged, createSecretKey(Buffer.from(rsa.publicPem)), { algorithms: ["HS256"] }),
    "the forged token is a correct HMAC under the PEM text",
  );
  t.match(auth(rsConfig(), bearer(forged)), {
    anonymous: true,
    reason: "invalid",
    detail: "invalid algorithm",
  });
  t.match(auth(rsConfig(), bearer(hs256(claims({ role: "admin" }), rsa.publicPem))), {
    anonymous: true,
    reason: "invalid",
  });
  // And the other way: asymmetric tokens against an HS256 configuration, EC against RSA.
  t.match(auth(hsConfig(), bearer(rs256())), { reason: "invalid", detail: "invalid algorithm" });
  t.match(auth(hsConfig(), bearer(es256())), { reason: "invalid", detail: "invalid algorithm" });
  t.match(auth(rsConfig(), bearer(es256())), { reason: "invalid", detail: "invalid algorithm" });
  t.match(auth(esConfig(), bearer(rs256())), { reason: "invalid", detail: "invalid algorithm" });
  // Other HMAC strengths with the right secret: still not the configured algorithm.
  const hs512 = jwt.sign(claims(), SECRET, { algorithm: "HS512", noTimestamp: true });
  t.match(auth(hsConfig(), bearer(hs512)), { reason: "invalid", detail: "invalid algorithm" });
});

t.test("exp: required and checked; nbf checked; clock tolerance", async (t) => {
  t.match(auth(hsConfig(), bearer(hs256({ iat: NOW, exp: NOW - 1 }))), {
    anonymous: true,
    reason: "expired",
    detail: "jwt expired",
  });
  t.match(auth(hsConfig(), bearer(hs256({ exp: NOW }))), { reason: "expired" }, "exp is exclusive");
  t.match(auth(hsConfig(), bearer(hs256({ exp: NOW + 1 }))), { user: {} });
  t.match(auth(hsConfig(), bearer(hs256({ iat: NOW, role: "admin" }))), {
    anonymous: true,
    reason: "invalid",
    detail: "the token has no exp (expiry) claim",
  });
  t.match(auth(hsConfig(), bearer(forge({ alg: "HS256" }, { exp: "tomorrow" }, SECRET))), {
    reason: "invalid",
    detail: "invalid exp value",
  });
  t.match(auth(hsConfig(), bearer(hs256(claims({ nbf: NOW + 10 })))), {
    anonymous: true,
    reason: "not_yet_valid",
    detail: "jwt not active",
  });
  t.match(auth(hsConfig(), bearer(hs256(claims({ nbf: NOW })))), { user: {} });
  t.match(auth(hsConfig(), bearer(forge({ alg: "HS256" }, claims({ nbf: "now" }), SECRET))), {
    reason: "invalid",
    detail: "invalid nbf value",
  });

  const tolerant = hsConfig({ JWT_CLOCK_TOLERANCE: "30" });
  t.match(auth(tolerant, bearer(hs256({ exp: NOW - 29 }))), { user: {} }, "expired 29 s ago, within 30 s");
  t.match(auth(tolerant, bearer(hs256({ exp: NOW - 30 }))), { reason: "expired" });
  t.match(
    auth(tolerant, bearer(hs256(claims({ nbf: NOW + 30 })))),
    { user: {} },
    "valid in 30 s, within 30 s",
  );
  t.match(auth(tolerant, bearer(hs256(claims({ nbf: NOW + 31 })))), { reason: "not_yet_valid" });
});

t.test("the real clock is used when none is injected", async (t) => {
  const authenticate = createJwtAuthenticator(hsConfig(), []);
  const seconds = Math.floor(Date.now() / 1000);
  t.match(authenticate(bearer(hs256({ exp: seconds + 60 }))), { user: {} });
  t.match(authenticate(bearer(hs256({ exp: seconds - 60 }))), { reason: "expired" });
});

t.test("issuer and audience, when configured", async (t) => {
  const config = hsConfig({ JWT_ISSUER: "https://id.example.com", JWT_AUDIENCE: "api,admin-api" });
  const ok = claims({ iss: "https://id.example.com", aud: "api" });
  t.match(auth(config, bearer(hs256(ok))), { user: {} });
  t.match(
    auth(config, bearer(hs256({ ...ok, aud: ["other", "admin-api"] }))),
    { user: {} },
    "aud list: one match",
  );
  t.match(auth(config, bearer(hs256({ ...ok, iss: "https://evil.example.com" }))), {
    reason: "invalid",
    detail: /jwt issuer invalid/,
  });
  t.match(auth(config, bearer(hs256({ ...ok, iss: undefined }))), {
    reason: "invalid",
    detail: /jwt issuer invalid/,
  });
  t.match(auth(config, bearer(hs256({ ...ok, aud: "other" }))), {
    reason: "invalid",
    detail: /jwt audience invalid/,
  });
  t.match(auth(config, bearer(hs256({ ...ok, aud: undefined }))), {
    reason: "invalid",
    detail: /jwt audience invalid/,
  });
  // Not configured: not checked.
  t.match(auth(hsConfig(), bearer(hs256(claims({ iss: "anyone", aud: "anything" })))), { user: {} });
});

t.test("the Authorization header: exactly one `Bearer <token>`", async (t) => {
  const token = hs256(claims({ role: "admin" }));
  const admin = user({ role: "admin" });
  const config = hsConfig();
  t.same(auth(config, {}), { anonymous: true, reason: "missing" });
  t.same(auth(config, { authorization: undefined }), { anonymous: true, reason: "missing" });
  t.same(auth(config, { authorization: [] }), { anonymous: true, reason: "missing" });
  t.same(auth(config, { authorization: `Bearer ${token}` }), admin);
  t.same(auth(config, { authorization: `bearer ${token}` }), admin, "scheme is case-insensitive");
  t.same(auth(config, { authorization: `BEARER   ${token}` }), admin, "several spaces");
  t.same(auth(config, { Authorization: `Bearer ${token}` }), admin, "header name is case-insensitive");
  t.same(auth(config, { authorization: [`Bearer ${token}`] }), admin, "one header as an array");

  const invalidForms: [string, AuthHeaders][] = [
    ["empty", { authorization: "" }],
    ["scheme only", { authorization: "Bearer" }],
    ["scheme and space", { authorization: "Bearer " }],
    ["two tokens", { authorization: `Bearer ${token} ${token}` }],
    ["a b", { authorization: "Bearer a b" }],
    ["Basic", { authorization: "Basic dXNlcjpwYXNz" }],
    ["no scheme", { authorization: token }],
    ["Token scheme", { authorization: `Token ${token}` }],
    ["comma-joined repeat", { authorization: `Bearer ${token}, Bearer ${token}` }],
    ["two headers", { authorization: [`Bearer ${token}`, `Bearer ${token}`] }],
    ["two header names", { authorization: `Bearer ${token}`, Authorization: `Bearer ${token}` }],
    ["not a JWT", { authorization: "Bearer abc" }],
    ["undefined", { authorization: "Bearer undefined" }],
    ["four parts", { authorization: `Bearer ${token}.x` }],
  ];
  for (const [name, headers] of invalidForms) {
    t.match(auth(config, headers), { anonymous: true, reason: "invalid" }, name);
  }
  t.same(auth(config, { authorization: "Basic x" }), {
    anonymous: true,
    reason: "invalid",
    detail: "the Authorization header is not `Bearer <token>`",
  });
  t.same(auth(config, { authorization: ["Bearer a", "Bearer b"] }), {
    anonymous: true,
    reason: "invalid",
    detail: "2 Authorization headers",
  });
});

t.test("payloads that are not JSON objects", async (t) => {
  for (const payload of ["just text", 42, null, [1, 2]]) {
    const token = forge({ alg: "HS256", typ: "JWT" }, payload, SECRET);
    t.match(auth(hsConfig(), bearer(token)), { anonymous: true, reason: "invalid" }, JSON.stringify(payload));
  }
});

t.test("scopes: an array, a space-separated scope string, or both", async (t) => {
  const scopesOf = (extra: Record<string, unknown>) => auth(hsConfig(), bearer(hs256(claims(extra))));
  t.same(
    scopesOf({ scopes: ["billing:read", "tasks:write"] }),
    user({ scopes: ["billing:read", "tasks:write"] }),
  );
  t.same(
    scopesOf({ scope: "billing:read  tasks:write " }),
    user({ scopes: ["billing:read", "tasks:write"] }),
  );
  t.same(scopesOf({ scope: "" }), user());
  t.same(scopesOf({ scopes: [] }), user());
  t.same(
    scopesOf({ scopes: ["a", "b"], scope: "b c" }),
    user({ scopes: ["a", "b", "c"] }),
    "merged, without repeats",
  );
});

t.test("claims of the wrong type make the token invalid", async (t) => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["role number", { role: 1 }, 'claim "role" must be a string or null, got a number'],
    ["role array", { role: ["admin"] }, 'claim "role" must be a string or null, got an array'],
    ["role empty", { role: "" }, 'claim "role" must not be an empty string (use null for no role)'],
    ["scopes string", { scopes: "a b" }, 'claim "scopes" must be an array of strings, got a string'],
    ["scopes object", { scopes: { a: true } }, 'claim "scopes" must be an array of strings, got an object'],
    ["scopes numbers", { scopes: ["a", 2] }, 'claim "scopes" must be an array of strings, holding a number'],
    ["scopes with space", { scopes: ["a b"] }, 'claim "scopes" holds "a b": a scope is one word'],
    ["scopes empty entry", { scopes: [""] }, 'claim "scopes" holds "": a scope is one word'],
    ["scope array", { scope: ["a"] }, 'claim "scope" must be a space-separated string, got an array'],
    [
      "global object",
      { companyId: { id: 1 } },
      'claim "companyId" must be a string, number, boolean or null, got an object',
    ],
    [
      "global array",
      { userId: [1, 2] },
      'claim "userId" must be a string, number, boolean or null, got an array',
    ],
    [
      "global beyond 2^53",
      { userId: 2 ** 53 + 2 },
      'claim "userId" is an integer too large to be exact in JSON (beyond 2^53): send it as a string',
    ],
  ];
  for (const [name, extra, detail] of cases) {
    t.same(
      auth(hsConfig(), bearer(hs256(claims(extra)))),
      { anonymous: true, reason: "invalid", detail },
      name,
    );
  }
  t.same(auth(hsConfig(), bearer(hs256(claims({ role: null })))), user(), "role null: no role");
  // Undeclared claims are not read at all, so their type does not matter.
  t.same(auth(hsConfig(), bearer(hs256(claims({ profile: { a: 1 }, tags: [1] })))), user());
});

t.test("globals: only the schema's globalParams, scalars as they are", async (t) => {
  const token = hs256(
    claims({
      sub: "42",
      userId: 42,
      companyId: "c-1",
      email: null,
      isStaff: false,
      name: "Ada",
      role: "member",
    }),
  );
  t.same(
    auth(hsConfig(), bearer(token)),
    user({ role: "member", globals: { userId: 42, companyId: "c-1", email: null, isStaff: false } }),
    "undeclared claims (sub, name, iat, exp) left out",
  );
  t.same(
    auth(hsConfig(), bearer(token), []),
    user({ role: "member" }),
    "no globalParams: only role and scopes",
  );
  t.same(
    auth(hsConfig(), bearer(token), ["role", "scopes", "scope", "sub", "sub"]),
    user({ role: "member", globals: { sub: "42" } }),
    "role/scopes listed as globalParams stay out of globals",
  );
  t.same(
    auth(hsConfig(), bearer(hs256(claims({ userId: 1.5, companyId: -3 })))),
    user({ globals: { userId: 1.5, companyId: -3 } }),
  );
  const proto = forge({ alg: "HS256" }, JSON.parse(`{"exp": ${NOW + 60}, "__proto__": "x"}`), SECRET);
  const result = auth(hsConfig(), bearer(proto), ["__proto__"]);
  t.ok("user" in result && Object.hasOwn(result.user.globals, "__proto__"), "__proto__ stays plain data");
  t.equal(Object.getPrototypeOf("user" in result ? result.user.globals : null), Object.prototype);
});

t.test("no key configured: every token is rejected", async (t) => {
  const none: AuthConfig = { mode: "none", warning: "w" };
  t.same(auth(none, {}), { anonymous: true, reason: "missing" });
  t.same(auth(none, bearer(hs256())), {
    anonymous: true,
    reason: "invalid",
    detail: "no JWT key is configured (JWT_SECRET or JWT_PUBLIC_KEY)",
  });
  t.match(auth(none, bearer(forge({ alg: "none" }, claims()))), { anonymous: true, reason: "invalid" });
  t.match(auth(none, { authorization: "Basic x" }), { anonymous: true, reason: "invalid" });
});
