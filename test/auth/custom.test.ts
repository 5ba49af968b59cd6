// The custom handler (an app's src/auth.ts) and the choice between it and the built-in one.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t, { type Test } from "tap";
import { AppError } from "../../app/errors.ts";
import { NO_AUTH_WARNING } from "../../gateway/auth/config.ts";
import { builtInAuthenticator, customAuthenticator, loadAuthenticator } from "../../gateway/auth/custom.ts";
import { AuthHandlerError, type AuthRequest } from "../../gateway/auth/types.ts";
import { bearer, claims, hs256, hsConfig, now, SECRET } from "./fixtures/keys.ts";

const GLOBALS = ["userId", "companyId", "seen"];
const request = (headers: AuthRequest["headers"] = {}): AuthRequest => ({
  headers,
  method: "GET",
  url: "/api/v1/x?y=1",
});

/** An application directory holding `src/auth.ts` (and package.json, for an ES module app). */
function appWithAuth(t: Test, source: string | undefined, esm = true): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-auth-app-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  if (esm) fs.writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  if (source !== undefined) {
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(path.join(dir, "src", "auth.ts"), source);
  }
  return dir;
}

const API_KEY_HANDLER = `
interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
}

export default async function authenticate(request: AuthRequest) {
  const key = request.headers["x-api-key"];
  if (key === "expired") {
    const error = new Error("jwt expired");
    error.name = "TokenExpiredError";
    throw error;
  }
  if (key !== "k-1") throw new Error("unknown API key");
  return {
    role: "admin",
    scopes: ["billing:read"],
    userId: 1,
    companyId: "c-1",
    seen: request.method + " " + request.url,
    profile: { undeclared: "ignored" },
  };
}
`;

async function loadFailure(dir: string): Promise<string> {
  try {
    await loadAuthenticator(dir, { globalParams: GLOBALS }, {});
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.message;
  }
  throw new Error("expected loadAuthenticator to throw");
}

for (const esm of [true, false]) {
  t.test(`src/auth.ts in ${esm ? "an ES module" : "a CommonJS"} app: returns a user or throws`, async (t) => {
    const dir = appWithAuth(t, API_KEY_HANDLER, esm);
    const authenticate = await loadAuthenticator(dir, { globalParams: GLOBALS }, {});
    t.equal(authenticate.kind, "custom");
    t.equal(authenticate.summary, "authentication: custom handler src/auth.ts");
    t.equal(authenticate.warning, undefined);
    t.same(await authenticate(request({ "x-api-key": "k-1" })), {
      user: {
        role: "admin",
        scopes: ["billing:read"],
        globals: { userId: 1, companyId: "c-1", seen: "GET /api/v1/x?y=1" },
      },
    });
    t.same(await authenticate(request()), {
      anonymous: true,
      reason: "invalid",
      detail: "src/auth.ts threw: unknown API key",
    });
    t.same(await authenticate(request({ "x-api-key": "expired" })), {
      anonymous: true,
      reason: "expired",
      detail: "src/auth.ts threw: jwt expired",
    });
  });
}

t.test("src/auth.ts that is not a handler stops start-up", async (t) => {
  const named = appWithAuth(t, "export const authenticate = () => ({});\n");
  t.equal(
    await loadFailure(named),
    `${path.join(named, "src", "auth.ts")} must default-export the authentication handler: ` +
      "export default async function (request) { ... }",
    "no default export",
  );
  t.match(
    await loadFailure(appWithAuth(t, "export default { role: 'admin' };\n")),
    /src\/auth\.ts must default-export the authentication handler/,
    "a default export that is not a function",
  );
  const broken = appWithAuth(t, "export default async function (request {\n");
  t.match(
    await loadFailure(broken),
    new RegExp(`^cannot load ${path.join(broken, "src", "auth.ts")}: `),
    "syntax error",
  );
  t.match(
    await loadFailure(appWithAuth(t, "throw new Error('boom at import');\nexport default () => ({});\n")),
    /^cannot load .*src\/auth\.ts: boom at import$/,
    "throws while loading",
  );
});

t.test("without src/auth.ts: the built-in JWT handler, configured from env", async (t) => {
  const dir = appWithAuth(t, undefined);
  const jwtAuth = await loadAuthenticator(dir, { globalParams: GLOBALS }, { JWT_SECRET: SECRET });
  t.equal(jwtAuth.kind, "jwt");
  t.equal(jwtAuth.summary, "authentication: JWT HS256 (JWT_SECRET)");
  t.equal(jwtAuth.warning, undefined);
  const seconds = Math.floor(Date.now() / 1000);
  t.same(await jwtAuth(request(bearer(hs256({ exp: seconds + 60, role: "member", userId: 9 })))), {
    user: { role: "member", scopes: [], globals: { userId: 9 } },
  });
  t.same(await jwtAuth(request()), { anonymous: true, reason: "missing" });

  const none = await loadAuthenticator(dir, { globalParams: GLOBALS }, {});
  t.equal(none.kind, "none");
  t.equal(none.warning, NO_AUTH_WARNING);
  t.match(await none(request(bearer(hs256({ exp: seconds + 60 })))), { anonymous: true, reason: "invalid" });

  // Settings errors surface here, and a relative JWT_PUBLIC_KEY is read from the app directory.
  const short = await loadAuthenticator(dir, { globalParams: [] }, { JWT_SECRET: "short" }).catch(
    (e: unknown) => e,
  );
  t.type(short, AppError);
  t.match(short, { message: /^JWT_SECRET is 5 bytes long;/ });
  await t.rejects(
    loadAuthenticator(dir, { globalParams: [] }, { JWT_PUBLIC_KEY: "jwt.pem" }),
    /JWT_PUBLIC_KEY is neither PEM text .*\(got "jwt\.pem": ENOENT\)/,
  );
});

