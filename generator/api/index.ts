// The API layer generator: pure functions from the normalised schema to SQL statements.

export { isRestricted } from "../routes/permissions.ts";
export { type ConditionEnv, compileCondition, compileConditions, escapeLike } from "./conditions.ts";
export { castTypeOf, globalExpr, inferGlobalTypes, substituteMentions, textArray } from "./globals.ts";
export { grantStatements } from "./grants.ts";
export { type ApiLayerParts, apiLayerParts, apiLayerStatements, dropApiLayerStatements } from "./layer.ts";
export * from "./names.ts";
export { dropOurPolicies, dropPoliciesOn, policyCondition, policyStatements } from "./policies.ts";
export { roleStatements } from "./roles.ts";
export { allowedCheck, viewStatements } from "./views.ts";
