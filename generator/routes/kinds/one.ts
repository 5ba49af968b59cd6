// ONE: exactly one row. None is A0404, more than one A0409. `{"data": {...}}`.
// When the schema proves the query returns at most one row (unique.ts: the where pins a unique
// key, joins add no rows), the row is read with `SELECT ... INTO` and `FOUND`; otherwise the query
// reads at most two rows and counts them (about 2 us more a call).

import { literal, sql } from "../../sql/sql.ts";
import { nl } from "../layout.ts";
import { raise, SQLSTATE } from "../permissions.ts";
import { selectSql } from "../select.ts";
import { returnsAtMostOneRow } from "../unique.ts";
import type { Kind } from "./types.ts";
import { byVisibility } from "./visibility.ts";

export const notFoundMessage = (table: string) => `No ${table} matches the request`;
export const conflictMessage = (table: string) => `More than one ${table} matches the request`;

export const one: Kind = (route, compile) => {
  const single = returnsAtMostOneRow(route, compile("").scope);
  return {
    declare: single ? [sql`_api_row json;`] : [sql`_api_row json;`, sql`_api_count bigint;`],
    statements: (indent) => {
      const notFound = raise(SQLSTATE.notFound, notFoundMessage(route.table));
      if (single) {
        return byVisibility(compile, indent, (compileAs, at) => {
          const q = compileAs(at);
          return [
            sql`${selectSql(q, at, { select: sql`${q.object} INTO _api_row` })};`,
            sql`IF NOT FOUND THEN${nl(`${at}  `)}${notFound}${nl(at)}END IF;`,
            sql`RETURN json_build_object('data', _api_row);`,
          ];
        });
      }
      return byVisibility(compile, indent, (compileAs, at) => {
        const inner = `${at}  `;
        const select = selectSql(compileAs(inner), inner, { limit: literal(2) });
        return [
          sql`SELECT (array_agg(_api_r.j))[1], count(*) INTO _api_row, _api_count FROM (${nl(inner)}${select}${nl(at)}) AS _api_r;`,
          sql`IF _api_count = 0 THEN${nl(inner)}${notFound}${nl(at)}ELSIF _api_count > 1 THEN${nl(inner)}${raise(SQLSTATE.conflict, conflictMessage(route.table))}${nl(at)}END IF;`,
          sql`RETURN json_build_object('data', _api_row);`,
        ];
      });
    },
  };
};
