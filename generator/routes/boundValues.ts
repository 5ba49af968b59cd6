// Runtime values as typed parameters of their own, for the gateway's own read statements
// (kinds/readViews.ts): `$1::bigint` where a route function reads `($1->>'id')::bigint` from its
// jsonb request. Postgres then parses no JSON and extracts no member on each call: `GET /user/me`
// of the Restura fixture costs 128k instructions so, 148k with the two jsonb parameters
// (docs/performance.md). The gateway computes each parameter's text from the validated request
// and the caller as `->>` or `->` would give it (gateway/routes/readStatement.ts).

import type { Column } from "../schema/types.ts";
import { param, type Sql, sql } from "../sql/sql.ts";
import { castSql, castType, type RuntimeValues, type ValueSource } from "./values.ts";

/** One parameter: the value it holds, as JSON text (`->`) or as `->>` gives it. */
export interface BoundValue {
  from: ValueSource;
  name: string;
  json: boolean;
}

/** Collects the parameters a query reads, each once, numbered as the text names them (sql.ts toQuery). */
export class BoundValues implements RuntimeValues {
  private readonly bound = new Map<string, ReturnType<typeof param>>();

  value(from: ValueSource, name: string, column: Column | undefined): Sql {
    const type = column ? castType(column) : "text";
    if (type === "jsonb") return sql`${this.bind({ from, name, json: true })}::jsonb`;
    return sql`${this.bind({ from, name, json: false })}::${castSql(type)}`;
  }

  array(name: string, column: Column | undefined): Sql {
    const json = this.bind({ from: "param", name, json: true });
    const elements = sql`ARRAY(SELECT pg_catalog.jsonb_array_elements_text(${json}::jsonb))`;
    const type = column ? castType(column) : "text";
    return type === "text" ? elements : sql`${elements}::${castSql(type)}[]`;
  }

  private bind(value: BoundValue) {
    const key = `${value.from}\0${value.name}\0${value.json}`;
    let found = this.bound.get(key);
    if (found === undefined) {
      found = param(value);
      this.bound.set(key, found);
    }
    return found;
  }
}
