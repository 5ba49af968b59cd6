// Constraint violations of a write route, named by the request's fields: the schema's constraints
// come from the model (generator/model/constraints.ts, the names the DDL uses, never Postgres's
// message text); `routeConstraints` maps their columns to the fields the client sent.

import type { ConstraintIndex } from "../generator/model/constraints.ts";
import type { ModelRoute } from "../generator/model/index.ts";

/**
 * The constraints as one write route answers with them: a unique, foreign key or check violation
 * on the route's own table names the fields the client sent, not the columns behind them. A
 * composite key such as `(assigneeId, companyId) -> user (id, companyId)`, with `companyId`
 * assigned from the token, is reported as `assigneeId` alone: the client never saw `companyId`,
 * and naming it would suggest sending it; a column written from `$level` is reported as `level`.
 * When no column of the constraint came from the request (all assigned from the token, say), the
 * columns are named as they are: there is no field to point at.
 */
export function routeConstraints(index: ConstraintIndex, route: ModelRoute): ConstraintIndex {
  // DELETE answers "still referenced by <other table> (<its columns>)": those are not fields.
  if (route.method === "DELETE" || !route.table) return index;
  const base = route.table.name;
  // The request field that sets each column: a body parameter writes its own column, an
  // assignment `{name: "c", value: "$p"}` writes `c` from `p` (the model's write rule).
  const fields = new Map(route.writes.map((w) => [w.column.name, w.param]));
  return {
    hasColumn: index.hasColumn,
    find(tableName, name) {
      const info = index.find(tableName, name);
      if (!info || tableName !== base) return info;
      const sent = info.columns.flatMap((c) => {
        const field = fields.get(c);
        return field === undefined ? [] : [field];
      });
      return sent.length > 0 ? { ...info, columns: [...new Set(sent)] } : info;
    },
  };
}
