// The caller's and the request's values as text, the way Postgres reads them out of the jsonb a
// route function gets: the gateway's own statements bind them as text parameters instead of
// sending the jsonb and extracting them there (readStatement.ts; the page's context statement,
// pagedStatement.ts). Where the two texts could differ the answer is undefined, and the caller
// sends the jsonb after all.

import { type AuthResult, isAnonymous } from "../auth/types.ts";

/** `->>`: a member's text; NULL when absent or null; undefined where jsonb's text may differ. */
export function memberText(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    // jsonb writes a number in full where JavaScript may use an exponent (1e21).
    const written = JSON.stringify(value);
    return /^-?\d+(\.\d+)?$/.test(written) ? written : undefined;
  }
  return undefined;
}

/** `->`: a member as JSON text; NULL when absent. */
export function jsonText(value: unknown): string | null | undefined {
  return value === undefined ? null : JSON.stringify(value);
}

/** A key of the caller context as the function gets it (ctxJson.ts): role, scopes, then globals. */
export function callerMember(name: string, auth: AuthResult): unknown {
  if (isAnonymous(auth)) return name === "role" ? null : name === "scopes" ? [] : undefined;
  const { role, scopes, globals } = auth.user;
  if (name === "role") return role;
  if (name === "scopes") return scopes;
  return Object.hasOwn(globals, name) ? globals[name] : undefined;
}
