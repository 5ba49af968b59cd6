// Name resolution inside one query (a route or a subquery): the base table and join aliases, then
// the enclosing queries' (innermost first); failing that, a joined table's own name. The checks
// rewrite every resolved reference to the name found here (the base table's name or an alias), so
// the generator never resolves names itself.

import type { TableInfo } from "./context.ts";

export interface Source {
  /** The name the query knows it by: the base table's name or a join's alias. */
  name: string;
  /** Undefined when the table does not exist (already reported). */
  info: TableInfo | undefined;
  tableName: string;
  isJoin: boolean;
}

export type Resolution = { source: Source } | { ambiguous: true } | undefined;

export class Scope {
  readonly sources: Source[] = [];
  /** Set when the joins list itself was rejected by the structure check. */
  joinsRejected = false;

  constructor(readonly parent?: Scope) {}

  /**
   * False when the base table is unknown or a join has no usable alias (both already reported):
   * then an unresolved name may be a consequence, and is not reported.
   */
  get complete(): boolean {
    const base = this.sources[0];
    const ownComplete =
      base?.info !== undefined && !this.joinsRejected && this.sources.every((s) => s.name !== "");
    return ownComplete && (this.parent?.complete ?? true);
  }

  add(source: Source): void {
    this.sources.push(source);
  }

  /**
   * SQL's rule first: the base table's name or an alias, innermost query outwards. Then, as a
   * convenience, the table name of a table joined exactly once, innermost query outwards.
   */
  resolve(name: string): Resolution {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const exact = scope.sources.find((s) => s.name === name);
      if (exact) return { source: exact };
    }
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const byTable = scope.sources.filter((s) => s.isJoin && s.tableName === name);
      if (byTable.length === 1) return { source: byTable[0] as Source };
      if (byTable.length > 1) return { ambiguous: true };
    }
    return undefined;
  }

  /** Every name visible here, for suggestions. */
  names(): string[] {
    const own = this.sources.flatMap((s) => (s.isJoin ? [s.name, s.tableName] : [s.name]));
    return [...new Set([...own, ...(this.parent?.names() ?? [])])];
  }
}
