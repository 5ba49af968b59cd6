// The caller context as the JSON text a route function receives (`$2`), written directly: the
// same text as `JSON.stringify(toCtx(auth, globalParams))` (auth/context.ts), without building
// the object first. The global names are resolved once, when the route is compiled; the caller's
// values are serialised once per remembered caller (auth/perCaller.ts). Measured in
// docs/performance.md ("Profile").

import { globalNames } from "../auth/claims.ts";
import { perCaller } from "../auth/perCaller.ts";
import { type AuthResult, isAnonymous } from "../auth/types.ts";

const ANONYMOUS_CTX = '{"role":null,"scopes":[]}';

/** One per schema's list, shared by its routes: a caller's text is remembered once, not per route. */
const compiled = new WeakMap<readonly string[], (auth: AuthResult) => string>();

export function compileCtxJson(globalParams: readonly string[]): (auth: AuthResult) => string {
  let ctxJson = compiled.get(globalParams);
  if (ctxJson === undefined) {
    ctxJson = ctxJsonOf(globalParams);
    compiled.set(globalParams, ctxJson);
  }
  return ctxJson;
}

function ctxJsonOf(globalParams: readonly string[]): (auth: AuthResult) => string {
  const keys = globalNames(globalParams).map((name) => ({ name, key: `,${JSON.stringify(name)}:` }));
  const text = perCaller(({ role, scopes, globals }) => {
    let out = `{"role":${JSON.stringify(role)},"scopes":${JSON.stringify(scopes)}`;
    for (const { name, key } of keys) {
      if (!Object.hasOwn(globals, name)) continue;
      const value = globals[name];
      // JSON.stringify leaves out a key whose value is undefined; so does this.
      if (value !== undefined) out += key + JSON.stringify(value);
    }
    return `${out}}`;
  });
  return (auth) => (isAnonymous(auth) ? ANONYMOUS_CTX : text(auth.user));
}
