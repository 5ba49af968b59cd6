// One subscription as the application holds it: its resume cursor, its callbacks and an async
// iterator over its events. The connection (client/realtime.ts) drives it; the application only
// reads events and calls unsubscribe().

import type { RealtimeEvent } from "./protocol.ts";

/** An error the server sent (a standard code) or the client met. */
export class RealtimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The subscription it concerns; absent for the connection as a whole. */
    readonly subscriptionId?: string,
    readonly details?: Record<string, string>,
  ) {
    super(message);
    this.name = "RealtimeError";
  }
}

/**
 * `pending`: subscribe not yet answered (or to be sent on the next connection); `active`:
 * receiving; `paused`: the server ended it for an expired or refused token, resumed by
 * `setToken`; `ended`: unsubscribed, closed, or refused for good.
 */
export type SubscriptionStatus = "pending" | "active" | "paused" | "ended";

export interface SubscribeOptions<Row> {
  /** The PAGED filter syntax (docs/query-language.md), evaluated by the server. */
  filter?: string;
  /** Resume after this event id (e.g. one kept across a page reload). */
  since?: string;
  onEvent?: (event: RealtimeEvent<Row>) => void;
  onError?: (error: RealtimeError) => void;
  /** Each time the server confirms the subscription (also after every reconnect). */
  onSubscribed?: (lastEventId: string) => void;
}

// Event ids remembered per subscription to drop an exact duplicate should one ever arrive
// (the server's `since` replay already excludes them; this is a cheap second guard).
const REMEMBERED_IDS = 1024;

export class Subscription<Row = Record<string, unknown>> implements AsyncIterable<RealtimeEvent<Row>> {
  status: SubscriptionStatus = "pending";
  /** The cursor a reconnect resumes from: the last delivered event, else the subscribe answer. */
  lastEventId: string | undefined;
  private readonly seen = new Set<string>();
  private readonly seenOrder: string[] = [];
  private readonly queue: RealtimeEvent<Row>[] = [];
  private readonly waiting: {
    resolve: (r: IteratorResult<RealtimeEvent<Row>>) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private failure: RealtimeError | undefined;
  // Events are kept for iteration only when someone may iterate: always without an onEvent
  // callback, else from the first iterator on (a callback-only subscription holds no queue).
  private buffering: boolean;

  constructor(
    readonly id: string,
    readonly table: string,
    readonly filter: string | undefined,
    private readonly options: SubscribeOptions<Row>,
    private readonly detach: (subscription: Subscription<Row>) => void,
  ) {
    this.lastEventId = options.since;
    this.buffering = options.onEvent === undefined;
  }

  /** Stops the subscription (tells the server when connected); iterators finish. */
  unsubscribe(): void {
    if (this.status === "ended") return;
    this.detach(this);
    this.finish();
  }

  [Symbol.asyncIterator](): AsyncIterator<RealtimeEvent<Row>> {
    this.buffering = true;
    return {
      next: () => {
        const event = this.queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.failure) return Promise.reject(this.failure);
        if (this.status === "ended") return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
      },
      return: () => {
        this.unsubscribe();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  /** @internal The server confirmed it. */
  confirmed(lastEventId: string): void {
    this.status = "active";
    // Keep our own cursor when we have one: the replay after `since` is still to come.
    if (this.lastEventId === undefined) this.lastEventId = lastEventId;
    this.options.onSubscribed?.(lastEventId);
  }

  /** @internal An event for it; false when dropped as a duplicate or after it ended. */
  deliver(event: RealtimeEvent<Row>): boolean {
    if (this.status === "ended" || this.status === "paused" || this.seen.has(event.eventId)) return false;
    this.seen.add(event.eventId);
    this.seenOrder.push(event.eventId);
    if (this.seenOrder.length > REMEMBERED_IDS) this.seen.delete(this.seenOrder.shift() as string);
    this.lastEventId = event.eventId;
    this.status = "active";
    this.options.onEvent?.(event);
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve({ value: event, done: false });
    else if (this.buffering) this.queue.push(event);
    return true;
  }

  /** @internal Reported without ending it (it is retried or waits for a new token). */
  report(error: RealtimeError): void {
    this.options.onError?.(error);
  }

  /** @internal Ended for good by the server; iterators throw after the queued events. */
  fail(error: RealtimeError): void {
    this.report(error);
    this.failure = error;
    this.finish();
  }

  /** @internal */
  finish(): void {
    this.status = "ended";
    for (const waiter of this.waiting.splice(0)) {
      if (this.failure) waiter.reject(this.failure);
      else waiter.resolve({ value: undefined, done: true });
    }
  }
}
