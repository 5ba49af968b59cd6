// Name resolution inside one compiled query (a route or a subquery), mirroring the loader's
// (generator/schema/scope.ts): the base table and join aliases, then the enclosing queries'.
// The loader already rewrote every where/selector reference to the resolved name; the generator
// only needs the table behind a name, to know a column's type and permissions.

import { primaryKey } from "../schema/index.ts";
import type { Column, Schema, Table } from "../schema/types.ts";

export interface Source {
  /** The name the query knows it by: the base table's name or a join's alias. */
  name: string;
  table: Table;
}

/** Every table of the schema by name; a missing one is a bug (the schema is validated). */
export class Tables {
  private readonly byName: Map<string, Table>;

  constructor(schema: Schema) {
    this.byName = new Map(schema.database.map((t) => [t.name, t]));
  }

  get(name: string): Table {
    const table = this.byName.get(name);
    if (!table) throw new Error(`table "${name}" does not exist (was the schema validated?)`);
    return table;
  }

  find(name: string): Table | undefined {
    return this.byName.get(name);
  }
}

export class QueryScope {
  readonly sources: Source[] = [];

  /** `depth` 0 is a route's query; each subquery level adds one. */
  constructor(
    readonly tables: Tables,
    readonly parent?: QueryScope,
  ) {}

  get depth(): number {
    return this.parent ? this.parent.depth + 1 : 0;
  }

  get base(): Source {
    const base = this.sources[0];
    if (!base) throw new Error("a query scope needs its base table first");
    return base;
  }

  add(name: string, tableName: string): Source {
    const source = { name, table: this.tables.get(tableName) };
    this.sources.push(source);
    return source;
  }

  /** SQL's rule: this query's names first, then the enclosing queries', innermost first. */
  resolve(name: string): Source | undefined {
    for (let scope: QueryScope | undefined = this; scope; scope = scope.parent) {
      const found = scope.sources.find((s) => s.name === name);
      if (found) return found;
    }
    return undefined;
  }

  /** The column `name`.`column` refers to; must exist (the loader checked it). */
  column(name: string, column: string): Column {
    const source = this.resolve(name);
    if (!source) throw new Error(`"${name}" is not a table or alias of this query`);
    return columnOf(source.table, column);
  }

  /**
   * Best effort, for raw SQL: a name of this query or an enclosing one, else a table of the schema
   * (raw SQL may open its own FROM). Undefined when unknown.
   */
  findColumn(name: string, column: string): Column | undefined {
    const table = this.resolve(name)?.table ?? this.tables.find(name);
    return table?.columns.find((c) => c.name === column);
  }
}

export function columnOf(table: Table, column: string): Column {
  const found = table.columns.find((c) => c.name === column);
  if (!found) throw new Error(`table "${table.name}" has no column "${column}" (was the schema validated?)`);
  return found;
}

/** The primary key columns; every table has one (the loader checks it). */
export function primaryKeyColumns(table: Table): string[] {
  const pk = primaryKey(table);
  if (pk.length === 0) throw new Error(`table "${table.name}" has no primary key`);
  return pk;
}
