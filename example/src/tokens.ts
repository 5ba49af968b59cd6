// The example app's token pair (docs/handlers.md "The example's auth flow").
//
// - Access token: HS256 with JWT_SECRET, claims `role`, `scopes`, `userId`, `companyId` (what the
//   built-in authenticator reads), ACCESS_TOKEN_TTL seconds (default 900).
// - Refresh token: HS256 with a key derived from JWT_SECRET (HMAC of a fixed label), so a refresh
//   token can never pass as an access token, and an access token never refreshes. Claims `sub`
//   (the user id) and `typ: "refresh"`, REFRESH_TOKEN_TTL seconds (default 30 days). Refreshing
//   reads the user again, so a deactivated user or a changed role takes effect at the next
//   refresh. Not revocable before expiry (no token store): a known limit of the example.

import { createHmac } from "node:crypto";
import jwt from "jsonwebtoken";

export interface TokenUser {
  id: number;
  companyId: number;
  role: string;
  scopes: string[];
}

// The login and refresh routes answer this customType (generated from api.schema.json).
import type { AuthResponse } from "../generated/types.ts";

export type { AuthResponse };

function secret(): string {
  const value = process.env.JWT_SECRET;
  if (!value) throw new Error("JWT_SECRET is not set: the example's login cannot issue tokens");
  return value;
}

function refreshKey(): Buffer {
  return createHmac("sha256", secret()).update("example refresh token v1").digest();
}

function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw && /^\d+$/.test(raw) ? Number(raw) : fallback;
}

export function issueTokens(user: TokenUser): AuthResponse {
  const now = Math.floor(Date.now() / 1000);
  const accessExp = now + seconds("ACCESS_TOKEN_TTL", 15 * 60);
  const refreshExp = now + seconds("REFRESH_TOKEN_TTL", 30 * 24 * 3600);
  const token = jwt.sign(
    {
      role: user.role,
      scopes: user.scopes,
      userId: user.id,
      companyId: user.companyId,
      iat: now,
      exp: accessExp,
    },
    secret(),
    { algorithm: "HS256" },
  );
  const refreshToken = jwt.sign(
    { sub: String(user.id), typ: "refresh", iat: now, exp: refreshExp },
    refreshKey(),
    {
      algorithm: "HS256",
    },
  );
  return {
    token,
    tokenExp: new Date(accessExp * 1000).toISOString(),
    refreshToken,
    refreshTokenExp: new Date(refreshExp * 1000).toISOString(),
  };
}

/** The user id of a valid refresh token, or undefined (bad signature, expired, wrong kind). */
export function verifyRefreshToken(refreshToken: string): number | undefined {
  try {
    const claims = jwt.verify(refreshToken, refreshKey(), { algorithms: ["HS256"] });
    if (typeof claims !== "object" || claims.typ !== "refresh" || !/^\d+$/.test(String(claims.sub))) {
      return undefined;
    }
    return Number(claims.sub);
  } catch {
    return undefined;
  }
}

/** Where the example keeps uploaded files: UPLOAD_DIR, else `<app>/.data/uploads`. */
export function uploadRoot(appDir: string): string {
  return process.env.UPLOAD_DIR || `${appDir}/.data/uploads`;
}
