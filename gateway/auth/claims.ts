// Claims -> caller: the one set of rules for a verified JWT payload and for what a custom
// src/auth.ts returns. A value of the wrong type is an error, never silently dropped: a token
// whose `scopes` cannot be read must not quietly become a user without scopes.

import type { GlobalValue, UserContext } from "./types.ts";

/** Read for every caller, whatever globalParams says; never copied into `globals`. */
export const RESERVED_CLAIMS = ["role", "scopes", "scope"] as const;

/** The globalParams that become `globals` (the schema's, minus role/scopes/scope), in order. */
export function globalNames(globalParams: readonly string[]): string[] {
  const reserved: readonly string[] = RESERVED_CLAIMS;
  return [...new Set(globalParams)].filter((name) => !reserved.includes(name));
}

export type ClaimsResult = { ok: true; user: UserContext } | { ok: false; error: string };

/**
 * `role`: a non-empty string, or null/absent (no role). `scopes`: an array of scope names;
 * `scope`: one space-separated string (OAuth style); both may be present and are merged.
 * Each name in `names` present in `claims` becomes a global; other claims are ignored.
 */
export function readClaims(claims: Record<string, unknown>, names: readonly string[]): ClaimsResult {
  const role = claims.role;
  if (role !== undefined && role !== null && typeof role !== "string") {
    return fail(`"role" must be a string or null, got ${typeName(role)}`);
  }
  if (role === "") return fail(`"role" must not be an empty string (use null for no role)`);

  const scopes: string[] = [];
  if (claims.scopes !== undefined) {
    const list = claims.scopes;
    if (!Array.isArray(list)) return fail(`"scopes" must be an array of strings, got ${typeName(list)}`);
    for (const scope of list) {
      if (typeof scope !== "string")
        return fail(`"scopes" must be an array of strings, holding ${typeName(scope)}`);
      if (!/^\S+$/.test(scope)) return fail(`"scopes" holds ${JSON.stringify(scope)}: a scope is one word`);
      scopes.push(scope);
    }
  }
  if (claims.scope !== undefined) {
    if (typeof claims.scope !== "string") {
      return fail(`"scope" must be a space-separated string, got ${typeName(claims.scope)}`);
    }
    scopes.push(...claims.scope.split(/\s+/).filter((s) => s !== ""));
  }

  const globals: [string, GlobalValue][] = [];
  for (const name of names) {
    if (!Object.hasOwn(claims, name) || claims[name] === undefined) continue;
    const value = claims[name];
    const problem = scalarProblem(value);
    if (problem) return fail(`"${name}" ${problem}`);
    globals.push([name, value as GlobalValue]);
  }
  // fromEntries defines own properties, so even a name like "__proto__" stays plain data.
  return {
    ok: true,
    user: { role: role ?? null, scopes: [...new Set(scopes)], globals: Object.fromEntries(globals) },
  };
}

function scalarProblem(value: unknown): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return `must be a finite number, got ${value}`;
    // JSON.parse has already rounded such a number: 9007199254740993 arrives as ...992.
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return "is an integer too large to be exact in JSON (beyond 2^53): send it as a string";
    }
    return undefined;
  }
  return `must be a string, number, boolean or null, got ${typeName(value)}`;
}

export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function fail(error: string): ClaimsResult {
  return { ok: false, error };
}
