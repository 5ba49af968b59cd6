// Message pieces shared by all checks, so the wording stays the same everywhere.

import { closest } from "./suggest.ts";

/** A short description of a JSON value: `"yes"`, `5`, `null`, `a list`, `an object`. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (value !== null && typeof value === "object") return "an object";
  return JSON.stringify(value) ?? String(value);
}

/** `expected one of "A", "B", got "X" (did you mean "A"?)` */
export function enumMessage(value: unknown, allowed: readonly unknown[]): string {
  const options = allowed.map((v) => JSON.stringify(v)).join(", ");
  const hint = typeof value === "string" ? closest(value, allowed.map(String)) : undefined;
  return `expected one of ${options}, got ${describe(value)}${hint === undefined ? "" : ` (did you mean "${hint}"?)`}`;
}

/** `invalid column name "first name": use letters, digits and _, not starting with a digit` */
export const invalidName = (kind: string, name: string): string =>
  `invalid ${kind} name "${name}": use letters, digits and _, not starting with a digit`;

/** Postgres truncates longer identifiers silently, which would make two names collide. */
export const MAX_IDENTIFIER_BYTES = 63;
export const tooLong = (name: string): string =>
  `name "${name}" is longer than ${MAX_IDENTIFIER_BYTES} bytes, the Postgres identifier limit`;
export const isTooLong = (name: string): boolean => Buffer.byteLength(name, "utf8") > MAX_IDENTIFIER_BYTES;

/** `"a", "b"` */
export const quotedList = (items: readonly string[]): string => items.map((s) => `"${s}"`).join(", ");