t.test("with src/auth.ts, JWT_* settings are not read", async (t) => {
  const dir = appWithAuth(t, API_KEY_HANDLER);
  const authenticate = await loadAuthenticator(dir, { globalParams: GLOBALS }, { JWT_SECRET: "short" });
  t.equal(authenticate.kind, "custom");
});

t.test("the built-in handler reads repeated Authorization headers from rawHeaders", async (t) => {
  const authenticate = builtInAuthenticator(hsConfig(), [], { now });
  const token = hs256(claims({ role: "admin" }));
  const raw = (...rawHeaders: string[]) => ({ ...request(bearer(token)), raw: { rawHeaders } });
  const admin = { user: { role: "admin", scopes: [], globals: {} } };
  t.same(await authenticate(raw("Host", "x", "Authorization", `Bearer ${token}`)), admin);
  // Node keeps only the first Authorization in `headers`; rawHeaders has both, in any case.
  t.same(await authenticate(raw("authorization", `Bearer ${token}`, "AUTHORIZATION", "Bearer other")), {
    anonymous: true,
    reason: "invalid",
    detail: "2 Authorization headers",
  });
  // rawHeaders is what was sent: no Authorization there is none, whatever `headers` holds.
  t.same(await authenticate(raw("Host", "x")), { anonymous: true, reason: "missing" });
  t.same(await authenticate(raw("Authorisation", `Bearer ${token}`)), { anonymous: true, reason: "missing" });
  // Without Node's request (a plain AuthRequest), `headers` is read.
  t.same(await authenticate(request(bearer(token))), admin);
});

t.test("what a custom handler returns: validated, or a server error", async (t) => {
  const run = (returned: unknown, globalParams = GLOBALS) =>
    customAuthenticator(async () => returned, globalParams)(request());

  t.same(await run({}), { user: { role: null, scopes: [], globals: {} } }, "role and scopes may be left out");
  t.same(await run({ role: null, scopes: [], userId: null }), {
    user: { role: null, scopes: [], globals: { userId: null } },
  });
  t.same(
    await run({ role: "member", scope: "a b", scopes: ["c"], userId: "u-1", other: [1] }),
    { user: { role: "member", scopes: ["c", "a", "b"], globals: { userId: "u-1" } } },
    "the same claim rules as a JWT; undeclared keys ignored",
  );
  t.same(
    await customAuthenticator(() => ({ role: "x" }), [])(request()),
    { user: { role: "x", scopes: [], globals: {} } },
    "a synchronous handler",
  );

  const malformed: [string, unknown, string][] = [
    [
      "undefined",
      undefined,
      "src/auth.ts returned undefined: it must return the caller's global parameters as an object, or throw when it cannot authenticate",
    ],
    [
      "null",
      null,
      "src/auth.ts returned null: it must return the caller's global parameters as an object, or throw when it cannot authenticate",
    ],
    [
      "a string",
      "admin",
      "src/auth.ts returned a string: it must return the caller's global parameters as an object, or throw when it cannot authenticate",
    ],
    [
      "an array",
      [],
      "src/auth.ts returned an array: it must return the caller's global parameters as an object, or throw when it cannot authenticate",
    ],
    [
      "role number",
      { role: 3 },
      'src/auth.ts returned an invalid user: "role" must be a string or null, got a number',
    ],
    [
      "scopes string",
      { scopes: "a" },
      'src/auth.ts returned an invalid user: "scopes" must be an array of strings, got a string',
    ],
    [
      "scopes undefined entry",
      { scopes: [undefined] },
      'src/auth.ts returned an invalid user: "scopes" must be an array of strings, holding undefined',
    ],
    [
      "global object",
      { companyId: {} },
      'src/auth.ts returned an invalid user: "companyId" must be a string, number, boolean or null, got an object',
    ],
    [
      "global date",
      { companyId: new Date(0) },
      'src/auth.ts returned an invalid user: "companyId" must be a string, number, boolean or null, got an object',
    ],
    [
      "global bigint",
      { userId: BigInt(1) },
      'src/auth.ts returned an invalid user: "userId" must be a string, number, boolean or null, got a bigint',
    ],
    [
      "global NaN",
      { userId: Number.NaN },
      'src/auth.ts returned an invalid user: "userId" must be a finite number, got NaN',
    ],
  ];
  for (const [name, returned, message] of malformed) {
    const error = await run(returned).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.type(error, AuthHandlerError, name);
    t.equal((error as Error | undefined)?.message, message, name);
  }
  t.equal(new AuthHandlerError("x").name, "AuthHandlerError");
});

t.test("whatever a custom handler throws makes the caller anonymous", async (t) => {
  const throwing = (value: unknown) =>
    customAuthenticator(() => {
      throw value;
    }, [])(request());
  t.same(await throwing(new Error("no token")), {
    anonymous: true,
    reason: "invalid",
    detail: "src/auth.ts threw: no token",
  });
  t.same(await throwing("plain string"), {
    anonymous: true,
    reason: "invalid",
    detail: "src/auth.ts threw: plain string",
  });
  const notBefore = Object.assign(new Error("jwt not active"), { name: "NotBeforeError" });
  t.match(await throwing(notBefore), { anonymous: true, reason: "not_yet_valid" });
  t.same(
    await customAuthenticator(() => Promise.reject(new Error("db down")), [])(request()),
    { anonymous: true, reason: "invalid", detail: "src/auth.ts threw: db down" },
    "a rejected promise too",
  );
});
