// node-postgres's bookkeeping of a connection's named statements, for the submittables that write
// their own protocol messages (cellQuery.ts, custom/openTransaction.ts): a name is "parsed" once
// its ParseComplete arrived, "submitted" while its Parse is on the way.

import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * The name a fixed text is kept prepared under: `prefix` and a digest of the text, so a changed
 * text (a new version of the gateway) never meets a connection's statement of the old one.
 */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

interface Bookkeeping {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
}

const of = (connection: pg.Connection) => connection as unknown as Bookkeeping;

/**
 * The text `connection` holds, or has been sent, under `name` (undefined for none or no name),
 * or an Error when that is another text: pg.Query's rule, one text per name on a connection.
 */
export function heldText(
  connection: pg.Connection,
  name: string | undefined,
  text: string,
): string | Error | undefined {
  if (!name) return undefined;
  const held = of(connection);
  const previous = held.parsedStatements[name] ?? held.submittedNamedStatements[name];
  if (previous !== undefined && previous !== text) {
    return new Error(`Prepared statements must be unique - '${name}' was used for a different statement`);
  }
  return previous;
}

/** A Parse under `name` was written: node-postgres records it as parsed at its ParseComplete. */
export function markSubmitted(connection: pg.Connection, name: string, text: string): void {
  of(connection).submittedNamedStatements[name] = text;
}

/** A Parse that was written but skipped (an earlier error ended the batch). */
export function forgetSubmitted(connection: pg.Connection, name: string): void {
  delete of(connection).submittedNamedStatements[name];
}
