// The messages of request validation: one place, so they stay consistent. Each goes into a
// VALIDATION_ERROR's `details` under the parameter's name, e.g. `{"perPage": "must be at most 100"}`.

export const REQUIRED = "is required";
export const NOT_NULL = "must not be null";
export const UNKNOWN = "unknown parameter";
export const SINGLE_VALUE = "must be a single value";
export const OUT_OF_RANGE = "is out of range";
export const PATH_CONFLICT = "does not match the value in the path";
export const IN_BODY = "must be sent in the request body";
export const BODY_NOT_OBJECT = "request body must be a JSON object";
export const OBJECT_IN_QUERY = "must be an object, which a query string cannot carry";
export const TEXT_BOOLEAN = "must be true or false";

/** The base types a parameter can have; `integer` is internal (paged `page`, `perPage`). */
export type Kind = "string" | "number" | "integer" | "boolean" | "object" | "any";

const ARTICLE: Record<Kind, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  any: "a value",
};

const PLURAL: Record<Kind, string> = {
  string: "strings",
  number: "numbers",
  integer: "integers",
  boolean: "booleans",
  object: "objects",
  any: "values",
};

/** `must be a number`. */
export function mustBe(kind: Kind): string {
  return `must be ${ARTICLE[kind]}`;
}

/** `must be an array of numbers`. */
export function mustBeArrayOf(kind: Kind): string {
  return `must be an array of ${PLURAL[kind]}`;
}

/** `item 2 must be a number`: indexes count from 0, as in JSON. */
export function itemMessage(index: number, message: string): string {
  return `item ${index} ${message}`;
}

export function oneOf(options: readonly unknown[]): string {
  return `must be one of: ${options.map(String).join(", ")}`;
}

export function atLeast(bound: number): string {
  return `must be at least ${bound}`;
}

export function atMost(bound: number): string {
  return `must be at most ${bound}`;
}

function count(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

export function minLength(bound: number): string {
  return `must have at least ${count(bound, "character")}`;
}

export function maxLength(bound: number): string {
  return `must have at most ${count(bound, "character")}`;
}

export function minItems(bound: number): string {
  return `must have at least ${count(bound, "item")}`;
}

export function maxItems(bound: number): string {
  return `must have at most ${count(bound, "item")}`;
}
