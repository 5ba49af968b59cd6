// The schema loader: pure (no file or network I/O). `loadSchema(json)` checks the file's shape,
// normalises it, checks every cross-reference, and returns all errors and warnings at once; the
// normalised schema is returned only when there is no error. See docs/schema.md.

import { checkAccessNames, checkTopLevel } from "./access.ts";
import { checkConstraints } from "./constraints.ts";
import { createContext } from "./context.ts";
import { customTypeNames } from "./customTypes.ts";
import { Diagnostics, sortDiagnostics, withoutShadowed } from "./diagnostics.ts";
import { normalize } from "./normalize.ts";
import { checkPrivateColumns } from "./privateColumns.ts";
import { checkRateLimits } from "./rateLimit.ts";
import { routeNames } from "./routeNames.ts";
import { checkEndpoints } from "./routes.ts";
import { checkStructure } from "./structure.ts";
import { checkTables } from "./tables.ts";
import type { LoadResult } from "./types.ts";

export { primaryKey, uniqueKeys } from "./constraints.ts";
export { customTypeNames } from "./customTypes.ts";
export { handlerFileSegment, handlerMethodName } from "./handlers.ts";
export { type RouteMentions, routeMentions } from "./mentions.ts";
export { describeDiagnostic, routeNames } from "./routeNames.ts";
export { classifyValue, parseDecimal, parseEnumValues, sqlMentions, type ValueForm } from "./values.ts";

export interface LoadOptions {
  /**
   * True for our own `api.schema.json`: undeclared route roles/scopes and routes that drifted from
   * their tables are errors. False (the default) for Restura files, which load unchanged: warnings.
   */
  strict?: boolean;
}

export function loadSchema(input: unknown, options: LoadOptions = {}): LoadResult {
  const structural = checkStructure(input);
  const schema = normalize(input);
  const diag = new Diagnostics();
  const rejected = structural.map((d) => d.path);
  const types = customTypeNames(schema.customTypes);
  const ctx = createContext(schema, input, diag, types, rejected, options.strict === true);
  checkTopLevel(ctx);
  checkTables(ctx);
  checkConstraints(ctx);
  checkEndpoints(ctx);
  checkAccessNames(ctx);
  checkPrivateColumns(ctx);
  checkRateLimits(ctx);
  const errors = sortDiagnostics([...structural, ...withoutShadowed(diag.errors, structural)]);
  const warnings = sortDiagnostics(withoutShadowed(diag.warnings, structural));
  const routes = routeNames(schema);
  return errors.length === 0 ? { schema, errors, warnings, routes } : { errors, warnings, routes };
}
