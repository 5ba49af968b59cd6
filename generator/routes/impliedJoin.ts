// An INNER join that can neither add nor remove a row of the route, whoever calls: every row of
// the base table the caller can see has exactly one row of the joined table, and the caller can
// see that row too. Such a join only brings columns. Where a query needs none of them (a count,
// the keys of a page) it is dropped or written as a LEFT join, which Postgres removes itself when
// nothing reads it; the hand-written SQL it is measured against never joins there at all.
// The example's projects filtered by status: the join to the company, read whole (50 rows, each
// tested against its two policies) once for the keys and once for the count, cost about 105k
// instructions of each of those statements.
//
// The proof, from the schema alone (the base table C, the joined table P):
// - the join is on one column of C's, compared with one column of P's that is unique in P
//   (joinsOneRow), and not raw SQL;
// - a foreign key of C holds that column, refers to P by the same position, and none of its
//   columns is nullable: a row of C then has its row of P (a nullable column would let the
//   foreign key skip the check);
// - P's rows are all visible (no policies, or a policy for every caller without conditions), or
//   P has a policy for every caller (no roles, no scopes) with an OR group that is one condition
//   `P.x = #g`, where x is a column of that foreign
//   key, and every OR group of every policy of C holds `C.y = #g` for the column y that the key
//   pairs with x (columns whose type casts the global alike). A visible row of C then has
//   y = #g, its row of P has x = y (the key), so that policy of P lets the caller see it.
// P's table rule (roles, scopes) needs no proof: the route function refuses a caller who fails
// the rule of any table its query reads before it reads any (permissions.ts).

import { orOfAnds } from "../api/conditions.ts";
import { castTypeOf } from "../api/globals.ts";
import type { Join, Policy, WhereCondition } from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import type { QueryScope } from "./scope.ts";
import { joinsOneRow } from "./unique.ts";

/** Whether the INNER join `j` of the route whose scope is `scope` neither adds nor removes rows. */
export function joinImpliedByPolicies(j: Join, scope: QueryScope): boolean {
  // joinsOneRow below refuses a raw ON.
  if (j.type !== "INNER" || j.localColumnName === undefined) return false;
  const base = scope.base;
  if ((j.localTableAlias ?? base.name) !== base.name) return false;
  const parent = scope.model.table(j.table);
  if (!joinsOneRow(j, parent.table)) return false;
  const child = scope.model.table(base.table.name);
  const local = j.localColumnName;
  return child.table.foreignKeys.some((fk) => {
    const at = fk.columns.indexOf(local);
    if (fk.refTable !== parent.name || at < 0 || fk.refColumns[at] !== j.foreignColumnName) return false;
    if (!fk.columns.every((c) => child.column(c)?.nullable === false)) return false;
    if (parent.policies.length === 0) return true;
    return parent.policies.some(
      (policy) =>
        policy.roles.length === 0 &&
        policy.scopes.length === 0 &&
        (policy.where.length === 0 ||
          orOfAnds(policy.where).some((group) => {
            const pinned = group.length === 1 ? globalPin(group[0] as WhereCondition) : undefined;
            if (!pinned) return false;
            const i = fk.refColumns.indexOf(pinned.column);
            const paired = fk.columns[i];
            if (i < 0 || paired === undefined) return false;
            const [y, x] = [child.column(paired), parent.column(pinned.column)];
            if (!y || !x || castTypeOf(y.column) !== castTypeOf(x.column)) return false;
            return everyGroupPins(child.policies, paired, pinned.global);
          })),
    );
  });
}

/** Every OR group of every one of `policies` holds `column = #global` (false without policies). */
function everyGroupPins(policies: readonly Policy[], columnName: string, global: string): boolean {
  return (
    policies.length > 0 &&
    policies.every(
      (policy) =>
        // No conditions: the policy shows every row.
        policy.where.length > 0 &&
        orOfAnds(policy.where).every((group) =>
          group.some((c) => {
            const pinned = globalPin(c);
            return pinned?.column === columnName && pinned.global === global;
          }),
        ),
    )
  );
}

/**
 * A condition `column = #global` of a policy (the loader holds a policy to its own table's
 * columns): its column and global, else undefined.
 */
function globalPin(c: WhereCondition): { column: string; global: string } | undefined {
  if (c.custom !== undefined || c.operator !== "=" || c.columnName === undefined) return undefined;
  if (typeof c.value !== "string") return undefined;
  const form = classifyValue(c.value);
  // `#scopes` is a list, not one value.
  return form.kind === "global" && form.name !== "scopes"
    ? { column: c.columnName, global: form.name }
    : undefined;
}
