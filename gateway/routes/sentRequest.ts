// What the gateway sends for a request of a standard route, for the tools that measure it rather
// than serve it (bench/cases.ts, test/plans/plan.ts): the request's parameters as the gateway
// passes them on (a cursor decoded, cursor.ts), and its own statement where it answers the request
// itself (readStatement.ts, pagedStatement.ts), chosen as standard.ts chooses.

import type { Model, ModelRoute } from "../../generator/model/index.ts";
import type { AuthResult } from "../auth/types.ts";
import type { CellStatement } from "../cellQuery.ts";
import { cursorDecoder } from "./cursor.ts";
import { compilePagedStatements } from "./pagedStatement.ts";
import { compileReadStatement } from "./readStatement.ts";

export interface SentRequest {
  /** The parameters as the route function receives them. */
  params(request: Record<string, unknown>): Record<string, unknown>;
  /**
   * The gateway's own statement for the request, or undefined when it calls the function; the
   * caller as claims: `role` (null: anonymous), `scopes`, then the globals.
   */
  own(request: Record<string, unknown>, caller: Record<string, unknown>): CellStatement | undefined;
}

export function sentRequest(model: Model, modelRoute: ModelRoute): SentRequest {
  const decode = cursorDecoder(model, modelRoute);
  const read = compileReadStatement(model, modelRoute, { preparedStatements: true });
  const paged = compilePagedStatements(model, modelRoute, {
    schema: model.schema,
    preparedStatements: true,
  });
  const params = (request: Record<string, unknown>) => {
    const passed = { ...request };
    decode?.(passed);
    return passed;
  };
  return {
    params,
    own: (request, caller) => {
      const { role, scopes, ...globals } = caller;
      const auth = (
        role === null ? { anonymous: true, reason: "missing" } : { user: { role, scopes, globals } }
      ) as AuthResult;
      const passed = params(request);
      const ctx = JSON.stringify(caller);
      return read?.(passed, auth, ctx) ?? paged?.({ params: passed, auth, ctx });
    },
  };
}
