// The lexer for SQL written by the schema author (custom where, custom join ON, raw selectors,
// policy conditions): just enough to find `$param` and `#global` mentions outside string
// literals, quoted identifiers, dollar-quoted strings and comments (`$1` and `#>>` are not
// mentions), and the quoted identifiers and operators around them. One lexer, so the loader's
// checks and every compiler agree on what a mention is.

export type Token =
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

/** The `$param` and `#global` names mentioned in `text`, each once, in order of appearance. */
export function mentions(text: string): { params: string[]; globals: string[] } {
  const found = tokenize(text).filter((t) => t.kind === "mention");
  const names = (sigil: string) => [...new Set(found.filter((m) => m.sigil === sigil).map((m) => m.name))];
  return { params: names("$"), globals: names("#") };
}

/** Whether `text` ends inside a `-- comment`, which would swallow SQL appended after it. */
export function endsInLineComment(text: string): boolean {
  const last = tokenize(text).at(-1);
  return last?.kind === "space" && last.text.startsWith("--");
}
