// Raw SQL written by the schema author (custom where, custom join ON, raw selectors) is trusted
// as written, except its `$param` and `#global` mentions, which become reads of the request
// parameters (`$1`) and the caller context (`$2`). Mentions are found with the loader's rules
// (generator/schema/values.ts `sqlMentions`): outside string literals, quoted identifiers,
// dollar-quoted strings and comments; `$1` and `#>>` are not mentions.
//
// Typing rule: a mention compared directly with a quoted column reference, `"t"."c" < $date` or
// `$date = "t"."c"` (operators = <> != < > <= >=), is cast to that column's type, so the
// comparison works whatever the column's type. Any other mention is text (`$1->>'name'`): the
// author casts it where the context needs another type (`$limit::integer`).

import { endsInLineComment, mentions, type Token, tokenize } from "../sql/rawSqlLexer.ts";
import { join, type Sql, trusted } from "../sql/sql.ts";
import type { QueryScope } from "./scope.ts";

const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="]);

/** The quoted column reference `"t"."c"` compared with the mention at `index`, if any. */
function comparedColumn(tokens: Token[], index: number): { table: string; column: string } | undefined {
  const step = (from: number, dir: 1 | -1): number => {
    let j = from + dir;
    while (tokens[j]?.kind === "space") j += dir;
    return j;
  };
  for (const dir of [-1, 1] as const) {
    const op = step(index, dir);
    if (tokens[op]?.kind !== "op" || !COMPARISONS.has(tokens[op].text)) continue;
    const a = step(op, dir);
    const dot = step(a, dir);
    const b = step(dot, dir);
    const [first, second] = dir === -1 ? [tokens[b], tokens[a]] : [tokens[a], tokens[b]];
    if (first?.kind === "ident" && tokens[dot]?.kind === "dot" && second?.kind === "ident") {
      // Going forward, the reference must end there: `$x = "t"."c"."f"` is not a column.
      if (dir === 1 && tokens[step(b, 1)]?.kind === "dot") continue;
      if (dir === -1 && tokens[step(b, -1)]?.kind === "dot") continue;
      return { table: first.name, column: second.name };
    }
  }
  return undefined;
}

/** Raw SQL with its `$param` / `#global` mentions replaced (see the typing rule above). */
export function rawSql(text: string, scope: QueryScope): Sql {
  const tokens = tokenize(text);
  const parts = tokens.map((token, index) => {
    if (token.kind !== "mention") return trusted(token.text);
    const ref = comparedColumn(tokens, index);
    const column = ref ? scope.findColumn(ref.table, ref.column) : undefined;
    return scope.values.value(token.sigil === "$" ? "param" : "global", token.name, column);
  });
  // A trailing `-- comment` would swallow whatever the generator writes after the text.
  if (endsInLineComment(text)) parts.push(trusted("\n"));
  return join(parts, "");
}

/** The `$param` and `#global` names this module replaces (the loader's `sqlMentions` too). */
export const mentionsOf = mentions;

/**
 * `((SELECT ...))`: raw SQL that is one parenthesized scalar subquery, which yields one value per
 * row and so cannot change the number of rows (a set-returning function could: counts evaluate
 * the raw selectors that are not of this shape, kinds/pagedText.ts).
 */
export function isScalarSubquery(text: string): boolean {
  const t = text.trim();
  if (!/^\(\(\s*SELECT\b/i.test(t) || !t.endsWith("))")) return false;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")") {
      depth--;
      // The inner parenthesis (opened at 1) must close just before the outer one.
      if (depth === 1 && i !== t.length - 2) return false;
      if (depth === 0 && i !== t.length - 1) return false;
    }
  }
  return depth === 0 && quote === undefined;
}

/**
 * Whether raw SQL may name `name` (a source's alias): as a quoted identifier, or as a bare word
 * that folds to it. Case is ignored for bare words, so this errs towards yes.
 */
export function mayName(text: string, name: string): boolean {
  const folded = name.toLowerCase();
  return tokenize(text).some(
    (t) => (t.kind === "ident" && t.name === name) || (t.kind === "other" && t.text.toLowerCase() === folded),
  );
}

/**
 * Whether `text` (SQL the generator wrote around raw SQL, raw SQL included) may read `column` of
 * `source`, one of the sources named in `sources`, erring towards yes: a column named after its
 * source (`"user"."id"`, `user . id`); any column named without a qualifier anywhere (`"id"`, `id`:
 * raw SQL may name a column unqualified when one source has it); every column of a source named
 * any other way (a whole row, `"user".*`, or a table in a raw subquery's FROM). A column qualified
 * by anything else (an alias inside raw SQL) is not one of theirs.
 */
export function columnsRead(
  text: string,
  sources: readonly string[],
): (source: string, column: string) => boolean {
  const tokens = tokenize(text).filter((t) => t.kind !== "space");
  const nameOf = (t: Token | undefined): string | undefined =>
    t?.kind === "ident" ? t.name : t?.kind === "other" && /^[A-Za-z_]\w*$/.test(t.text) ? t.text : undefined;
  // A bare word folds to lower case; compared without case, so that this errs towards yes.
  const source = (t: Token | undefined): string | undefined => {
    const name = nameOf(t);
    if (name === undefined) return undefined;
    return t?.kind === "ident"
      ? sources.find((s) => s === name)
      : sources.find((s) => s.toLowerCase() === name.toLowerCase());
  };
  const all = new Set<string>();
  const qualified = new Set<string>();
  const bare = new Set<string>();
  tokens.forEach((token, i) => {
    const name = nameOf(token);
    if (name === undefined) return;
    const before = tokens[i - 1]?.kind === "dot" ? tokens[i - 2] : undefined;
    const after = tokens[i + 1]?.kind === "dot" ? tokens[i + 2] : undefined;
    const owner = before ? source(before) : undefined;
    if (owner) qualified.add(JSON.stringify([owner, name]));
    else if (!before) {
      bare.add(name.toLowerCase());
      const named = source(token);
      // A qualifier for a column (`"user"."id"`) is counted above, with its column.
      if (named && nameOf(after) === undefined) all.add(named);
    }
  });
  return (s, column) =>
    all.has(s) || qualified.has(JSON.stringify([s, column])) || bare.has(column.toLowerCase());
}
