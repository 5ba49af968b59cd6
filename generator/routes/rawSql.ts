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

import { join, type Sql, trusted } from "../sql/sql.ts";
import type { QueryScope } from "./scope.ts";
import { CTX, PARAMS, runtimeValue } from "./values.ts";

type Token =
  | { kind: "ident"; text: string; name: string }
  | { kind: "op"; text: string }
  | { kind: "dot"; text: string }
  | { kind: "space"; text: string }
  | { kind: "mention"; text: string; sigil: "$" | "#"; name: string }
  | { kind: "other"; text: string };

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const DOLLAR_TAG = /\$([A-Za-z_][A-Za-z0-9_]*)?\$/y;
const OPERATOR = /[+\-*/<>=~!@#%^&|`?]+/y;
const WORD = /[A-Za-z0-9_]+/y;
const SPACE = /\s+/y;
const COMPARISONS = new Set(["=", "<>", "!=", "<", ">", "<=", ">="]);

function match(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** Index after a quoted run starting at `at` (`'...'` or `"..."`, the quote doubled inside). */
function quotedEnd(text: string, at: number, quote: string): number {
  let i = at + 1;
  for (;;) {
    const k = text.indexOf(quote, i);
    if (k < 0) return text.length;
    if (text[k + 1] === quote) i = k + 2;
    else return k + 1;
  }
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: Exclude<Token["kind"], "ident" | "mention">, end: number) => {
    tokens.push({ kind, text: text.slice(i, end) });
    i = end;
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (text.startsWith("--", i)) {
      const nl = text.indexOf("\n", i);
      push("space", nl < 0 ? text.length : nl);
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      push("space", close < 0 ? text.length : close + 2);
    } else if (c === "'") {
      push("other", quotedEnd(text, i, "'"));
    } else if (c === '"') {
      const end = quotedEnd(text, i, '"');
      const raw = text.slice(i, end);
      tokens.push({ kind: "ident", text: raw, name: raw.slice(1, -1).replaceAll('""', '"') });
      i = end;
    } else if (c === "$" || c === "#") {
      const tag = c === "$" ? match(DOLLAR_TAG, text, i) : null;
      const close = tag ? text.indexOf(tag[0], i + tag[0].length) : -1;
      const name = match(NAME, text, i + 1);
      if (tag && close >= 0) push("other", close + tag[0].length);
      else if (name) {
        const end = i + 1 + name[0].length;
        tokens.push({ kind: "mention", text: text.slice(i, end), sigil: c, name: name[0] });
        i = end;
      } else if (c === "#") push("op", i + (match(OPERATOR, text, i)?.[0].length ?? 1));
      else push("other", i + 1);
    } else if (/\s/.test(c)) {
      push("space", i + (match(SPACE, text, i)?.[0].length ?? 1));
    } else if (c === ".") {
      push("dot", i + 1);
    } else if (match(OPERATOR, text, i)) {
      push("op", i + (match(OPERATOR, text, i)?.[0].length ?? 1));
    } else if (match(WORD, text, i)) {
      push("other", i + (match(WORD, text, i)?.[0].length ?? 1));
    } else {
      push("other", i + 1);
    }
  }
  return tokens;
}

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
    return runtimeValue(token.sigil === "$" ? PARAMS : CTX, token.name, column);
  });
  // A trailing `-- comment` would swallow whatever the generator writes after the text.
  if (/--[^\n]*$/.test(text)) parts.push(trusted("\n"));
  return join(parts, "");
}

/** The `$param` and `#global` names this module replaces (the same as the loader's `sqlMentions`). */
export function mentionsOf(text: string): { params: string[]; globals: string[] } {
  const mentions = tokenize(text).filter((t) => t.kind === "mention");
  const names = (sigil: string) => [...new Set(mentions.filter((m) => m.sigil === sigil).map((m) => m.name))];
  return { params: names("$"), globals: names("#") };
}
