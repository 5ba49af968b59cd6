// The built-in authentication handler: `Authorization: Bearer <JWT>`, verified with the one
// configured algorithm and key (docs/authentication.md#how-a-token-is-verified).

import jwt from "jsonwebtoken";
import { globalNames, readClaims } from "./claims.ts";
import type { AuthConfig } from "./config.ts";
import type { Anonymous, AuthHeaders, AuthResult } from "./types.ts";

export interface JwtAuthenticatorOptions {
  /** The clock, in seconds since the epoch (tests). Default: now. */
  now?: () => number;
}

/** RFC 6750's b64token, which every JWT (three base64url parts) satisfies. */
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;

export type BearerResult = { token: string } | Anonymous;

/**
 * The token of exactly one `Authorization: Bearer <token>` header (scheme case-insensitive).
 * No header: `missing`. Any other form (another scheme, no token, two tokens, two headers): `invalid`.
 */
export function bearerToken(headers: AuthHeaders): BearerResult {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== "authorization" || value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  if (values.length === 0) return { anonymous: true, reason: "missing" };
  if (values.length > 1) {
    return { anonymous: true, reason: "invalid", detail: `${values.length} Authorization headers` };
  }
  const match = BEARER.exec((values[0] as string).trim());
  if (!match) {
    return { anonymous: true, reason: "invalid", detail: "the Authorization header is not `Bearer <token>`" };
  }
  return { token: match[1] as string };
}

/** Verifies `Authorization: Bearer <JWT>` and reads its claims into a caller. Never throws. */
export function createJwtAuthenticator(
  config: AuthConfig,
  globalParams: readonly string[],
  options: JwtAuthenticatorOptions = {},
): (headers: AuthHeaders) => AuthResult {
  const names = globalNames(globalParams);
  if (config.mode === "none") {
    return (headers) => {
      const bearer = bearerToken(headers);
      if ("anonymous" in bearer) return bearer;
      return {
        anonymous: true,
        reason: "invalid",
        detail: "no JWT key is configured (JWT_SECRET or JWT_PUBLIC_KEY)",
      };
    };
  }
  const verifyOptions: jwt.VerifyOptions & { complete: false } = {
    // Exactly one algorithm, from configuration: `none`, and an HS256 token made with the RSA
    // public key as its secret (key confusion), fail here whatever the token's header says.
    algorithms: [config.algorithm],
    clockTolerance: config.clockTolerance,
    complete: false,
  };
  if (config.issuer) verifyOptions.issuer = config.issuer as [string, ...string[]];
  if (config.audience) verifyOptions.audience = config.audience as [string, ...string[]];

  return (headers) => {
    const bearer = bearerToken(headers);
    if ("anonymous" in bearer) return bearer;
    let payload: unknown;
    try {
      const now = options.now?.();
      payload = jwt.verify(
        bearer.token,
        config.key,
        now === undefined ? verifyOptions : { ...verifyOptions, clockTimestamp: now },
      );
    } catch (error) {
      return rejected(error);
    }
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
      return { anonymous: true, reason: "invalid", detail: "the token's payload is not a JSON object" };
    }
    const claims = payload as Record<string, unknown>;
    // jsonwebtoken checks exp only when present; a token that never expires is refused.
    if (typeof claims.exp !== "number") {
      return { anonymous: true, reason: "invalid", detail: "the token has no exp (expiry) claim" };
    }
    const read = readClaims(claims, names);
    if (!read.ok) return { anonymous: true, reason: "invalid", detail: `claim ${read.error}` };
    return { user: read.user };
  };
}

function rejected(error: unknown): Anonymous {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof jwt.TokenExpiredError) return { anonymous: true, reason: "expired", detail };
  if (error instanceof jwt.NotBeforeError) return { anonymous: true, reason: "not_yet_valid", detail };
  return { anonymous: true, reason: "invalid", detail };
}
