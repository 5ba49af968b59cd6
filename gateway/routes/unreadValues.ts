// The gateway's own statements keep the route function's parameters: the request ($1) and the
// caller ($2), both jsonb, which a route's where may read. Postgres parses a jsonb value on every
// call whether the text reads it or not (30k of the example's filtered page's 1,497k instructions
// for the two; docs/performance.md), and the gateway stringifies the request for it. A text that
// names neither gets NULL in their place: nothing to write, nothing to parse.

/** The text as sent, with whether it reads the request ($1) and the caller ($2). */
export interface ReadingText {
  text: string;
  readsRequest: boolean;
  readsCaller: boolean;
}

export function readingText(text: string): ReadingText {
  // `$1` and not `$10`: a false match (a `$1` inside a literal) only sends a value unread.
  return { text, readsRequest: /\$1(?!\d)/.test(text), readsCaller: /\$2(?!\d)/.test(text) };
}

/** `$1` and `$2` of a statement: each as the function gets it where the text reads it, else NULL. */
export function requestAndCaller(
  reading: ReadingText,
  params: Record<string, unknown>,
  ctx: string,
): [string | null, string | null] {
  return [reading.readsRequest ? JSON.stringify(params) : null, reading.readsCaller ? ctx : null];
}
