// The standard routes' one statement, `SELECT api."<route fn>"($1, $2)`, answers one text cell:
// the response body. node-postgres's pg.Query serves every kind of statement, and per call it
// copies its config, asks the server to describe the result (a RowDescription on every
// execution), builds a Result and looks up a parser for each field. CellQuery does only what one
// cell needs: Parse (once per connection for a named statement), Bind, Execute and Sync in one
// write, then keeps the cell's text. Measured on GET /company/public/:id, 32 calls in flight on 10
// connections: 31 against 25 µs of Node CPU a call (docs/performance.md "Node side").
//
// A CellStatement may run other statements before it in the same batch (`before`: a PAGED page
// the gateway builds first sets the caller's context, gateway/routes/pagedStatement.ts). They run
// in one implicit transaction that the Sync commits; an error skips the rest, and the cell is the
// last statement's. A statement marked `utc` (the gateway's own reads) is preceded by `SET TimeZone`
// on a connection whose session is not in UTC (sessionZone.ts).

import type pg from "pg";
import { forgetSubmitted, heldText, markSubmitted } from "./namedStatements.ts";
import { inUtc, SET_UTC } from "./sessionZone.ts";

/** One statement of a batch: its name when kept prepared, its parameters' type OIDs (default: inferred). */
export interface Step {
  name: string | undefined;
  text: string;
  values: (string | null)[];
  types?: number[];
}

/**
 * A statement whose answer is one text cell; `pool.query` runs it as a CellQuery (pool.ts).
 * `named` chooses its name on the connection it runs on (it wins over `name`).
 */
export type CellStatement = pg.QueryArrayConfig<(string | null)[]> & {
  readonly cell: true;
  readonly before?: readonly Step[];
  readonly paramTypes?: number[];
  readonly named?: (connection: pg.Connection) => string | undefined;
  /** It renders timestamps: run in a session whose TimeZone is UTC (set first where not: sessionZone.ts). */
  readonly utc?: boolean;
};

export function cellStatement(
  name: string | undefined,
  text: string,
  values: (string | null)[],
  more?: Pick<CellStatement, "before" | "paramTypes" | "named" | "utc">,
): CellStatement {
  return { name, text, values, rowMode: "array", cell: true, ...more };
}

/** The statements `statement` sends, in order, the cell's last, under `name` on the connection. */
export function batchSteps(statement: CellStatement, name: string | undefined): Step[] {
  const last: Step = {
    name,
    text: statement.text,
    values: statement.values ?? [],
    ...(statement.paramTypes ? { types: statement.paramTypes } : {}),
  };
  return statement.before ? [...statement.before, last] : [last];
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
  callback: Callback | undefined;
  private readonly statement: CellStatement;
  /** The batch, the cell's statement last; set at submit (a name may depend on the connection). */
  private steps: Step[] | undefined;
  /** Statements whose CommandComplete arrived: the next ParseComplete and rows are the next one's. */
  private completed = 0;
  private cell: string | null | undefined;

  constructor(statement: CellStatement) {
    this.statement = statement;
  }

  /** node-postgres records a ParseComplete under the running query's name and text. */
  get name(): string | undefined {
    return this.steps ? this.steps[this.completed]?.name : this.statement.name;
  }

  get text(): string {
    return this.steps?.[this.completed]?.text ?? this.statement.text;
  }

  submit(connection: pg.Connection): Error | null {
    const s = this.statement;
    const steps = batchSteps(s, s.named ? s.named(connection) : s.name);
    if (s.utc && !inUtc(connection)) steps.unshift({ name: undefined, text: SET_UTC, values: [] });
    // Refused before anything is written (node-postgres then calls handleError).
    const held: (string | undefined)[] = [];
    for (const step of steps) {
      const previous = heldText(connection, step.name, step.text);
      if (previous instanceof Error) return previous;
      held.push(previous);
    }
    this.steps = steps;
    const stream = connection.stream as { cork?: () => void; uncork?: () => void };
    stream.cork?.();
    try {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i] as Step;
        const statement = step.name ?? "";
        if (held[i] === undefined) {
          // Type OIDs where the text leaves a parameter's type open (`$1->>'page'`); pg's typing says strings.
          const types = (step.types ?? []) as unknown as string[];
          connection.parse({ name: statement, text: step.text, types }, true);
          if (step.name) markSubmitted(connection, step.name, step.text);
        }
        // No Describe: the answer's one column is known, so the server sends no RowDescription.
        // The values are strings or NULL, which Bind cannot fail to write.
        connection.bind({ statement, values: step.values }, true);
        connection.execute({}, true);
      }
      connection.sync();
    } finally {
      stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(): void {}

  handleDataRow(msg: { fields: (string | null)[] }): void {
    const last = (this.steps?.length ?? 1) - 1;
    if (this.completed === last && this.cell === undefined) this.cell = msg.fields[0] ?? null;
  }

  handleCommandComplete(): void {
    this.completed++;
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  /**
   * node-postgres sends no ReadyForQuery to a query after its error: it settles here. The error
   * skipped the rest of the batch: a Parse written for the failed statement or after it may
   * never have run (a ParseComplete that did arrive already moved the name to the parsed ones).
   */
  handleError(error: Error, connection?: pg.Connection): void {
    const steps = this.steps ?? [];
    if (connection) {
      for (let i = this.completed; i < steps.length; i++) {
        const name = steps[i]?.name;
        if (name) forgetSubmitted(connection, name);
      }
    }
    this.callback?.(error);
  }

  handleReadyForQuery(): void {
    const rows = this.cell === undefined ? [] : [[this.cell]];
    this.callback?.(null, { command: "SELECT", rowCount: rows.length, oid: 0, fields: [], rows });
  }
}
