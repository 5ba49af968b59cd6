// A subquery property: the related rows as a JSON array (`[]` when none), in the subquery's
// orderBy then its primary key (stable output). Subqueries nest to any depth; each sees its
// enclosing queries' names, so its where links to the parent with `"user"."id"`.
//
//   (SELECT COALESCE(json_agg(_api_s1.j), '[]'::json) FROM (
//     SELECT json_build_object(...) AS j FROM api."order" AS "order" WHERE ... ORDER BY ...
//   ) AS _api_s1)
//
// The rows are ordered in the derived table and aggregated in that order (as PostgREST does), so
// a grouped subquery works like any other.

import type { Model } from "../model/index.ts";
import type { Subquery } from "../schema/types.ts";
import { ident, type Sql, sql } from "../sql/sql.ts";
import { nl } from "./layout.ts";
import type { ObjectForm } from "./object.ts";
import type { Access, Checks } from "./permissions.ts";
import type { QueryScope } from "./scope.ts";
import { compileQuery, orderList, selectSql } from "./select.ts";

export function subquerySql(
  spec: Subquery,
  model: Model,
  checks: Checks,
  indent: string,
  parent: QueryScope,
  form: ObjectForm,
): { expr: Sql; rules: Access[] } {
  const inner = `${indent}  `;
  const q = compileQuery({ ...spec, properties: spec.properties }, model, checks, inner, parent, form);
  const alias = ident(`_api_s${q.scope.depth}`);
  const select = selectSql(q, inner, { orderBy: orderList(q.order, q.tiebreak, false) });
  return {
    expr: sql`(SELECT COALESCE(json_agg(${alias}.j), '[]'::json) FROM (${nl(inner)}${select}${nl(indent)}) AS ${alias})`,
    rules: q.columnRules,
  };
}
