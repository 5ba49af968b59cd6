// The small languages inside schema strings: where/assignment value forms, ENUM and DECIMAL
// column values, and `$param` / `#global` mentions inside raw SQL written by the schema author.

import { mentions } from "../sql/rawSqlLexer.ts";

export type ValueForm =
  | { kind: "global"; name: string }
  | { kind: "param"; name: string }
  | { kind: "column"; table: string; column: string }
  | { kind: "text"; text: string }
  | { kind: "number"; value: number }
  | { kind: "boolean"; value: boolean }
  | { kind: "null" }
  | { kind: "bare"; word: string }
  | { kind: "invalid" };

const NAME = "[A-Za-z_][A-Za-z0-9_]*";
export const IDENTIFIER = new RegExp(`^${NAME}$`);
const GLOBAL = new RegExp(`^#(${NAME})$`);
const PARAM = new RegExp(`^\\$(${NAME})$`);
const COLUMN_REF = /^"((?:[^"]|"")+)"\s*\.\s*"((?:[^"]|"")+)"$/;
const TEXT = /^'((?:[^']|'')*)'$/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;
const BARE = /^[^'"$#()\\;,=<>]+$/;

/** What a where/assignment value means. Strings are trimmed first. */
export function classifyValue(value: string | number | boolean | null): ValueForm {
  if (value === null) return { kind: "null" };
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "boolean") return { kind: "boolean", value };
  const s = value.trim();
  let m = GLOBAL.exec(s);
  if (m) return { kind: "global", name: m[1] as string };
  m = PARAM.exec(s);
  if (m) return { kind: "param", name: m[1] as string };
  m = COLUMN_REF.exec(s);
  if (m) return { kind: "column", table: unquote(m[1] as string, '"'), column: unquote(m[2] as string, '"') };
  m = TEXT.exec(s);
  if (m) return { kind: "text", text: unquote(m[1] as string, "'") };
  if (NUMBER.test(s)) return { kind: "number", value: Number(s) };
  const upper = s.toUpperCase();
  if (upper === "TRUE" || upper === "FALSE") return { kind: "boolean", value: upper === "TRUE" };
  if (upper === "NULL") return { kind: "null" };
  if (BARE.test(s)) return { kind: "bare", word: s };
  return { kind: "invalid" };
}

const unquote = (s: string, q: string) => s.split(q + q).join(q);

/** A text value in the canonical single-quoted form: `it's` -> `'it''s'`. */
export const quoteText = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A quoted identifier as in a column reference value: `user` -> `"user"`. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * ENUM values from `'a','b'` (single quotes doubled inside a value). Undefined when malformed.
 */
export function parseEnumValues(value: string): string[] | undefined {
  const values: string[] = [];
  const re = /\s*'((?:[^']|'')*)'\s*(,|$)/y;
  let pos = 0;
  while (pos < value.length) {
    re.lastIndex = pos;
    const m = re.exec(value);
    if (!m) return undefined;
    values.push(unquote(m[1] as string, "'"));
    pos = re.lastIndex;
    if (m[2] === "") break;
    if (pos === value.length) return undefined; // trailing comma
  }
  return values.length > 0 && pos === value.length ? values : undefined;
}

/** DECIMAL/NUMERIC `p,s` or `p`. Undefined when not of that shape (ranges are checked by the caller). */
export function parseDecimal(value: string): { precision: number; scale: number } | undefined {
  const m = /^\s*(\d+)\s*(?:,\s*(\d+)\s*)?$/.exec(value);
  if (!m) return undefined;
  return { precision: Number(m[1]), scale: Number(m[2] ?? 0) };
}

/**
 * `$param` and `#global` names mentioned in raw SQL, outside string literals, quoted identifiers,
 * dollar-quoted strings and comments. `$1` and `#>>` are not names.
 */
export function sqlMentions(sql: string): { params: string[]; globals: string[] } {
  return mentions(sql);
}
