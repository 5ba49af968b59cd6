// The verified-token cache (issue 9 item 3): a token verified once is served from memory until its
// exp, never after it, never before its nbf, never for a token that failed, and the caller it
// serves is frozen: no request's code can change the next one's.

import t from "tap";
import { createJwtAuthenticator } from "../../gateway/auth/jwt.ts";
import { TokenCache } from "../../gateway/auth/tokenCache.ts";
import { bearer, claims, hs256, hsConfig, NOW, rs256, rsConfig } from "./fixtures/keys.ts";

function authenticator(clock: { now: number }, env: Record<string, string> = {}, cache = new TokenCache()) {
  const authenticate = createJwtAuthenticator(hsConfig(env), ["companyId"], {
    now: () => clock.now,
    tokenCache: cache,
  });
  return { cache, authenticate: (token: string) => authenticate(bearer(token)) };
}

t.test("a verified token is remembered and served until its exp", async (t) => {
  const clock = { now: NOW };
  const { cache, authenticate } = authenticator(clock);
  const token = hs256(claims({ role: "user", scopes: ["a"], companyId: 7 }));
  const user = { user: { role: "user", scopes: ["a"], globals: { companyId: 7 } } };
  t.same(authenticate(token), user);
  t.equal(cache.size, 1, "kept after full verification");
  clock.now = NOW + 59;
  t.same(authenticate(token), user, "a second before exp");
  t.equal(cache.size, 1);
  clock.now = NOW + 60;
  t.match(authenticate(token), { anonymous: true, reason: "expired" }, "at exp: verified again, expired");
  t.equal(cache.size, 0, "dropped at exp");
});

t.test("the cache never stretches a token past exp, even within the clock tolerance", async (t) => {
  const clock = { now: NOW };
  const { cache, authenticate } = authenticator(clock, { JWT_CLOCK_TOLERANCE: "30" });
  const token = hs256(claims({ role: "user" }));
  t.ok("user" in authenticate(token));
  clock.now = NOW + 70;
  // The tolerance still applies, by full verification as before, not by the cache.
  t.ok("user" in authenticate(token), "inside the tolerance");
  t.equal(cache.size, 1);
  const entryStillExpired = cache.get(token, NOW + 70);
  t.equal(entryStillExpired, undefined, "the cache itself does not serve it past exp");
  clock.now = NOW + 90;
  t.match(authenticate(token), { anonymous: true, reason: "expired" });
});

t.test("a clock moved back before nbf is refused again", async (t) => {
  const clock = { now: NOW };
  const { authenticate } = authenticator(clock);
  const token = hs256(claims({ role: "user", nbf: NOW }));
  t.ok("user" in authenticate(token));
  clock.now = NOW - 10;
  t.match(authenticate(token), { anonymous: true, reason: "not_yet_valid" });
});

t.test("failures are never remembered", async (t) => {
  const clock = { now: NOW };
  const { cache, authenticate } = authenticator(clock);
  const wrongKey = hs256(claims({ role: "user" }), "another-secret-another-secret-another");
  t.match(authenticate(wrongKey), { anonymous: true, reason: "invalid" });
  t.match(authenticate(wrongKey), { anonymous: true, reason: "invalid" }, "refused again");
  t.match(authenticate(hs256({ role: "user" })), { anonymous: true, reason: "invalid" }, "no exp");
  t.equal(cache.size, 0);
});

t.test("one cache per key: a token cached under one key is verified under another", async (t) => {
  const clock = { now: NOW };
  const cache = new TokenCache();
  const token = rs256(claims({ role: "user" }));
  const rs = createJwtAuthenticator(rsConfig(), [], { now: () => clock.now, tokenCache: cache });
  t.ok("user" in rs(bearer(token)));
  // Tests may share a cache; the service builds one per authenticator, so this is the worst case:
  // the same cache must still not let an HS256 authenticator accept an RS256 token it never checked.
  const hs = createJwtAuthenticator(hsConfig(), [], { now: () => clock.now });
  t.match(hs(bearer(token)), { anonymous: true, reason: "invalid" });
});

t.test(
  "a remembered caller cannot be changed: code that tries throws, the next request is unchanged",
  async (t) => {
    const clock = { now: NOW };
    const { authenticate } = authenticator(clock);
    const token = hs256(claims({ role: "user", scopes: ["a"], companyId: 7 }));
    const expected = { user: { role: "user", scopes: ["a"], globals: { companyId: 7 } } };
    for (const request of ["the verifying request", "a request the cache serves"]) {
      const result = authenticate(token);
      if (!("user" in result)) throw new Error("expected a user");
      const user = result.user;
      t.throws(() => user.scopes.push("admin"), TypeError, `${request}: scopes`);
      t.throws(
        () => {
          user.globals.companyId = 8;
        },
        TypeError,
        `${request}: globals`,
      );
      t.throws(
        () => {
          user.role = "admin";
        },
        TypeError,
        `${request}: role`,
      );
      t.same(authenticate(token), expected, `${request}: the next request's caller is unchanged`);
    }
  },
);

t.test(
  "bounded: a token served since the last eviction outlives one that was not (second chance)",
  async (t) => {
    const cache = new TokenCache(2);
    const user = { role: "r", scopes: [], globals: {} };
    cache.set("a", user, NOW + 60, undefined);
    cache.set("b", user, NOW + 60, undefined);
    t.ok(cache.get("a", NOW), "a used: b is now the oldest");
    cache.set("c", user, NOW + 60, undefined);
    t.equal(cache.size, 2);
    t.ok(cache.get("a", NOW));
    t.equal(cache.get("b", NOW), undefined, "b evicted");
    t.ok(cache.get("c", NOW));
    // Every entry used since the last eviction: each gets its second chance, then the oldest goes.
    const all = new TokenCache(2);
    all.set("a", user, NOW + 60, undefined);
    all.set("b", user, NOW + 60, undefined);
    t.ok(all.get("b", NOW));
    t.ok(all.get("a", NOW));
    all.set("c", user, NOW + 60, undefined);
    t.equal(all.size, 2);
    t.equal(all.get("a", NOW), undefined, "all used: the oldest goes");
    t.ok(all.get("b", NOW));
    t.ok(all.get("c", NOW));
    const none = new TokenCache(0);
    none.set("a", user, NOW + 60, undefined);
    t.equal(none.size, 0, "capacity 0 keeps nothing");
  },
);
