// Realtime, database side (docs/realtime.md): the statements the API layer adds for tables with
// `notify` (capture triggers, api.realtime_events) and its grants. The durable outbox and the
// fixed functions (api.realtime_head, api.realtime_prune) are in sql/realtime.sql.

import type { Schema } from "../schema/types.ts";
import { captureStatements } from "./capture.ts";
import { eventsFunctionStatement } from "./events.ts";
import { notifyTables } from "./tables.ts";

export { realtimeGrantStatements } from "./grants.ts";
export * from "./names.ts";
export { type NotifyTable, notifyTable, notifyTables } from "./tables.ts";

/** Capture functions and triggers for every table with `notify`, then api.realtime_events. */
export function realtimeStatements(schema: Schema): string[] {
  return [...notifyTables(schema).flatMap(captureStatements), eventsFunctionStatement(schema)];
}
