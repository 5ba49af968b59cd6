// The standard routes' one statement, `SELECT api."<route fn>"($1, $2)`, answers one text cell:
// the response body. node-postgres's pg.Query serves every kind of statement, and per call it
// copies its config, asks the server to describe the result (a RowDescription on every
// execution), builds a Result and looks up a parser for each field. CellQuery does only what one
// cell needs: Parse (once per connection for a named statement), Bind, Execute and Sync in one
// write, then keeps the cell's text. Measured on GET /company/public/:id, 32 calls in flight on 10
// connections: 31 against 25 µs of Node CPU a call (docs/performance.md "Node side").

import type pg from "pg";
import { heldText, markSubmitted } from "./namedStatements.ts";

/** A statement whose answer is one text cell; `pool.query` runs it as a CellQuery (pool.ts). */
export type CellStatement = pg.QueryArrayConfig<(string | null)[]> & { readonly cell: true };

export function cellStatement(
  name: string | undefined,
  text: string,
  values: (string | null)[],
): CellStatement {
  return { name, text, values, rowMode: "array", cell: true };
}

export function isCellStatement(value: unknown): value is CellStatement {
  return (value as { cell?: unknown } | null)?.cell === true;
}

type Callback = (error: Error | null, result?: pg.QueryArrayResult) => void;

/**
 * One run of a CellStatement, submitted with `client.query(new CellQuery(statement), callback)`.
 * A new one per attempt: a submittable keeps the state of the run it served.
 */
export class CellQuery implements pg.Submittable {
  readonly name: string | undefined;
  readonly text: string;
  callback: Callback | undefined;
  private readonly values: (string | null)[];
  private cell: string | null | undefined;

  constructor(statement: CellStatement) {
    this.name = statement.name;
    this.text = statement.text;
    this.values = statement.values ?? [];
  }

  submit(connection: pg.Connection): Error | null {
    const name = this.name;
    const previous = heldText(connection, name, this.text);
    if (previous instanceof Error) return previous;
    const stream = connection.stream as { cork?: () => void; uncork?: () => void };
    stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ name: name ?? "", text: this.text, types: [] }, true);
        if (name) markSubmitted(connection, name, this.text);
      }
      // No Describe: the answer's one column is known, so the server sends no RowDescription.
      // The values are strings or NULL, which Bind cannot fail to write.
      connection.bind({ statement: name ?? "", values: this.values }, true);
      connection.execute({}, true);
      connection.sync();
    } finally {
      stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(): void {}

  handleDataRow(msg: { fields: (string | null)[] }): void {
    if (this.cell === undefined) this.cell = msg.fields[0] ?? null;
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  /** node-postgres sends no ReadyForQuery to a query after its error: it settles here. */
  handleError(error: Error): void {
    this.callback?.(error);
  }

  handleReadyForQuery(): void {
    const rows = this.cell === undefined ? [] : [[this.cell]];
    this.callback?.(null, { command: "SELECT", rowCount: rows.length, oid: 0, fields: [], rows });
  }
}
