// A custom handler's answer (docs/handlers.md "The contract"): the `res` a handler method gets,
// and the outcome the route waits for. The first of sendData, sendError, a throw and the timeout
// settles it; a later answer is logged and ignored.
//
// A class, not an object literal made per request: a literal's `get sent()` is an accessor pair,
// which V8 allocates in the old generation, and from there it held the request's young objects
// (the closures it captured, and everything they reach) through every young collection until a
// full one: 1.3 MB promoted per young collection on GET /user/me/session, against 1 KB with the
// getter on a prototype (docs/performance.md, "Statements planned per request, requests kept alive
// by a getter").

import type { FastifyBaseLogger } from "fastify";
import type { ErrorCode, ErrorDetails } from "../errors.ts";
import type { HandlerMethod, HandlerRequest, HandlerResponse } from "./types.ts";

export type Outcome =
  | { kind: "data"; body: unknown }
  | { kind: "error"; code: ErrorCode; message: string | undefined; details: ErrorDetails | undefined }
  | { kind: "thrown"; error: unknown }
  | { kind: "timeout" };

/** Its own state is private (#): a handler sees the HandlerResponse members and nothing else. */
export class HandlerAnswer implements HandlerResponse {
  readonly #paged: boolean;
  readonly #label: string;
  readonly #log: FastifyBaseLogger;
  #sent = false;
  #resolve: ((outcome: Outcome) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(paged: boolean, label: string, log: FastifyBaseLogger) {
    this.#paged = paged;
    this.#label = label;
    this.#log = log;
  }

  get sent(): boolean {
    return this.#sent;
  }

  sendData(payload: unknown, total?: number): void {
    if (this.#paged && (typeof total !== "number" || !Number.isInteger(total) || total < 0)) {
      this.#settle({
        kind: "thrown",
        error: new Error(`${this.#label} is CUSTOM_PAGED: sendData(data, total) needs the total`),
      });
      return;
    }
    this.#settle({
      kind: "data",
      body: this.#paged ? { data: payload ?? null, total } : { data: payload ?? null },
    });
  }

  sendError(code: ErrorCode, message?: string, details?: ErrorDetails): void {
    this.#settle({ kind: "error", code, message, details });
  }

  /**
   * Runs `method` with `res` as its answer: resolves with its answer, its throw or the timeout,
   * whichever is first. Static, so the handler's `res` has no such member.
   */
  static run(
    res: HandlerAnswer,
    method: HandlerMethod,
    req: HandlerRequest,
    timeoutMs: number,
  ): Promise<Outcome> {
    const outcome = new Promise<Outcome>((resolve) => {
      res.#resolve = resolve;
    });
    res.#timer = setTimeout(() => res.#settle({ kind: "timeout" }), timeoutMs);
    Promise.resolve()
      .then(() => method(req, res))
      .then(
        () => {
          if (!res.#sent) res.#log.warn({ route: res.#label }, "handler returned without answering");
        },
        (error: unknown) => res.#settle({ kind: "thrown", error }),
      );
    return outcome;
  }

  #settle(outcome: Outcome): void {
    if (this.#sent) {
      this.#log.warn({ route: this.#label }, "handler answered twice; the second answer is ignored");
      return;
    }
    this.#sent = true;
    clearTimeout(this.#timer);
    this.#resolve?.(outcome);
  }
}
