// Request bodies: JSON only (plus multipart on upload routes, registered in their own scope).
// Fastify's JSON parser (which refuses `__proto__` and `constructor.prototype` keys) runs first;
// then one iterative walk refuses what would otherwise fail later as a 500:
// - nesting deeper than MAX_JSON_DEPTH: JSON.parse copes with any depth, but JSON.stringify and
//   every recursive walk after it overflow the stack at a few thousand levels;
// - NUL and unpaired surrogates in strings and keys, which Postgres cannot store
//   (gateway/request/text.ts).
// Fastify's text/plain parser is removed: a text body is not JSON, and is refused (415) as such.

import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { textProblem } from "../request/text.ts";

/** Deeper than any document a route of this service reads; far below the stack's limit. */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`;

export function jsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["application/json", "text/plain"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parse(request, body as string, (error: Error | null, value: unknown) => {
      if (error) return done(error, undefined);
      const problem = jsonProblem(value);
      if (problem) return done(new ApiError("BAD_REQUEST", problem), undefined);
      done(null, value);
    });
  });
}

/** Depth and text problems of a parsed JSON value, without recursion. */
export function jsonProblem(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v === "string") {
      const problem = textProblem(v);
      if (problem) return problem;
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (depth >= MAX_JSON_DEPTH) return TOO_DEEP_MESSAGE;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(v)) {
      const problem = textProblem(key);
      if (problem) return problem;
      stack.push([(v as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return undefined;
}
