// The built-in authentication handler: `Authorization: Bearer <JWT>`, verified with the one
// configured algorithm and key (docs/authentication.md#how-a-token-is-verified).

import jwt from "jsonwebtoken";
import { globalNames, readClaims } from "./claims.ts";
import type { AuthConfig } from "./config.ts";
import { TokenCache } from "./tokenCache.ts";
import type { Anonymous, AuthHeaders, AuthResult } from "./types.ts";

export interface JwtAuthenticatorOptions {
  /** The clock, in seconds since the epoch (tests). Default: now. */
  now?: () => number;
  /** Verified tokens remembered until their exp (gateway/auth/tokenCache.ts). Default: 10,000 of them. */
  tokenCache?: TokenCache;
}

/** RFC 6750's b64token, which every JWT (three base64url parts) satisfies. */
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;

export type BearerResult = { token: string } | Anonymous;

/** The values of every Authorization header (names compared case-insensitively), in order. */
function authorizationValues(headers: AuthHeaders): string[] {
  const values: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name.toLowerCase() !== "authorization") continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return values;
}

/**
 * The token of exactly one `Authorization: Bearer <token>` header (scheme case-insensitive).
 * No header: `missing`. Any other form (another scheme, no token, two tokens, two headers): `invalid`.
 */
export function bearerToken(headers: AuthHeaders): BearerResult {
  return bearerOf(authorizationValues(headers));
}

function bearerOf(values: readonly string[]): BearerResult {
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

  const cache = options.tokenCache ?? new TokenCache();

  return (headers) => {
    const values = authorizationValues(headers);
    const now = options.now?.();
    // Remembered by the header's whole value: one that verified before is read back without
    // parsing it again (the same text holds the same token).
    const header = values.length === 1 ? (values[0] as string) : undefined;
    const cached = header === undefined ? undefined : cache.get(header, now ?? Date.now() / 1000);
    if (cached) return { user: cached };
    const bearer = bearerOf(values);
    if ("anonymous" in bearer) return bearer;
    let payload: unknown;
    try {
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
    const maxTtl = config.maxTtl === undefined ? undefined : config.maxTtl + config.clockTolerance;
    const expiry = expiryProblem(claims, now ?? Math.floor(Date.now() / 1000), maxTtl);
    if (expiry) return { anonymous: true, reason: "invalid", detail: expiry };
    const read = readClaims(claims, names);
    if (!read.ok) return { anonymous: true, reason: "invalid", detail: `claim ${read.error}` };
    return {
      user: cache.set(header as string, read.user, claims.exp as number, claims.nbf as number | undefined),
    };
  };
}

/**
 * jsonwebtoken checks `exp` only when present, and only that it is a number: `1e999` in the JSON
 * is Infinity, a token that never expires. Refused: no exp, a non-finite exp (or nbf, iat), and
 * with JWT_MAX_TTL an exp further ahead than that (a token minted to live for years).
 */
function expiryProblem(
  claims: Record<string, unknown>,
  now: number,
  maxTtl: number | undefined,
): string | undefined {
  if (typeof claims.exp !== "number") return "the token has no exp (expiry) claim";
  for (const name of ["exp", "nbf", "iat"]) {
    const value = claims[name];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value))) {
      return `the token's ${name} is not a finite number`;
    }
  }
  // The clock tolerance counts here too: the issuer's clock may run ahead of ours.
  if (maxTtl !== undefined && claims.exp - now > maxTtl) {
    return `the token's exp is ${Math.round(claims.exp - now)} s ahead, beyond JWT_MAX_TTL (${maxTtl} s with the clock tolerance)`;
  }
  return undefined;
}

function rejected(error: unknown): Anonymous {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof jwt.TokenExpiredError) return { anonymous: true, reason: "expired", detail };
  if (error instanceof jwt.NotBeforeError) return { anonymous: true, reason: "not_yet_valid", detail };
  return { anonymous: true, reason: "invalid", detail };
}
