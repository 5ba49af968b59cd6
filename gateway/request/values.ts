// Value-level building blocks: type checks for JSON values, coercion of query-string text, and
// the ONE_OF / MIN / MAX checks. Everything here is built once per parameter at compile time;
// the returned closures do the per-request work.

import type { Kind } from "./messages.ts";
import * as msg from "./messages.ts";

/** A failed read: the message goes into `details`. Readers return a value or an Invalid. */
export class Invalid {
  constructor(readonly message: string) {}
}

/** Returns the (possibly converted) value, or an Invalid. */
export type Reader = (raw: unknown) => unknown;

/** Returns a message when the (already typed) value breaks a rule, else undefined. */
export type Check = (value: unknown) => string | undefined;

// Decimal or integer text, optional exponent; no sign other than a leading "-", no spaces, no hex,
// no "Infinity"/"NaN", no ".5" or "5.".
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A number that survives JSON and Postgres unchanged: finite, and exact when integral. */
function inRange(n: number): boolean {
  return Number.isFinite(n) && (Number.isSafeInteger(n) || !Number.isInteger(n));
}

const INVALID_NUMBER = new Invalid(msg.mustBe("number"));
const INVALID_INTEGER = new Invalid(msg.mustBe("integer"));
const INVALID_RANGE = new Invalid(msg.OUT_OF_RANGE);

/** Type check of a JSON body value (never null here; the caller handles null). Not coerced. */
export function jsonType(kind: Kind): Reader {
  switch (kind) {
    case "string":
    case "boolean": {
      const invalid = new Invalid(msg.mustBe(kind));
      return (v) => (typeof v === kind ? v : invalid);
    }
    case "number":
      return (v) => (typeof v !== "number" ? INVALID_NUMBER : inRange(v) ? v : INVALID_RANGE);
    case "integer":
      return (v) => (!Number.isInteger(v) ? INVALID_INTEGER : Number.isSafeInteger(v) ? v : INVALID_RANGE);
    case "object": {
      const invalid = new Invalid(msg.mustBe("object"));
      return (v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? v : invalid);
    }
    case "any":
      return (v) => v;
  }
}

/**
 * Coercion of one query-string (or path, or multipart field) text to the kind. `normalize`
 * runs first on strings (paged `sortOrder` is case-insensitive). For `any` with a ONE_OF list,
 * the text matches an option written the same way (`1` matches the number option 1).
 */
export function textType(kind: Kind, oneOfOptions?: readonly unknown[]): (s: string) => unknown {
  switch (kind) {
    case "string":
      return (s) => s;
    case "number":
      return (s) => {
        if (!NUMBER_TEXT.test(s)) return INVALID_NUMBER;
        const n = Number(s);
        return inRange(n) ? n : INVALID_RANGE;
      };
    case "integer":
      return (s) => {
        if (!NUMBER_TEXT.test(s)) return INVALID_INTEGER;
        const n = Number(s);
        return !Number.isInteger(n) ? INVALID_INTEGER : Number.isSafeInteger(n) ? n : INVALID_RANGE;
      };
    case "boolean": {
      const invalid = new Invalid(msg.TEXT_BOOLEAN);
      return (s) => (s === "true" ? true : s === "false" ? false : invalid);
    }
    case "object": {
      const invalid = new Invalid(msg.OBJECT_IN_QUERY);
      return () => invalid;
    }
    case "any": {
      if (!oneOfOptions) return (s) => s;
      const byText = new Map<string, unknown>();
      for (const option of oneOfOptions) if (!byText.has(String(option))) byText.set(String(option), option);
      const invalid = new Invalid(msg.oneOf(oneOfOptions));
      return (s) => (byText.has(s) ? byText.get(s) : invalid);
    }
  }
}

export function oneOfCheck(options: readonly unknown[]): Check {
  const allowed = new Set(options);
  const message = msg.oneOf(options);
  return (v) => (allowed.has(v) ? undefined : message);
}

/** Characters as Postgres counts them (code points), not UTF-16 units. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function stringMin(s: string, bound: number): boolean {
  // A string of n UTF-16 units has between n/2 and n code points: count only when it matters.
  return s.length >= bound * 2 || (s.length >= bound && codePoints(s) >= bound);
}

function stringMax(s: string, bound: number): boolean {
  return s.length <= bound || codePoints(s) <= bound;
}

/** MIN / MAX for a scalar of the kind (arrays: see countCheck). `any` decides per value. */
export function boundCheck(kind: Kind, which: "MIN" | "MAX", bound: number): Check | undefined {
  const isMin = which === "MIN";
  switch (kind) {
    case "number":
    case "integer": {
      const message = isMin ? msg.atLeast(bound) : msg.atMost(bound);
      return isMin
        ? (v) => ((v as number) >= bound ? undefined : message)
        : (v) => ((v as number) <= bound ? undefined : message);
    }
    case "string": {
      const message = isMin ? msg.minLength(bound) : msg.maxLength(bound);
      return isMin
        ? (v) => (stringMin(v as string, bound) ? undefined : message)
        : (v) => (stringMax(v as string, bound) ? undefined : message);
    }
    case "any": {
      const forNumber = boundCheck("number", which, bound) as Check;
      const forString = boundCheck("string", which, bound) as Check;
      const forArray = countCheck(which, bound);
      return (v) =>
        typeof v === "number"
          ? forNumber(v)
          : typeof v === "string"
            ? forString(v)
            : Array.isArray(v)
              ? forArray(v)
              : undefined;
    }
    default:
      return undefined; // boolean / object: the loader rejects MIN/MAX on them
  }
}

/** MIN / MAX on an array's item count. */
export function countCheck(which: "MIN" | "MAX", bound: number): Check {
  if (which === "MIN") {
    const message = msg.minItems(bound);
    return (v) => ((v as unknown[]).length >= bound ? undefined : message);
  }
  const message = msg.maxItems(bound);
  return (v) => ((v as unknown[]).length <= bound ? undefined : message);
}

/** Runs the checks in order; the first message wins. */
export function allChecks(checks: readonly Check[]): Check | undefined {
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (v) => {
    for (let i = 0; i < checks.length; i++) {
      const message = (checks[i] as Check)(v);
      if (message !== undefined) return message;
    }
    return undefined;
  };
}
