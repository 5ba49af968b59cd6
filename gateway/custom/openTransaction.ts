// `req.db`'s opening in one round trip: BEGIN and the statement that sets the caller's context,
// written together as extended-protocol messages before a single Sync, instead of two queries
// that each wait for the server. The context statement keeps its values as bound parameters
// (a simple-protocol "BEGIN; SELECT ..." string could carry them only as SQL text).
//
// Both run in order in one batch. If the context statement fails, the transaction BEGIN opened is
// left aborted: nothing the handler sends next can run without its context (Postgres refuses every
// statement until the transaction ends), and the caller drops the connection anyway.

import type pg from "pg";

type Done = (error: Error | null) => void;

/** Submitted with `client.query(new OpenTransaction(text, values))`; resolves once both ran. */
export class OpenTransaction implements pg.Submittable {
  readonly done: Promise<void>;
  private settle: Done = () => {};

  constructor(
    private readonly text: string,
    private readonly values: string[],
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  submit(connection: pg.Connection): void {
    const stream = connection.stream as { cork?: () => void; uncork?: () => void };
    // Corked: the six messages and the Sync leave in one write.
    stream.cork?.();
    try {
      connection.parse({ name: "", text: "BEGIN", types: [] }, true);
      connection.bind({ values: [] }, true);
      connection.execute({}, true);
      connection.parse({ name: "", text: this.text, types: [] }, true);
      connection.bind({ values: this.values }, true);
      connection.execute({}, true);
      connection.sync();
    } finally {
      stream.uncork?.();
    }
  }

  // node-postgres hands every reply of the batch to the query it is running: the context
  // statement's row and both command tags carry nothing the caller needs.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  /** The first error ends the batch (Postgres skips to the Sync); pg sends no ReadyForQuery here after it. */
  handleError(error: Error): void {
    this.settle(error);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }
}
