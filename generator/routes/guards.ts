// Guards of the statements the gateway sends itself instead of calling a route function (its own
// reads, kinds/readViews.ts, and pages, kinds/pagedViews.ts). A running gateway compiled them from
// the schema it started with; a migration may change what they should read while it runs, and
// the route functions, rebuilt with the layer, follow it. So each such statement calls a function
// that only a layer built for that statement defines: `true`, an immutable SQL function that
// Postgres folds away when it plans the statement (nothing at run time). A rebuild recreates the
// views the statement reads, so Postgres analyses a prepared statement again, looking the guard up
// by name: in a layer without it that fails (42883, a class 42 error), and the gateway hands the
// route to its function from then on (gateway/routes/standard.ts).

import { createHash } from "node:crypto";
import type { Schema } from "../schema/types.ts";
import { ident, sql } from "../sql/sql.ts";
import { ownedByApiOwner } from "./function.ts";

/** A guard's name, from the text it stands for: `<prefix>_<16 hex digits of its SHA-256>`. */
export function guardName(prefix: string, text: string): string {
  return `${prefix}_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

/** The call a guarded statement makes: `api."<name>"()`. */
export function guardCall(name: string): string {
  return `${ident("api", name).toString()}()`;
}

/** A statement of one column behind guard `name`: its rows where the guard holds. */
export function guarded(text: string, name: string): string {
  return `SELECT _api_r.j FROM (${text}) AS _api_r(j) WHERE ${guardCall(name)}`;
}

/** The guard's definition, owned by api_owner, callable by api_gateway. */
export function guardStatements(name: string): string[] {
  const signature = sql`${ident("api", name)}()`;
  return [
    // OR REPLACE: a layer built route by route may meet one twice (the plan check's extra routes).
    sql`CREATE OR REPLACE FUNCTION ${signature} RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT true$$;`.toString(),
    ...ownedByApiOwner(signature),
    sql`GRANT EXECUTE ON FUNCTION ${signature} TO api_gateway;`.toString(),
  ];
}

/**
 * The guard of the gateway's own pages: the whole schema's, since a page depends on more of it
 * than its text (the column map a filter is checked against, the context the page stores). Any
 * migration ends them until the gateway starts again with the new schema.
 */
export function pageGuardName(schema: Schema): string {
  let name = pageGuards.get(schema);
  if (name === undefined) {
    name = guardName("pages", JSON.stringify(schema));
    pageGuards.set(schema, name);
  }
  return name;
}

/** Each schema's page guard, hashed once: every PAGED route's statements ask for it. */
const pageGuards = new WeakMap<Schema, string>();
