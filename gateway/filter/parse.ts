// Restura's filter syntax (docs/query-language.md, "The filter") -> the filter AST of docs/architecture.md.
// A hand-written scanner and recursive-descent parser: linear time, no regular expressions, and a
// recursion depth bounded by `maxDepth`, so no filter can make it backtrack or overflow the stack.
//
// Grammar (ws = space, tab, CR, LF; allowed between any two tokens, not inside a column name):
//
//   filter    := orExpr
//   orExpr    := andExpr ( "or" andExpr )*           keywords case-insensitive; AND binds tighter
//   andExpr   := unary ( "and" unary )*
//   unary     := "!" unary | "(" group-or-condition
//   group     := "(" orExpr ")"                      recognised by "(" or "!" after the "("
//   condition := "(" column "," value ")"             op eq
//              | "(" column "," ("null"|"notnull") ")"
//              | "(" column "," op "," value ")"       op: eq ne gt gte lt lte has sw ew
//              | "(" column "," "in" "," value ( "|" value )* ")"
//   column    := ident | ident "." ident | ident "." ident "." ident
//   ident     := [A-Za-z_][A-Za-z0-9_]*
//
// Decisions:
// - Operators are lower case only. In the two-part form only a bare, lower-case `null` or `notnull`
//   is the null test: `(c,NULL)`, `(c,"null")` and `(c,eq,null)` compare with the string.
//   An upper-case operator in the three-part form is an error that says operators are lower case.
// - Values: a value whose first non-blank character is `"` or `'` is quoted and runs to the matching
//   unescaped quote, kept exactly as written (`,` `|` `(` `)` and the other quote need no escape);
//   blanks may follow the closing quote. Otherwise the value is bare: it runs up to the next
//   unescaped `,` `)` `|` or `(` and loses surrounding blanks (inner ones stay; a quote inside a
//   bare value is an ordinary character, as in `O'Brien`). In both forms `\` escapes exactly
//   `,` `|` `\` `(` `)` `"` `'`; any other escape is an error (so new escapes can be added later).
//   A bare `(` and, outside `in`, a bare `|` are errors naming the escape, not literal characters.
// - Empty values: `(c,)`, `(c,eq,)`, `(c,ne,"")` compare with the empty string, and `in` items may
//   be empty; gt, gte, lt, lte, has, sw, ew with an empty value are an error.
// - Values may not contain U+0000 or unpaired surrogates (Postgres cannot store them): an error.
// - `and`/`or` lists are flat (`a and b and c` is one node with three items); parentheses do not
//   produce nodes (`((a,b))` is the condition), so a group stays a separate node:
//   `((a,b)and(c,d))and(e,f)` is `{and: [{and: [a, c]}, e]}`.
// - An empty (or blank) filter is an error: callers should treat a missing or empty `filter`
//   parameter as "no filter" before calling the parser.
// - Positions are 0-based indexes into the text (UTF-16 code units); every message says
//   `at position N` with the same N as `error.position`.

import {
  DEFAULT_FILTER_LIMITS,
  FILTER_OPS,
  type FilterCondition,
  type FilterError,
  type FilterExpr,
  type FilterLimits,
  type FilterOp,
  type ParseFilterResult,
} from "./ast.ts";

export type {
  FilterCondition,
  FilterError,
  FilterExpr,
  FilterLimits,
  FilterOp,
  ParseFilterResult,
} from "./ast.ts";
export { DEFAULT_FILTER_LIMITS, FILTER_OPS } from "./ast.ts";
export { checkFilterColumns, type DisallowedColumn, filterColumns, filterConditions } from "./columns.ts";

/** Operators that need a non-empty value. */
const NEEDS_VALUE = new Set<FilterOp>(["gt", "gte", "lt", "lte", "has", "sw", "ew"]);
const OP_LIST = FILTER_OPS.join(", ");
const ESCAPABLE = ",|\\()\"'";

