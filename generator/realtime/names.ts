// Names of the realtime objects (docs/realtime.md). The outbox schema is durable (sql/realtime.sql);
// the capture functions live in schema `api`, so dropping the layer drops them and, with them, the
// triggers on the tables (a trigger depends on its function): migrations run with no capture.

import { ident, type Sql } from "../sql/sql.ts";
import { derivedName } from "../tables/names.ts";

/** The durable schema of the outbox: never dropped by a rebuild. */
export const REALTIME_SCHEMA = "api_realtime";
/** The channel of the one NOTIFY per writing transaction (the payload is empty). */
export const REALTIME_CHANNEL = "api_realtime";

/**
 * Advisory lock class ("RTNY") of the notification throttle (capture.ts): a recording transaction
 * sends NOTIFY only if it takes the transaction-level lock (this class, the current 20 ms
 * window), so of concurrent writers only about one per window notifies.
 */
export const NOTIFY_LOCK_CLASS = 0x52544e59;
/** Windows per second of the notification throttle. */
export const NOTIFY_WINDOWS_PER_SECOND = 50;

export const OUTBOX = ident(REALTIME_SCHEMA, "outbox");
export const PRUNED = ident(REALTIME_SCHEMA, "pruned");
export const LAYER = ident(REALTIME_SCHEMA, "layer");

/** `api."realtime_capture_<table>"`: the trigger function of one table (shortened past 63 bytes). */
export function captureFunctionName(table: string): string {
  return derivedName("realtime_capture", table);
}

/** The three statement-level triggers (a trigger with transition tables takes one event). */
export const TRIGGER_NAMES = {
  INSERT: "api:realtime_insert",
  UPDATE: "api:realtime_update",
  DELETE: "api:realtime_delete",
} as const;

export function captureFunctionRef(table: string): Sql {
  return ident("api", captureFunctionName(table));
}
