// The names inside one compiled query (a route or a subquery): the base table and join aliases,
// then the enclosing queries'. The loader resolved every where/selector reference already and
// rewrote it to the name found (generator/schema/scope.ts); here a name only leads to its table,
// which the model (generator/model) holds, to know a column's type and permissions.

import type { Model } from "../model/index.ts";
import { primaryKey } from "../schema/index.ts";
import type { Column, Table } from "../schema/types.ts";
import type { Through } from "./source.ts";
import { FUNCTION_VALUES, type RuntimeValues } from "./values.ts";

export interface Source {
  /** The name the query knows it by: the base table's name or a join's alias. */
  name: string;
  table: Table;
}

export class QueryScope {
  readonly sources: Source[] = [];

  /** What the query's FROM items read (source.ts); a subquery reads as its enclosing query does. */
  readonly through: Through;

  /** How it reads `$param` and `#global` values; a subquery as its enclosing query does. */
  readonly values: RuntimeValues;

  /** `depth` 0 is a route's query; each subquery level adds one. */
  constructor(
    readonly model: Model,
    readonly parent?: QueryScope,
    through?: Through,
    values?: RuntimeValues,
  ) {
    this.through = through ?? parent?.through ?? "tables";
    this.values = values ?? parent?.values ?? FUNCTION_VALUES;
  }

  get depth(): number {
    return this.parent ? this.parent.depth + 1 : 0;
  }

  get base(): Source {
    const base = this.sources[0];
    if (!base) throw new Error("a query scope needs its base table first");
    return base;
  }

  add(name: string, tableName: string): Source {
    const source = { name, table: this.model.table(tableName).table };
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
    const table = this.resolve(name)?.table ?? this.model.findTable(name)?.table;
    return table?.columns.find((c) => c.name === column);
  }
}

export function columnOf(table: Table, column: string): Column {
  const found = table.columns.find((c) => c.name === column);
  if (!found) throw new Error(`table "${table.name}" has no column "${column}"`);
  return found;
}

/** The primary key columns; every table has one (the loader checks it). */
export function primaryKeyColumns(table: Table): string[] {
  const pk = primaryKey(table);
  if (pk.length === 0) throw new Error(`table "${table.name}" has no primary key`);
  return pk;
}
