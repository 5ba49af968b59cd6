// Token lifetimes (issue 10 item 7): `exp` must be a finite number (JSON's 1e999 is Infinity, a
// token jsonwebtoken would accept forever), so must `nbf` and `iat`; JWT_MAX_TTL bounds how far
// ahead `exp` may be.

import { createHmac } from "node:crypto";
import t from "tap";
import { describeAuthConfig, readAuthConfig } from "../../gateway/auth/config.ts";
import { createJwtAuthenticator } from "../../gateway/auth/jwt.ts";
import type { AuthResult } from "../../gateway/auth/types.ts";
import { bearer, NOW, now, SECRET } from "./fixtures/keys.ts";

const HEADER = { alg: "HS256", typ: "JWT" };

/** A validly signed token whose payload is this exact JSON text (1e999 cannot come from JSON.stringify). */
function tokenOfText(payloadText: string): string {
  const b64 = (text: string) => Buffer.from(text).toString("base64url");
  const input = `${b64(JSON.stringify(HEADER))}.${b64(payloadText)}`;
  return `${input}.${createHmac("sha256", SECRET).update(input).digest("base64url")}`;
}

function auth(token: string, env: Record<string, string> = {}): AuthResult {
  return createJwtAuthenticator(readAuthConfig({ JWT_SECRET: SECRET, ...env }), [], { now })(bearer(token));
}

t.test("exp, nbf and iat must be finite numbers", async (t) => {
  t.same(auth(tokenOfText(`{"role":"a","exp":${NOW + 60}}`)), {
    user: { role: "a", scopes: [], globals: {} },
  });
  for (const [what, text, detail] of [
    ["exp 1e999 (Infinity)", `{"exp":1e999}`, "the token's exp is not a finite number"],
    ["nbf 1e999", `{"exp":${NOW + 60},"nbf":-1e999}`, "the token's nbf is not a finite number"],
    ["iat 1e999", `{"exp":${NOW + 60},"iat":1e999}`, "the token's iat is not a finite number"],
    ["no exp", `{"role":"a"}`, "the token has no exp (expiry) claim"],
  ] as const) {
    t.same(auth(tokenOfText(text)), { anonymous: true, reason: "invalid", detail }, what);
  }
});

t.test("JWT_MAX_TTL: exp at most that far ahead (plus the clock tolerance)", async (t) => {
  const ok = (exp: number, env: Record<string, string>) => "user" in auth(tokenOfText(`{"exp":${exp}}`), env);
  t.ok(ok(NOW + 3600, { JWT_MAX_TTL: "3600" }), "exactly the maximum");
  t.notOk(ok(NOW + 3601, { JWT_MAX_TTL: "3600" }), "a second more");
  t.ok(ok(NOW + 3610, { JWT_MAX_TTL: "3600", JWT_CLOCK_TOLERANCE: "10" }), "within the tolerance");
  t.ok(ok(NOW + 10 * 365 * 24 * 3600, {}), "unset: no bound");
  t.match(auth(tokenOfText(`{"exp":${NOW + 7200}}`), { JWT_MAX_TTL: "3600" }), {
    anonymous: true,
    reason: "invalid",
    detail: "the token's exp is 7200 s ahead, beyond JWT_MAX_TTL (3600 s with the clock tolerance)",
  });
});

t.test("JWT_MAX_TTL is read and checked at start-up", async (t) => {
  t.match(readAuthConfig({ JWT_SECRET: SECRET, JWT_MAX_TTL: "900" }), { maxTtl: 900 });
  t.notOk("maxTtl" in readAuthConfig({ JWT_SECRET: SECRET }), "unset: no bound");
  t.equal(
    describeAuthConfig(readAuthConfig({ JWT_SECRET: SECRET, JWT_MAX_TTL: "900" })),
    "authentication: JWT HS256 (JWT_SECRET), max TTL 900 s",
  );
  for (const bad of ["0", "-1", "1.5", "15m", "99999999"]) {
    t.throws(() => readAuthConfig({ JWT_SECRET: SECRET, JWT_MAX_TTL: bad }), {
      message: `JWT_MAX_TTL must be a whole number of seconds from 1 to 31622400 (got "${bad}")`,
    });
  }
  t.throws(() => readAuthConfig({ JWT_MAX_TTL: "900" }), {
    message: "JWT_MAX_TTL is set but neither JWT_SECRET nor JWT_PUBLIC_KEY is: set one of them, or remove it",
  });
});