/** Character codes the scanner compares with. */
const Ch = {
  Tab: 9,
  Lf: 10,
  Cr: 13,
  Space: 32,
  Bang: 33,
  DoubleQuote: 34,
  SingleQuote: 39,
  Open: 40,
  Close: 41,
  Comma: 44,
  Dot: 46,
  Backslash: 92,
  Pipe: 124,
} as const;

const isBlank = (c: number) => c === Ch.Space || c === Ch.Tab || c === Ch.Lf || c === Ch.Cr;
const isIdentStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
const isOp = (word: string): word is FilterOp => (FILTER_OPS as readonly string[]).includes(word);

class FilterSyntaxError extends Error {
  constructor(
    readonly position: number,
    what: string,
    hint?: string,
  ) {
    super(`${what} at position ${position}${hint ? ` (${hint})` : ""}`);
  }
}

const HINT_COMMA = 'write \\, for a literal ","';
const HINT_PIPE = 'only operator "in" takes several values; write \\| for a literal "|"';
const HINT_OPEN = 'quote the value or write \\( for a literal "("';

/** Parses a filter; never throws for any string input. */
export function parseFilter(text: string, limits: Partial<FilterLimits> = {}): ParseFilterResult {
  const all: FilterLimits = { ...DEFAULT_FILTER_LIMITS, ...limits };
  try {
    if (typeof text !== "string") throw new FilterSyntaxError(0, "the filter must be a string");
    if (text.length > all.maxLength) {
      throw new FilterSyntaxError(all.maxLength, "filter is too long", `at most ${all.maxLength} characters`);
    }
    return { ok: true, ast: new Parser(text, all).parse() };
  } catch (e) {
    if (e instanceof FilterSyntaxError) {
      const error: FilterError = { position: e.position, message: e.message };
      return { ok: false, error };
    }
    throw e;
  }
}

class Parser {
  private pos = 0;
  private depth = 0;
  private conditions = 0;

  constructor(
    private readonly text: string,
    private readonly limits: FilterLimits,
  ) {}

  parse(): FilterExpr {
    this.skipBlanks();
    if (this.atEnd()) throw new FilterSyntaxError(0, "empty filter");
    const ast = this.orExpr();
    this.skipBlanks();
    if (!this.atEnd()) {
      if (this.peek() === Ch.Close) {
        throw new FilterSyntaxError(this.pos, 'unbalanced parenthesis: unexpected ")"');
      }
      throw this.unexpected('"and", "or" or end of filter');
    }
    return ast;
  }

  // --- expressions ---

  private orExpr(): FilterExpr {
    const items = [this.andExpr()];
    while (this.keyword("or")) items.push(this.andExpr());
    return items.length === 1 ? (items[0] as FilterExpr) : { or: items };
  }

  private andExpr(): FilterExpr {
    const items = [this.unary()];
    while (this.keyword("and")) items.push(this.unary());
    return items.length === 1 ? (items[0] as FilterExpr) : { and: items };
  }

  /** Consumes blanks and `word` (case-insensitive, not followed by an identifier character). */
  private keyword(word: string): boolean {
    this.skipBlanks();
    const end = this.pos + word.length;
    if (this.text.slice(this.pos, end).toLowerCase() !== word) return false;
    if (end < this.text.length && isIdentPart(this.text.charCodeAt(end))) return false;
    this.pos = end;
    return true;
  }

  private unary(): FilterExpr {
    this.skipBlanks();
    const c = this.peek();
    if (c === Ch.Bang) {
      this.enter(this.pos);
      this.pos++;
      const not = this.unary();
      this.depth--;
      return { not };
    }
    if (c === Ch.Open) return this.parenthesised();
    throw this.unexpected('"(" or "!"');
  }

  private parenthesised(): FilterExpr {
    const open = this.pos;
    this.pos++;
    this.skipBlanks();
    const c = this.peek();
    if (c === Ch.Open || c === Ch.Bang) {
      this.enter(open);
      const inner = this.orExpr();
      this.skipBlanks();
      if (this.peek() !== Ch.Close) this.expectedClose(open, '"and", "or" or ")"', false);
      this.pos++;
      this.depth--;
      return inner;
    }
    if (isIdentStart(c)) return this.condition(open);
    throw this.unexpected('a column name, "(" or "!"');
  }

