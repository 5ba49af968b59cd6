// Text Postgres cannot store: U+0000 (text and jsonb refuse it) and unpaired UTF-16 surrogates
// (`"\ud800"` is valid JSON and a valid JS string, but not Unicode; jsonb refuses it, and
// converting it to UTF-8 would silently change it). Refused at the gateway with a 400 that says
// why, rather than as a database error (a 500) or a changed value.

export const NUL_MESSAGE = "Request values must not contain the NUL character (U+0000)";
export const SURROGATE_MESSAGE =
  "Request values must be valid Unicode: an unpaired surrogate such as \\ud800 is not";

// Without the `u` flag a regex sees UTF-16 code units: a high surrogate not followed by a low
// one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The message for a string Postgres cannot store, else undefined. */
export function textProblem(s: string): string | undefined {
  if (s.includes("\0")) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(s)) return SURROGATE_MESSAGE;
  return undefined;
}

/** The first textProblem of any string or key in a parsed JSON value (iterative: no recursion). */
export function valueTextProblem(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) return problem;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (typeof v === "object" && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        const problem = textProblem(key);
        if (problem) return problem;
        stack.push(item);
      }
    }
  }
  return undefined;
}
