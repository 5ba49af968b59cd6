// Realtime, database side (docs/realtime.md): the statements the API layer adds for tables with
// `notify` (capture triggers, api.realtime_events) and its grants. The durable outbox and the
// fixed functions (api.realtime_head, api.realtime_prune) are in sql/realtime.sql.

import type { Schema } from "../schema/types.ts";
import { sql } from "../sql/sql.ts";
import { captureStatements } from "./capture.ts";
import { eventsFunctionStatement } from "./events.ts";
import { LAYER } from "./names.ts";
import { notifyTables } from "./tables.ts";

export { realtimeGrantStatements } from "./grants.ts";
export * from "./names.ts";
export { type NotifyTable, notifyTable, notifyTables } from "./tables.ts";

/**
 * Capture functions and triggers for every table with `notify`, then api.realtime_events, then the
 * boundary of this layer's images (sql/realtime.sql, api_realtime.layer): every transaction id
 * from the snapshot's xmax on is handed out after the triggers above exist and hold their
 * tables' locks, so its events are recorded by this layer's triggers.
 */
export function realtimeStatements(schema: Schema): string[] {
  return [
    ...notifyTables(schema).flatMap(captureStatements),
    eventsFunctionStatement(schema),
    sql`UPDATE ${LAYER} SET xid = pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())`.toString(),
  ];
}