  private enter(position: number): void {
    if (++this.depth > this.limits.maxDepth) {
      throw new FilterSyntaxError(
        position,
        "filter is nested too deeply",
        `at most ${this.limits.maxDepth} levels`,
      );
    }
  }

  // --- conditions ---

  /** `(column,...)`, the `(` at `open` already consumed and the column name next. */
  private condition(open: number): FilterCondition {
    if (++this.conditions > this.limits.maxConditions) {
      throw new FilterSyntaxError(open, "too many conditions", `at most ${this.limits.maxConditions}`);
    }
    const position = this.pos;
    const column = this.column();
    this.skipBlanks();
    if (this.peek() !== Ch.Comma) throw this.unexpected('"," after column name');
    this.pos++;

    const second = this.value();
    if (this.peek() === Ch.Close) {
      this.pos++;
      if (!second.quoted && (second.text === "null" || second.text === "notnull")) {
        return { column, op: second.text, position };
      }
      return { column, op: "eq", value: second.text, position };
    }
    if (this.peek() !== Ch.Comma) this.expectedClose(open, '"," or ")"');
    const comma = this.pos;
    this.pos++;

    const op = this.operator(second);
    if (op === "null" || op === "notnull") {
      throw new FilterSyntaxError(comma, `operator "${op}" takes no value`, `write (${column},${op})`);
    }
    if (op === "in") {
      const items = [this.value().text];
      while (this.peek() === Ch.Pipe) {
        this.pos++;
        items.push(this.value().text);
      }
      if (this.peek() !== Ch.Close) this.expectedClose(open, '"|" or ")"');
      this.pos++;
      return { column, op, value: items, position };
    }
    const third = this.value();
    if (this.peek() !== Ch.Close) this.expectedClose(open, '")"');
    if (third.text === "" && NEEDS_VALUE.has(op)) {
      throw new FilterSyntaxError(third.start, `operator "${op}" needs a value`);
    }
    this.pos++;
    return { column, op, value: third.text, position };
  }

  private operator(token: Value): FilterOp {
    if (token.quoted || token.text === "") {
      throw new FilterSyntaxError(token.start, "expected an operator", `one of ${OP_LIST}`);
    }
    if (isOp(token.text)) return token.text;
    const lower = isOp(token.text.toLowerCase()) ? "; operators are lower case" : "";
    throw new FilterSyntaxError(
      token.start,
      `unknown operator ${quote(token.text)}`,
      `expected one of ${OP_LIST}${lower}`,
    );
  }

  private column(): string {
    const start = this.pos;
    this.identifier();
    for (let parts = 1; this.peek() === Ch.Dot; parts++) {
      if (parts === 3) {
        throw new FilterSyntaxError(
          this.pos,
          "too many parts in column name",
          "expected column, table.column or table.column.jsonKey",
        );
      }
      this.pos++;
      if (!isIdentStart(this.peek())) throw this.unexpected('an identifier after "."');
      this.identifier();
    }
    return this.text.slice(start, this.pos);
  }

  private identifier(): void {
    this.pos++;
    while (isIdentPart(this.peek())) this.pos++;
  }

  /**
   * Fails at the current position, which is not the `)` (or other token) the caller needs. After a
   * value, a `,` `|` or `(` here is most likely meant literally, and the message says how to write it.
   */
  private expectedClose(open: number, expected: string, afterValue = true): never {
    if (this.atEnd()) throw new FilterSyntaxError(open, `unbalanced parenthesis: "(" is never closed`);
    const c = this.peek();
    let hint = "";
    if (afterValue) {
      hint = c === Ch.Comma ? HINT_COMMA : c === Ch.Pipe ? HINT_PIPE : c === Ch.Open ? HINT_OPEN : "";
    }
    throw this.unexpected(hint ? `expected ${expected}; ${hint}` : `expected ${expected}`, true);
  }

