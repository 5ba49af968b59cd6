// A keyset cursor (`after`, docs/query-language.md) decoded for the route function's fast path
// (generator/routes/kinds/pagedKeyset.ts keysetFastPath). The function can decode a cursor itself,
// but in plpgsql that takes an exception block and a dozen checks that it sets up again in every
// transaction; here it is a few string operations. The gateway decodes only what Postgres would
// decode to the same JSON (base64url of UTF-8 JSON without a backslash escape: no \u0000 that
// jsonb refuses, no lone surrogate), and of the shape a cursor of the route's own order has; the
// function then reads the keys from that text, so their values are Postgres's reading of them, not
// JavaScript's (a bigint past 2^53 keeps its digits). Anything else is left to the function, which
// answers or refuses it as before.

import type { Model, ModelRoute } from "../../generator/model/index.ts";
import { DECODED_CURSOR, fastCursorKeys } from "../../generator/routes/kinds/fastCursor.ts";

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The cursor's JSON text, '' for the first page (`after` empty), or undefined when the function
 * should decode it: not base64url of such JSON, or not a cursor of the own order ASC with `keys`
 * key values.
 */
export function decodedCursor(after: unknown, keys: number): string | undefined {
  if (typeof after !== "string") return undefined;
  if (after === "") return "";
  // Postgres pads to a multiple of 4 and refuses a lone last character, as well as any other.
  if (!BASE64URL.test(after) || after.length % 4 === 1) return undefined;
  let text: string;
  let cursor: unknown;
  try {
    text = utf8.decode(Buffer.from(after, "base64url"));
    if (text.includes("\\")) return undefined;
    cursor = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof cursor !== "object" || cursor === null || Array.isArray(cursor)) return undefined;
  const { s, o, k } = cursor as { s?: unknown; o?: unknown; k?: unknown };
  return s === "" && o === "ASC" && Array.isArray(k) && k.length === keys ? text : undefined;
}

/**
 * For a route whose function has the fast path: puts the request's cursor, decoded, under
 * `$after` in its parameters, as the gateway sends them. Undefined for a route without the path.
 */
export function cursorDecoder(
  model: Model,
  modelRoute: ModelRoute,
): ((params: Record<string, unknown>) => void) | undefined {
  const keys = fastCursorKeys(model, modelRoute);
  if (keys === undefined) return undefined;
  return (params) => {
    if (!("after" in params)) return;
    const decoded = decodedCursor(params.after, keys);
    if (decoded !== undefined) params[DECODED_CURSOR] = decoded;
  };
}
