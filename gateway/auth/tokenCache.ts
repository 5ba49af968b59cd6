// Verified tokens, remembered for their lifetime: a client sends the same token on every request,
// and verifying it again (a signature check, ~10 us for HS256 and several times that for RS256,
// plus the claim checks) is a fixed cost on each one. The key is the Authorization header's
// exact text (`Bearer <token>`, gateway/auth/jwt.ts), so a hit is a token that passed every check
// before with the same key and settings (one cache per authenticator). Only successes are kept;
// a hit is served only while `now < exp` (stricter than the clock tolerance jsonwebtoken allows)
// and `nbf` is not ahead of `now` (a clock moved back): anything else goes through full
// verification again, which answers as it always did.

import type { UserContext } from "./types.ts";

interface Entry {
  user: UserContext;
  exp: number;
  nbf: number | undefined;
}

/** An LRU map of verified tokens, bounded to `capacity` entries. */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The caller of a token verified before and still inside its validity window (frozen). */
  get(token: string, now: number): UserContext | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) return undefined;
    if (!(now < entry.exp) || (entry.nbf !== undefined && entry.nbf > now)) {
      this.#entries.delete(token);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so the first key is the eviction victim.
    this.#entries.delete(token);
    this.#entries.set(token, entry);
    return entry.user;
  }

  /** Remembers a token that just passed full verification; its caller, frozen, as get gives it. */
  set(token: string, user: UserContext, exp: number, nbf: number | undefined): UserContext {
    const frozen = frozenUser(user);
    if (this.#capacity <= 0) return frozen;
    this.#entries.delete(token);
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(token, { user: frozen, exp, nbf });
    return frozen;
  }
}

/**
 * Every request of a token shares one caller object, frozen to the last level: code that tries
 * to change its caller throws, and cannot change the next request's. What the gateway derives
 * from it is then worked out once (perCaller.ts).
 */
function frozenUser(user: UserContext): UserContext {
  return Object.freeze({
    role: user.role,
    scopes: Object.freeze([...user.scopes]) as string[],
    globals: Object.freeze({ ...user.globals }),
  });
}
