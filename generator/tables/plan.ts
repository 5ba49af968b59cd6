// What a migration plan accumulates while the diff runs: statements by phase, refusals,
// preconditions and a one-line description of each change.

import type { Diagnostic } from "../schema/types.ts";
import type { Sql } from "../sql/sql.ts";
import type { TableModel } from "./model.ts";
import type { TablePair } from "./renames.ts";

export interface PlanOptions {
  /** The user confirmed changes that lose data (ALLOW_DATA_LOSS=1). */
  allowDataLoss: boolean;
  /** Extensions of the previous schema (absent: none). */
  extensionsBefore?: readonly string[];
  /** Extensions of the next schema (absent: none). */
  extensionsAfter?: readonly string[];
  /** The application's name, shown in the confirmation command of refusals. */
  app?: string;
}

/** A query returning one row with one boolean column `failed`, run before anything is applied. */
export interface Precondition {
  /** Where in the next schema the change comes from, e.g. `database[2].columns[4]`. */
  path: string;
  sql: string;
  /** Shown (with the path) when `failed` is true; the migration is then not applied. */
  message: string;
}

export interface MigrationPlan {
  /** Statements, each ending with `;`, in a valid order. Empty when nothing changed or something was refused. */
  statements: string[];
  /** Destructive changes that need allowDataLoss. When not empty, nothing may be applied. */
  refusals: Diagnostic[];
  preconditions: Precondition[];
  /** One line per change (not per statement), e.g. `add column "user"."phone"`; tables by name. */
  changes: string[];
  /** A short title for the migration file: the first change, and how many more. */
  title: string;
}

/** The previous and next version of one table, after renames. */
export interface PairModels {
  pair: TablePair;
  /** The previous table as it is after this migration's renames. */
  before: TableModel;
  after: TableModel;
}

/** Statement phases, in the order they run (see diff.ts). */
export class Phases {
  readonly extensions: Sql[] = [];
  readonly renames: Sql[] = [];
  readonly dropForeignKeys: Sql[] = [];
  readonly dropConstraints: Sql[] = [];
  readonly dropTables: Sql[] = [];
  readonly dropColumns: Sql[] = [];
  readonly createTables: Sql[] = [];
  readonly alterColumns: Sql[] = [];
  readonly addConstraints: Sql[] = [];
  readonly addForeignKeys: Sql[] = [];
  readonly comments: Sql[] = [];
}

export class PlanBuilder {
  readonly phases = new Phases();
  private readonly refusals: Diagnostic[] = [];
  private readonly preconditions: Precondition[] = [];
  private readonly changes: string[] = [];

  constructor(readonly options: PlanOptions) {}

  note(change: string): void {
    this.changes.push(change);
  }

  /** A destructive change: refused unless the user confirmed data loss. */
  destructive(path: string, message: () => string): void {
    if (!this.options.allowDataLoss) this.refusals.push({ path, message: message() });
  }

  precondition(path: string, query: Sql, message: string): void {
    this.preconditions.push({ path, sql: query.toString(), message });
  }

  result(): MigrationPlan {
    const changes = this.changes;
    const [first] = changes;
    const title =
      first === undefined ? "" : changes.length === 1 ? first : `${first} and ${changes.length - 1} more`;
    if (this.refusals.length > 0) {
      return { statements: [], refusals: this.refusals, preconditions: [], changes, title };
    }
    const statements = Object.values(this.phases)
      .flat()
      .map((statement) => `${statement};`);
    return { statements, refusals: [], preconditions: this.preconditions, changes, title };
  }
}

/** `"table"` or `"table"."column"`, as in messages and change descriptions. */
export function quoted(...names: string[]): string {
  return names.map((n) => `"${n.replaceAll('"', '""')}"`).join(".");
}

/** `database[i]...`: `i` is the table's position in the next schema, as the user wrote it. */
export function tablePath(models: PairModels, suffix = ""): string {
  return `database[${models.pair.nextIndex}]${suffix}`;
}
