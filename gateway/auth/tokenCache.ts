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
  /** Served since it last reached the front of the eviction queue: it gets a second chance. */
  used: boolean;
}

/**
 * A map of verified tokens, bounded to `capacity` entries, that evicts about the least recently
 * used by the second-chance rule (CLOCK): a hit only marks its entry, and eviction moves marked
 * entries from the front to the back (unmarked) until it meets an unmarked one. Moving the entry
 * to the back on every hit, as a plain LRU map does, left a deleted slot in Map's table each time,
 * which Map then compacts every few requests when it holds about as many entries as its table
 * has room for: 1.6 us a hit with 1,000 tokens held, against 0.36 now, most of it hashing the
 * header's text (docs/performance.md, eighteenth look).
 */
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
    entry.used = true;
    return entry.user;
  }

  /** Remembers a token that just passed full verification; its caller, frozen, as get gives it. */
  set(token: string, user: UserContext, exp: number, nbf: number | undefined): UserContext {
    const frozen = frozenUser(user);
    if (this.#capacity <= 0) return frozen;
    this.#entries.delete(token);
    if (this.#entries.size >= this.#capacity) this.#evictOne();
    this.#entries.set(token, { user: frozen, exp, nbf, used: false });
    return frozen;
  }

  /**
   * Removes the oldest entry not served since it was last here. Map keeps insertion order, so the
   * first entry is the oldest; a marked one goes to the back unmarked. Ends within one pass: by
   * then every entry has been unmarked.
   */
  #evictOne(): void {
    for (const [token, entry] of this.#entries) {
      this.#entries.delete(token);
      if (!entry.used) return;
      entry.used = false;
      this.#entries.set(token, entry);
    }
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
