// `req.db`'s opening in one round trip: BEGIN, the statement that sets the caller's context and
// the handler's first query, written together as extended-protocol messages before a single Sync,
// instead of three exchanges that each wait for the server. The context statement keeps its values
// as bound parameters (a simple-protocol "BEGIN; SELECT ..." string could carry them only as SQL
// text).
//
// All run in order in one batch. If BEGIN or the context statement fails, Postgres skips the rest
// of the batch (the first query never runs) and the transaction BEGIN opened is left aborted:
// nothing the handler sends next can run without its context, and the caller drops the
// connection anyway.

import type pg from "pg";

type Done = (error: Error | null) => void;

/** The replies node-postgres hands to the query it is running (pg.Query implements them all). */
interface QueryHandlers {
  name?: string;
  text?: string;
  submit(connection: pg.Connection): Error | null | undefined;
  handleRowDescription(msg: unknown): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: pg.Connection): void;
  handleEmptyQuery(connection: pg.Connection): void;
  handlePortalSuspended(connection: pg.Connection): void;
  handleError(error: Error, connection: pg.Connection): void;
  handleReadyForQuery(connection: pg.Connection): void;
}

/**
 * Submitted with `client.query(new OpenTransaction(text, values, first?))`. `done` resolves once
 * BEGIN and the context statement ran (or rejects with their error); `first`, a `pg.Query`, then
 * gets its own replies and settles through its callback.
 */
export class OpenTransaction implements pg.Submittable {
  readonly done: Promise<void>;
  private settle: Done = () => {};
  /** Set once `first` has had its error: it hears nothing more. */
  private firstFailed = false;
  /** Command tags still due from BEGIN and the context statement; the replies after them are `first`'s. */
  private openingReplies = 2;

  constructor(
    private readonly contextText: string,
    private readonly contextValues: string[],
    private readonly first?: QueryHandlers,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  /**
   * node-postgres records a named statement as prepared on the connection (under the running
   * query's name, with its text) when a ParseComplete arrives: only the first query's may count.
   */
  get name(): string | undefined {
    return this.openingReplies === 0 ? this.first?.name : undefined;
  }

  get text(): string | undefined {
    return this.openingReplies === 0 ? this.first?.text : undefined;
  }

  submit(connection: pg.Connection): void {
    const stream = connection.stream as { cork?: () => void; uncork?: () => void };
    // Corked: every message and the Sync leave in one write.
    stream.cork?.();
    try {
      connection.parse({ name: "", text: "BEGIN", types: [] }, true);
      connection.bind({ values: [] }, true);
      connection.execute({}, true);
      connection.parse({ name: "", text: this.contextText, types: [] }, true);
      connection.bind({ values: this.contextValues }, true);
      connection.execute({}, true);
      if (!this.first) connection.sync();
      else {
        // pg.Query writes its Parse (unless the connection holds the statement), Bind, Describe,
        // Execute and the Sync. It refuses before writing anything (a name reused for another
        // text), or fails alone on a value it cannot serialize, after writing a Sync.
        const refused = this.first.submit(connection);
        if (refused) {
          connection.sync();
          this.failFirst(refused, connection);
        }
      }
    } finally {
      stream.uncork?.();
    }
  }

  handleRowDescription(msg: unknown): void {
    if (this.openingReplies === 0) this.first?.handleRowDescription(msg);
  }

  handleDataRow(msg: unknown): void {
    if (this.openingReplies === 0) this.first?.handleDataRow(msg);
  }

  handleCommandComplete(msg: unknown, connection: pg.Connection): void {
    if (this.openingReplies === 0) {
      this.first?.handleCommandComplete(msg, connection);
      return;
    }
    this.openingReplies--;
    if (this.openingReplies === 0) this.settle(null);
  }

  handleEmptyQuery(connection: pg.Connection): void {
    if (this.openingReplies === 0) this.first?.handleEmptyQuery(connection);
  }

  handlePortalSuspended(connection: pg.Connection): void {
    if (this.openingReplies === 0) this.first?.handlePortalSuspended(connection);
  }

  /**
   * The first error ends the batch (Postgres skips to the Sync); node-postgres sends no
   * ReadyForQuery here after it. An error of the opening is the first query's too: it never ran.
   */
  handleError(error: Error, connection: pg.Connection): void {
    if (this.openingReplies > 0) {
      this.settle(error);
      if (this.first?.name) {
        // Its Parse was written but skipped: the connection must not believe it pending.
        const pending = (connection as unknown as { submittedNamedStatements: Record<string, string> })
          .submittedNamedStatements;
        delete pending[this.first.name];
      }
    }
    this.failFirst(error, connection);
  }

  handleReadyForQuery(connection: pg.Connection): void {
    this.settle(null);
    if (!this.firstFailed) this.first?.handleReadyForQuery(connection);
  }

  private failFirst(error: Error, connection: pg.Connection): void {
    if (this.firstFailed) return;
    this.firstFailed = true;
    this.first?.handleError(error, connection);
  }
}
