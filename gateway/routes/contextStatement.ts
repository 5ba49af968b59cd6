// The context statement: the first of a batch in which the gateway runs its own statement over the
// API views where row policies or column masks read the caller from the settings (the filtered
// pages, pagedStatement.ts; the reads, readStatement.ts). It stores, transaction-locally, what
// the statement after it reads of the caller, as a route function stores it from its `ctx`
// (generator/api/context.ts): each `api.ctx.<key>` given, and the whole `api.ctx` with `whole`.
// One batch under one Sync is one implicit transaction (cellQuery.ts), so the settings last for
// exactly that request.
//
// Each value is bound as text, as the gateway reads it from the caller (memberText.ts), which
// costs Postgres 39k instructions less than extracting them from the context's jsonb; a caller
// with a value whose text jsonb could write otherwise gets the jsonb form. The texts are worked
// out once per remembered caller (auth/perCaller.ts). Each setting left out saves about 15k
// instructions a request (docs/performance.md), so each route sets only what it reads.

import { setContextCalls, setContextTexts } from "../../generator/api/context.ts";
import { empty, type Sql, sql } from "../../generator/sql/sql.ts";
import { perCaller } from "../auth/perCaller.ts";
import { type AuthResult, isAnonymous } from "../auth/types.ts";
import type { Step } from "../cellQuery.ts";
import { statementName } from "../namedStatements.ts";
import { callerMember, jsonText, memberText } from "./memberText.ts";

/** The context statement of a request: `generic` asks for the generic plan too. */
export type ContextStatement = (auth: AuthResult, ctx: string, generic: boolean) => Step;

export interface ContextStatementOptions {
  /** The keys to set, in the schema's order (contextKeys); with `whole`, the whole context too. */
  keys: readonly string[];
  whole: boolean;
  /** Named statements (PG_PREPARED_STATEMENTS=0: unnamed). */
  prepared: boolean;
  /**
   * The route functions' search_path as well: for a statement that holds the schema author's SQL,
   * whose names resolve as in the function (the pages). The reads hold none: every name in them is
   * schema-qualified, and policies keep the objects they were created with.
   */
  searchPath: boolean;
  /** The prefix of the statement's name. */
  namePrefix: string;
}

export function compileContextStatement(options: ContextStatementOptions): ContextStatement {
  const { keys, whole } = options;
  // A row of no columns: the calls run (Postgres keeps a subquery's volatile outputs), and neither
  // side writes or reads their values (7k of the statement's 129k instructions).
  const statement = (settings: Sql, generic: boolean) => {
    const path = options.searchPath ? SEARCH_PATH_SETTING : empty;
    const text =
      sql`SELECT FROM (SELECT ${settings}${path}${generic ? GENERIC_PLAN_SETTING : empty}) AS _api_set`.toString();
    return { name: options.prepared ? statementName(options.namePrefix, text) : undefined, text };
  };
  const forms = [false, true].map((generic) => ({
    bound: statement(setContextTexts(keys, whole), generic),
    fromJsonb: statement(setContextCalls(sql`$1::jsonb`, keys, whole), generic),
  }));
  // The keys' texts, or undefined when one must come from the jsonb.
  const textsOf = (auth: AuthResult): readonly string[] | undefined => {
    const texts: string[] = [];
    for (const key of keys) {
      const value = callerMember(key, auth);
      const text = key === "scopes" ? jsonText(value) : memberText(value);
      if (text === undefined) return undefined;
      texts.push(text ?? "");
    }
    return texts;
  };
  const remembered = perCaller((user) => textsOf({ user }));
  // Each step written out, not `{ ...form.bound, values }`: V8 (Node 20) takes a slow path for a
  // spread followed by a property, about 0.7 us a request here (docs/performance.md, eighteenth
  // look).
  return (auth, ctx, generic) => {
    const form = forms[generic ? 1 : 0] as (typeof forms)[number];
    const texts = isAnonymous(auth) ? textsOf(auth) : remembered(auth.user);
    if (texts === undefined) return { name: form.fromJsonb.name, text: form.fromJsonb.text, values: [ctx] };
    return { name: form.bound.name, text: form.bound.text, values: whole ? [ctx, ...texts] : [...texts] };
  };
}

const SEARCH_PATH_SETTING = sql`,
    pg_catalog.set_config('search_path', 'pg_catalog, api, pg_temp', true)`;

const GENERIC_PLAN_SETTING = sql`,
    pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true)`;
