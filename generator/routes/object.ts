// The JSON object of one row: `json_build_object('id', "user"."id", ...)`, keys in the schema's
// response order. A property whose column has roles/scopes is left out (key and value) for
// callers who fail the column rule:
// - every such column visible (the common case): the same `json_build_object` of all properties;
// - otherwise: consecutive public properties as one `json_build_object`, each restricted one as
//   `CASE WHEN <allowed> THEN json_build_object(...) END`, merged in order by
//   `api.json_concat_objects(json[])` (skips NULLs). Key order stays the schema's and the text is
//   the same as `json_build_object` would write.
// `json_build_object` takes at most 100 arguments: objects of more than 50 properties always use
// the merged form. The `allowed` tests are `(SELECT <rule on ctx>)`: once per statement.
// A function can instead choose between the two forms itself, one statement each
// (kinds/visibility.ts: the `all` and `some` forms below), so Postgres sets up only the one it runs.

import { join, literal, type Sql, sql } from "../sql/sql.ts";
import { nl } from "./layout.ts";
import { type Access, accessKey, allowedCall, allowedOnce } from "./permissions.ts";

export interface Member {
  name: string;
  value: Sql;
  /** The column rule when the value is a column with roles/scopes. */
  access?: Access;
}

const MAX_PAIRS = 50;

/**
 * Which caller the object is built for: `either` (the CASE above), or, where the function chooses
 * between two statements by `allVisible` (kinds/visibility.ts), `all` (every column rule passes:
 * all properties) or `some` (the merged form, each restricted property behind its rule).
 */
export type ObjectForm = "either" | "all" | "some";

export function objectSql(members: readonly Member[], indent: string, form: ObjectForm = "either"): Sql {
  const restricted = members.filter((m) => m.access !== undefined);
  if ((restricted.length === 0 || form === "all") && members.length <= MAX_PAIRS)
    return buildObject(members, indent);
  if (members.length > MAX_PAIRS || form === "some") return mergedObject(members, indent);
  const inner = `${indent}  `;
  return sql`CASE WHEN ${allVisible(restricted.map((m) => m.access as Access))}${nl(inner)}THEN ${buildObject(members, inner)}${nl(inner)}ELSE ${mergedObject(members, inner)}${nl(indent)}END`;
}

/** `(SELECT <every rule>)`, evaluated once per statement. */
const allVisible = (rules: readonly Access[]): Sql => sql`(SELECT ${everyRule(rules)})`;

/** Every rule of `rules`, each distinct one once, ANDed. */
export function everyRule(rules: readonly Access[]): Sql {
  const distinct = [...new Map(rules.map((a) => [accessKey(a), a])).values()];
  return join(distinct.map(allowedCall), " AND ");
}

function buildObject(members: readonly Member[], indent: string): Sql {
  const pairs = members.map((m) => sql`${nl(`${indent}  `)}${literal(m.name)}, ${m.value}`);
  return sql`json_build_object(${join(pairs, ",")}${nl(indent)})`;
}

function mergedObject(members: readonly Member[], indent: string): Sql {
  const inner = `${indent}  `;
  const chunks: Sql[] = [];
  let run: Member[] = [];
  const flush = () => {
    if (run.length > 0) chunks.push(buildObject(run, inner));
    run = [];
  };
  for (const m of members) {
    if (m.access) {
      flush();
      chunks.push(sql`CASE WHEN ${allowedOnce(m.access)} THEN ${buildObject([m], inner)} END`);
    } else {
      run.push(m);
      if (run.length === MAX_PAIRS) flush();
    }
  }
  flush();
  const items = chunks.map((c) => sql`${nl(inner)}${c}`);
  return sql`api.json_concat_objects(ARRAY[${join(items, ",")}${nl(indent)}]::json[])`;
}
