// What the gateway derives from a caller on every request (the globals' type check, the context
// text a route function receives), worked out once per remembered caller. A token the cache
// serves (tokenCache.ts) hands every request the same frozen caller object, so a value computed
// from it holds for as long as the object lives; a caller made for one request (a custom
// handler's, a token just verified) is not frozen, and its value is computed each time.

import type { UserContext } from "./types.ts";

/** `compute(user)`, remembered per frozen caller. */
export function perCaller<T>(compute: (user: UserContext) => T): (user: UserContext) => T {
  const memo = new WeakMap<UserContext, { value: T }>();
  return (user) => {
    if (!Object.isFrozen(user)) return compute(user);
    let entry = memo.get(user);
    if (entry === undefined) {
      entry = { value: compute(user) };
      memo.set(user, entry);
    }
    return entry.value;
  };
}
