// Line breaks and indentation between generated fragments, so generated functions read well in
// golden files and in `\sf`. Whitespace only: anything else is refused.

import { type Sql, trusted } from "../sql/sql.ts";

export function ws(text: string): Sql {
  if (!/^\s*$/.test(text)) throw new Error("layout: whitespace only");
  return trusted(text);
}

/** A line break followed by `indent`. */
export const nl = (indent: string): Sql => ws(`\n${indent}`);

export const INDENT = "  ";