  // --- values ---

  /** A quoted or bare value, blanks around it consumed; stops before the token that ends it. */
  private value(): Value {
    this.skipBlanks();
    const start = this.pos;
    const q = this.peek();
    let text = "";
    if (q === Ch.DoubleQuote || q === Ch.SingleQuote) {
      this.pos++;
      for (;;) {
        if (this.atEnd()) throw new FilterSyntaxError(start, "unterminated quoted value");
        const c = this.peek();
        if (c === q) break;
        text += c === Ch.Backslash ? this.escape() : this.valueChar();
      }
      this.pos++;
      this.skipBlanks();
      return { text, quoted: true, start };
    }
    let kept = 0; // length of `text` up to its last non-blank character
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === Ch.Comma || c === Ch.Close || c === Ch.Pipe || c === Ch.Open) break;
      if (c === Ch.Backslash) {
        text += this.escape();
        kept = text.length;
      } else {
        text += this.valueChar();
        if (!isBlank(c)) kept = text.length;
      }
    }
    return { text: text.slice(0, kept), quoted: false, start };
  }

  /** The escape sequence at `pos` (a backslash); returns the escaped character. */
  private escape(): string {
    const at = this.pos;
    if (at + 1 >= this.text.length) {
      throw new FilterSyntaxError(
        this.text.length,
        "unexpected end of filter",
        'expected a character after "\\"',
      );
    }
    const next = this.text[at + 1] as string;
    if (!ESCAPABLE.includes(next)) {
      const shown = String.fromCodePoint(this.text.codePointAt(at + 1) as number);
      throw new FilterSyntaxError(at, `invalid escape "\\${shown}"`, "\\ escapes only , | \\ ( ) \" '");
    }
    this.pos += 2;
    return next;
  }

  /** One character of a value (a whole surrogate pair), refusing what Postgres cannot hold. */
  private valueChar(): string {
    const at = this.pos;
    const c = this.text.charCodeAt(at);
    if (c === 0) throw new FilterSyntaxError(at, "invalid character U+0000 in value");
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = this.text.charCodeAt(at + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) {
        throw new FilterSyntaxError(
          at,
          `invalid character U+${c.toString(16).toUpperCase()} in value`,
          "unpaired surrogate",
        );
      }
      this.pos += 2;
      return this.text.slice(at, at + 2);
    }
    this.pos++;
    return this.text[at] as string;
  }

  // --- scanning ---

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** The UTF-16 code unit at `pos`, or -1 at the end. */
  private peek(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  private skipBlanks(): void {
    while (isBlank(this.peek())) this.pos++;
  }

  /** `unexpected <token> at position N (expected ...)` for the token at `pos`. */
  private unexpected(expected: string, verbatim = false): FilterSyntaxError {
    const hint = verbatim ? expected : `expected ${expected}`;
    if (this.atEnd()) return new FilterSyntaxError(this.pos, "unexpected end of filter", hint);
    return new FilterSyntaxError(this.pos, `unexpected ${this.describe()}`, hint);
  }

  /** The token at `pos` for a message: a word of identifier characters, or one character. */
  private describe(): string {
    if (isIdentPart(this.peek())) {
      let end = this.pos;
      while (end < this.text.length && isIdentPart(this.text.charCodeAt(end))) end++;
      const word = this.text.slice(this.pos, Math.min(end, this.pos + 32));
      return quote(end - this.pos > 32 ? `${word}...` : word);
    }
    return quote(String.fromCodePoint(this.text.codePointAt(this.pos) as number));
  }
}

interface Value {
  text: string;
  quoted: boolean;
  /** Index of the value's first character (its opening quote), after leading blanks. */
  start: number;
}

/** A double-quoted rendering for messages, with control characters escaped as in JSON. */
function quote(s: string): string {
  return JSON.stringify(s);
}
