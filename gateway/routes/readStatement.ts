// The ONE and ARRAY reads the gateway answers with its own statement instead of the route
// function (generator/routes/kinds/readViews.ts): the function's query over the API views, one
// prepared statement, each value a typed parameter; the function's answer, byte for byte, for
// about two thirds of its cost in Postgres (docs/performance.md "Reads without the route
// function"). Where the query's row policies or column masks read the caller, a context
// statement sets what they read first, in the same batch (contextStatement.ts): then the request
// costs Postgres what a hand-written statement under the same policies does (docs/performance.md,
// eighteenth look).
//
// Each parameter's text is what the function would read from its jsonb request or caller with
// `->>` (or `->` for a JSON column): a string as it is, a number as JSON writes it, a boolean as
// `true`/`false`, an absent or null value as NULL. A value whose text could differ between the two
// (an object or array read as text, a number JavaScript writes with an exponent, which jsonb
// would write in full) sends the request to the function. So does an error of class 22 (a value
// that does not cast): the function answers with its own message. Timestamps render in UTC, as the
// function's `SET timezone` makes them: the statement sets the session's zone first on a
// connection that is not in it (gateway/sessionZone.ts).

import type { Model, ModelRoute } from "../../generator/model/index.ts";
import type { BoundValue } from "../../generator/routes/boundValues.ts";
import { viewsRead } from "../../generator/routes/kinds/readViews.ts";
import { type AuthResult, allowedFor } from "../auth/context.ts";
import { type CellStatement, cellStatement } from "../cellQuery.ts";
import { statementName } from "../namedStatements.ts";
import { compileContextStatement } from "./contextStatement.ts";
import { callerMember, jsonText, memberText } from "./memberText.ts";

export interface ReadStatement {
  /**
   * The statement for a request, or undefined when the route function is to answer it; `ctx` is
   * the caller context's JSON, as the function gets it (ctxJson.ts).
   */
  (params: Record<string, unknown>, auth: AuthResult, ctx: string): CellStatement | undefined;
  /** The message of the 404 when the statement answers no row (ONE); ARRAY always answers one. */
  notFound: string | undefined;
}

export function compileReadStatement(
  model: Model,
  modelRoute: ModelRoute,
  options: { preparedStatements: boolean },
): ReadStatement | undefined {
  const read = viewsRead(model, modelRoute);
  if (!read) return undefined;
  const name = options.preparedStatements ? statementName("api_read", read.text) : undefined;
  const readers = read.values.map(valueReader);
  const context = read.context
    ? compileContextStatement({
        ...read.context,
        prepared: options.preparedStatements,
        searchPath: false,
        namePrefix: "api_read_ctx",
      })
    : undefined;
  const statement = (params: Record<string, unknown>, auth: AuthResult, ctx: string) => {
    if (!read.checks.passes((rule) => allowedFor(rule, auth))) return undefined;
    const values: (string | null)[] = [];
    for (const reader of readers) {
      const text = reader(params, auth);
      if (text === undefined) return undefined;
      values.push(text);
    }
    return cellStatement(name, read.text, values, {
      utc: true,
      ...(context ? { before: [context(auth, ctx, false)] } : {}),
    });
  };
  return Object.assign(statement, { notFound: read.notFound });
}

type Reader = (params: Record<string, unknown>, auth: AuthResult) => string | null | undefined;

/** How one parameter's text is read from the request or the caller (undefined: not exactly). */
function valueReader(bound: BoundValue): Reader {
  const { name, json } = bound;
  const text = json ? jsonText : memberText;
  if (bound.from === "param") return (params) => text(params[name]);
  return (_params, auth) => text(callerMember(name, auth));
}
