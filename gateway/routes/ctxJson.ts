// The caller context as the JSON text a route function receives (`$2`), written directly: the
// same text as `JSON.stringify(toCtx(auth, globalParams))` (auth/context.ts), without building
// the object first. The global names are resolved once, when the route is compiled; per request
// only the caller's values are serialised. Measured in docs/performance.md ("Profile").

import { globalNames } from "../auth/claims.ts";
import { type AuthResult, isAnonymous } from "../auth/types.ts";

const ANONYMOUS_CTX = '{"role":null,"scopes":[]}';

export function compileCtxJson(globalParams: readonly string[]): (auth: AuthResult) => string {
  const keys = globalNames(globalParams).map((name) => ({ name, key: `,${JSON.stringify(name)}:` }));
  return (auth) => {
    if (isAnonymous(auth)) return ANONYMOUS_CTX;
    const { role, scopes, globals } = auth.user;
    let out = `{"role":${JSON.stringify(role)},"scopes":${JSON.stringify(scopes)}`;
    for (const { name, key } of keys) {
      if (!Object.hasOwn(globals, name)) continue;
      const value = globals[name];
      // JSON.stringify leaves out a key whose value is undefined; so does this.
      if (value !== undefined) out += key + JSON.stringify(value);
    }
    return `${out}}`;
  };
}
