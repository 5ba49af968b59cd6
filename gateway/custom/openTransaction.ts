// `req.db`'s opening in one round trip: BEGIN, the statement that sets the caller's context and
// the handler's first query, written together as extended-protocol messages before a single Sync,
// instead of three exchanges that each wait for the server. The context statement keeps its values
// as bound parameters (a simple-protocol "BEGIN; SELECT ..." string could carry them only as SQL
// text).
//
// The context statement may be named: it is then parsed and planned once per connection, not on
// every request (its text never changes; planned afresh it cost ~70 us of Postgres CPU a request,
// most of it expanding api.set_ctx). Like the route calls' named statements, it relies on
// nothing else on the connection replacing a statement under the gateway's names.
//
// All run in order in one batch. If BEGIN or the context statement fails, Postgres skips the rest
// of the batch (the first query never runs) and the transaction BEGIN opened is left aborted:
// nothing the handler sends next can run without its context, and the caller drops the
// connection anyway.
//
// Without BEGIN (`{ begin: false }`, req.db.queryAlone) the batch is one implicit transaction:
// the context statement and the query run in it, and the Sync commits it (or, after an error,
// rolls it back). The transaction-local settings end with it, so nothing else may follow on
// the connection as this caller.

import type pg from "pg";
import { forgetSubmitted, heldText, markSubmitted } from "../namedStatements.ts";

type Done = (error: Error | null) => void;

/** The context statement: its text and values, and its name when it is to be kept prepared. */
export interface ContextStatement {
  name?: string | undefined;
  text: string;
  values: string[];
}

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
 * Submitted with `client.query(new OpenTransaction(context, first?))`. `done` resolves once
 * BEGIN and the context statement ran (or rejects with their error); `first`, a `pg.Query`, then
 * gets its own replies and settles through its callback.
 */
export class OpenTransaction implements pg.Submittable {
  readonly done: Promise<void>;
  // Set in the constructor (a field initialiser would name a new function per request: see pool.ts).
  private settle!: Done;
  /** Set once `first` has had its error: it hears nothing more. */
  private firstFailed = false;
  /** Command tags still due from BEGIN and the context statement; the replies after them are `first`'s. */
  private openingReplies: number;
  /** The context statement's Parse went out in this batch (under its name, when named). */
  private parsedContext = false;

  constructor(
    private readonly context: ContextStatement,
    private readonly first?: QueryHandlers,
    private readonly options: { begin: boolean } = { begin: true },
  ) {
    this.openingReplies = options.begin ? 2 : 1;
    // Without BEGIN the batch's one implicit transaction holds only while every message is
    // extended-protocol up to the Sync: node-postgres sends a query without values or name as a
    // simple Query, which Postgres runs outside that transaction (the context's settings then
    // outlive it, and no commit happens at the Sync). Measured: test/custom/openTransaction.test.ts.
    if (!options.begin && first) (first as { queryMode?: string }).queryMode = "extended";
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  /**
   * node-postgres records a named statement as prepared on the connection (under the running
   * query's name, with its text) when a ParseComplete arrives. BEGIN's (unnamed) comes before its
   * command tag, the context statement's between BEGIN's tag and its own, the first query's after.
   */
  get name(): string | undefined {
    if (this.openingReplies === 1) return this.context.name;
    return this.openingReplies === 0 ? this.first?.name : undefined;
  }

  get text(): string | undefined {
    if (this.openingReplies === 1) return this.context.text;
    return this.openingReplies === 0 ? this.first?.text : undefined;
  }

  submit(connection: pg.Connection): Error | null {
    const { name = "", text, values } = this.context;
    // Refused before anything is written (node-postgres then calls handleError).
    const previous = heldText(connection, name, text);
    if (previous instanceof Error) return previous;
    const stream = connection.stream as { cork?: () => void; uncork?: () => void };
    // Corked: every message and the Sync leave in one write.
    stream.cork?.();
    try {
      if (this.options.begin) {
        connection.parse({ name: "", text: "BEGIN", types: [] }, true);
        connection.bind({ values: [] }, true);
        connection.execute({}, true);
      }
      if (previous === undefined) {
        connection.parse({ name, text, types: [] }, true);
        if (name) markSubmitted(connection, name, text);
        this.parsedContext = true;
      }
      connection.bind({ statement: name, values }, true);
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
    return null;
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
      // Parses written but skipped: the connection must not believe them pending. (node-postgres
      // clears the context statement's itself when the error is that statement's.)
      if (this.first?.name) forgetSubmitted(connection, this.first.name);
      if (this.options.begin && this.openingReplies === 2 && this.parsedContext && this.context.name)
        forgetSubmitted(connection, this.context.name);
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
