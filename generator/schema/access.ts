// Top-level lists (globalParams, roles, scopes, extensions) and the roles and scopes used by
// tables, columns, policies and routes: a name that is not declared at the top level is a warning
// (Restura files often use roles they never declare), except on a route of an `api.schema.json`,
// where it is an error: a typo there makes the route unreachable for the callers it names.

import { type Context, routeProblem } from "./context.ts";
import { invalidName } from "./messages.ts";
import { at } from "./paths.ts";
import { didYouMean } from "./suggest.ts";
import { IDENTIFIER } from "./values.ts";

const EXTENSION_NAME = /^[A-Za-z0-9_-]+$/;

export function checkTopLevel(ctx: Context): void {
  const { schema, diag } = ctx;
  const lists = [
    ["globalParams", "global parameter", schema.globalParams],
    ["roles", "role", schema.roles],
    ["scopes", "scope", schema.scopes],
    ["extensions", "extension", schema.extensions],
  ] as const;
  for (const [key, kind, list] of lists) {
    const seen = new Set<string>();
    list.forEach((name, i) => {
      if (seen.has(name)) diag.error(at(key, i), `duplicate ${kind} "${name}"`);
      seen.add(name);
    });
  }
  // Each is a Postgres setting, `api.ctx.<name>` (generator/api/context.ts), and setting names
  // ignore case: two that differ only in case would share one.
  const folded = new Map<string, string>();
  schema.globalParams.forEach((name, i) => {
    if (name !== "" && !IDENTIFIER.test(name))
      diag.error(at("globalParams", i), invalidName("global parameter", name));
    const other = folded.get(name.toLowerCase());
    if (other !== undefined && other !== name)
      diag.error(at("globalParams", i), `global parameter "${name}" differs from "${other}" only in case`);
    folded.set(name.toLowerCase(), name);
  });
  schema.extensions.forEach((name, i) => {
    if (name !== "" && !EXTENSION_NAME.test(name))
      diag.error(at("extensions", i), `invalid extension name "${name}"`);
  });
}

export function checkAccessNames(ctx: Context): void {
  const roles = new Set(ctx.schema.roles);
  const scopes = new Set(ctx.schema.scopes);
  const check = (owner: { roles: string[]; scopes: string[] }, path: string, isRoute = false) => {
    const report = (p: string, message: string) =>
      isRoute ? routeProblem(ctx, p, message) : ctx.diag.warn(p, message);
    owner.roles.forEach((role, i) => {
      if (!roles.has(role))
        report(at(at(path, "roles"), i), `role "${role}" is not declared in roles${didYouMean(role, roles)}`);
    });
    owner.scopes.forEach((scope, i) => {
      if (!scopes.has(scope)) {
        report(
          at(at(path, "scopes"), i),
          `scope "${scope}" is not declared in scopes${didYouMean(scope, scopes)}`,
        );
      }
    });
  };
  ctx.schema.database.forEach((table, ti) => {
    const tp = `database[${ti}]`;
    check(table, tp);
    table.columns.forEach((c, ci) => {
      check(c, at(at(tp, "columns"), ci));
    });
    table.policies.forEach((p, pi) => {
      check(p, at(at(tp, "policies"), pi));
    });
  });
  ctx.schema.endpoints.forEach((g, gi) => {
    g.routes.forEach((r, ri) => {
      check(r, `endpoints[${gi}].routes[${ri}]`, true);
    });
  });
}
