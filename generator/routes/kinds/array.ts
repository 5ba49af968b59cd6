// ARRAY: every matching row, in the schema's orderBy then the primary key (or the groupBy
// column): `{"data": [...]}`, `[]` when none.

import { sql } from "../../sql/sql.ts";
import { nl } from "../layout.ts";
import { orderList, selectSql } from "../select.ts";
import type { Kind } from "./types.ts";
import { byVisibility } from "./visibility.ts";

export const array: Kind = (_route, compile) => ({
  declare: [],
  statements: (indent) =>
    byVisibility(compile, indent, (compileAs, at) => {
      const inner = `${at}  `;
      const q = compileAs(inner);
      const select = selectSql(q, inner, { orderBy: orderList(q.order, q.tiebreak, false) });
      return [
        sql`RETURN json_build_object('data', (SELECT COALESCE(json_agg(_api_r.j), '[]'::json) FROM (${nl(inner)}${select}${nl(at)}) AS _api_r));`,
      ];
    }),
});
