// The shapes shared by the authentication handlers (built-in JWT, custom src/auth.ts) and the
// gateway: what a handler makes of a request, and the caller it hands on (docs/authentication.md).

/** A global parameter's value: scalars only, so it reaches SQL as one setting. */
export type GlobalValue = string | number | boolean | null;

/** An authenticated caller. `globals` holds the schema's globalParams other than role/scopes. */
export interface UserContext {
  role: string | null;
  scopes: string[];
  globals: Record<string, GlobalValue>;
}

/**
 * Why a caller is anonymous: no credentials (`missing`), credentials that failed verification
 * (`invalid`), or a token outside its validity window (`expired`, `not_yet_valid`).
 */
export const ANONYMOUS_REASONS = ["missing", "invalid", "expired", "not_yet_valid"] as const;
export type AnonymousReason = (typeof ANONYMOUS_REASONS)[number];

export interface Anonymous {
  anonymous: true;
  reason: AnonymousReason;
  /** For the log only (never sent to the client): what exactly failed. */
  detail?: string;
}

export type AuthResult = { user: UserContext } | Anonymous;

/** Request headers as Node and Fastify give them (names lower-cased; arrays for repeats). */
export type AuthHeaders = Record<string, string | string[] | undefined>;

/** The part of a request a handler sees; a FastifyRequest fits as it is. */
export interface AuthRequest {
  headers: AuthHeaders;
  method: string;
  url: string;
  /**
   * Node's IncomingMessage. Its `rawHeaders` (names and values, alternating, as sent) keeps
   * repeated Authorization headers, which `headers` silently collapses to the first; the built-in
   * handler refuses repeats.
   */
  raw?: { rawHeaders?: readonly string[] };
}

/**
 * The gateway's view of authentication: one call per request. The built-in handler answers
 * synchronously, a custom one with a promise: always `await` it. It rejects only with an
 * `AuthHandlerError` (a broken custom handler: answer 500), never for bad credentials.
 */
export type Authenticator = (request: AuthRequest) => AuthResult | Promise<AuthResult>;

/** The handler the service uses, with what start-up should log about it. */
export type LoadedAuthenticator = Authenticator & {
  kind: "custom" | "jwt" | "none";
  /** One line for the start-up log, e.g. `authentication: JWT RS256 (JWT_PUBLIC_KEY file keys/jwt.pem)`. */
  summary: string;
  /** Set when no key is configured: every caller is anonymous. Log it once at start-up. */
  warning?: string;
};

/**
 * A custom handler (src/auth.ts) broke its contract: it returned something that is not a user.
 * A server error (500, logged), not an anonymous caller: a bug must not look like a logout.
 */
export class AuthHandlerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuthHandlerError";
  }
}

export function isAnonymous(result: AuthResult): result is Anonymous {
  return "anonymous" in result;
}
