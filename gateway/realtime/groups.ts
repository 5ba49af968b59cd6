// Permission contexts: subscribers whose events the database decides identically share one
// `api.realtime_events` call per batch. What decides an event is the table rule and the column
// rules (role, scopes) and the row policies (role, scopes, and the globals they mention), so the
// context sent is exactly those: two members of company 1 with different userIds are one group
// when no policy of a notify table reads #userId. A global the scan misses would reach the
// policy as absent (NULL), which denies: the reduction can only hide rows, never show more.

import { buildModel } from "../../generator/model/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { type AuthResult, type Ctx, toCtx } from "../auth/context.ts";

/** The globals (without `#`) that any row policy of a table with `notify` mentions (the model's). */
export function policyGlobals(schema: Schema): string[] {
  return [...new Set(buildModel(schema).notifyTables.flatMap((t) => t.policyGlobals))].sort();
}

export interface PermissionContext {
  /** Equal keys: equal decisions. */
  key: string;
  /** What `api.realtime_events` receives (the route functions' ctx, reduced to what decides). */
  ctx: Ctx;
}

export function permissionContext(auth: AuthResult, globals: readonly string[]): PermissionContext {
  const full = toCtx(auth, globals);
  const ctx: Ctx = { role: full.role, scopes: [...full.scopes].sort() };
  for (const name of globals) if (Object.hasOwn(full, name)) ctx[name] = full[name] as Ctx[string];
  return { key: JSON.stringify(ctx), ctx };
}
