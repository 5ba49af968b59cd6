// Which of `req.db`'s statements, and of the gateway's own PAGED page texts
// (routes/pagedStatement.ts), run as named prepared statements: planned once per connection
// instead of on every call (with row security and the API views to expand, planning a handler's
// query can cost more than running it).
//
// A text is prepared from its second run in this process on (one-off texts, such as SQL built
// with values inlined, are never kept), and a connection keeps at most PER_CONNECTION of them:
// past that its new texts run unnamed, so a handler that builds endless texts cannot grow the
// server's memory. Only plain data statements qualify; the name is a hash of the text, so two texts
// never share one.

import { createHash } from "node:crypto";
import { isMissingStatement } from "../ops/connectionFailures.ts";

const PER_CONNECTION = 100;
/** Texts remembered process-wide (seen once: no name yet); forgotten all at once when full. */
const REMEMBERED = 2000;
const DATA_STATEMENT = /^\s*(select|with|insert|update|delete|values|table)\b/i;

/** Data statements seen in this process: their name once run twice, null after one run. */
const names = new Map<string, string | null>();
const preparedOn = new WeakMap<object, Set<string>>();

/** The statement name `text` runs under on `connection`, or undefined to run it unnamed. */
export function preparedName(connection: object, text: string): string | undefined {
  if (!DATA_STATEMENT.test(text)) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= REMEMBERED) names.clear();
    names.set(text, null);
    return undefined;
  }
  if (name === null) {
    name = `req_db_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
    names.set(text, name);
  }
  let held = preparedOn.get(connection);
  if (!held) {
    held = new Set();
    preparedOn.set(connection, held);
  }
  if (held.has(name)) return name;
  if (held.size >= PER_CONNECTION) return undefined;
  held.add(name);
  return name;
}

/**
 * A named statement this connection can never run again, so the statement never ran:
 * - Postgres refuses one whose result columns changed since it was prepared (a migrate added a
 *   column to a view it reads with `*`): "cached plan must not change result type" (0A000);
 * - the statement is gone (26000): handler SQL ran DEALLOCATE on this pooled connection, and the
 *   bookkeeping here (and node-postgres's) still believes it held.
 */
export function isLostStatement(error: unknown): boolean {
  if (isMissingStatement(error)) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === "0A000" &&
    typeof e.message === "string" &&
    e.message.includes("cached plan must not change result type")
  );
}
