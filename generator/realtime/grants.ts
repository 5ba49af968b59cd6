// Privileges on the durable outbox schema, made exact on every rebuild (after generator/api/
// grants.ts, which hands every function in `api` to api_owner). Only api_owner, which owns the
// SECURITY DEFINER capture functions and api.realtime_*, reads and writes the outbox; the gateway
// reaches it only through those functions, other roles not at all.

import { API_GATEWAY, API_OWNER } from "../api/names.ts";
import { API_SERVICE } from "../api/service.ts";
import { ident, sql } from "../sql/sql.ts";
import { LAYER, OUTBOX, PRUNED, REALTIME_SCHEMA } from "./names.ts";

export function realtimeGrantStatements(): string[] {
  const schema = ident(REALTIME_SCHEMA);
  const owner = ident(API_OWNER);
  const others = sql`PUBLIC, ${ident(API_GATEWAY)}, ${ident(API_SERVICE)}`;
  return [
    sql`REVOKE ALL ON SCHEMA ${schema} FROM ${others}`,
    sql`REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${others}`,
    sql`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${others}`,
    sql`GRANT USAGE ON SCHEMA ${schema} TO ${owner}`,
    sql`GRANT SELECT, INSERT, DELETE ON TABLE ${OUTBOX} TO ${owner}`,
    sql`GRANT SELECT, UPDATE ON TABLE ${PRUNED} TO ${owner}`,
    sql`GRANT SELECT ON TABLE ${LAYER} TO ${owner}`,
    sql`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${owner}`,
  ].map((s) => s.toString());
}
