// The reader: one per gateway instance. It follows the outbox with a cursor (opaque text from the
// database, docs/realtime.md "Cursors"), woken by one LISTEN connection (pg-listen, reconnecting
// forever) and by a poll every REALTIME_POLL_MS, since a NOTIFY sent while that connection was
// down is lost. Each batch is everything up to `api.realtime_head()`; the live subscriptions are
// grouped by permission context and each group costs ONE `api.realtime_events` call, whatever
// the number of events or subscribers; each subscription's own table and filter are then checked
// here, on the rows the database returned for its group.
//
// Ordering without loss or duplicates: batches run one at a time, and the cursor moves only after
// a batch has been handed to every live subscription. A subscription joins the live set only
// between batches, at the cursor: one with `since` first replays (since, cursor] with its own
// context (repeating while the reader moves on), then joins at the cursor it reached.
// Nothing is instance-specific in the database: every instance reads every event.

import type pg from "pg";
import pgListen, { type Subscriber as PgSubscriber } from "pg-listen";
import { type ApiError, fromPostgresError } from "../errors.ts";
import { isConnectionFailure } from "../ops/connectionFailures.ts";
import type { PermissionContext } from "./groups.ts";
import type { RowMatcher } from "./match.ts";
import type { RealtimeMetrics } from "./metrics.ts";
import { eventBody, eventMessage, type OutboxEvent, subscribedMessage } from "./protocol.ts";

/** The NOTIFY channel the outbox triggers signal (at most once per transaction). */
export const CHANNEL = "api_realtime";

/** Groups queried at once: a batch with many groups must not take the whole pool. */
const GROUP_CONCURRENCY = 3;

// pg-listen is CommonJS with `exports.default`: under Node's ESM loader the default import is
// the whole exports object.
const createSubscriber = pgListen.default;
/** How often old events are pruned (api.realtime_prune deletes in small batches). */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 10_000;
/** The prune call: events older than $1 seconds, at most $2 of them. */
export const PRUNE_SQL = "SELECT api.realtime_prune(make_interval(secs => $1), $2) AS deleted";
/** Batches a subscription waits for a `since` ahead of this reader (another instance's cursor). */
const MAX_AHEAD_WAITS = 20;

export interface Subscriber {
  send(text: string): boolean;
  /** Runs `sends` with the socket corked: a batch's events leave in one write, not one each. */
  batch(sends: () => void): void;
  /** The subscription failed for good (GONE, the database refused): error to the client, removed. */
  fail(subscription: Subscription, error: ApiError): void;
}

export interface Subscription {
  id: string;
  table: string;
  /** The filter text as sent (checked again when the caller's token changes). */
  filter?: string;
  match: RowMatcher | undefined;
  context: PermissionContext;
  owner: Subscriber;
  /** Set by unsubscribe, expiry, close: nothing more is sent. */
  ended: boolean;
}

export interface Log {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface HubOptions {
  pool: pg.Pool;
  pollMs: number;
  retentionSeconds: number;
  log: Log;
  metrics?: RealtimeMetrics | undefined;
  /** Called after each batch was handed out (the instance's memory budget is checked there). */
  afterBatch?: (() => void) | undefined;
}

type Row = {
  event_id: string;
  table_name: string;
  op: OutboxEvent["op"];
  key: unknown;
  data: unknown;
  old: unknown;
  /** The outbox's time for the writing transaction (when the database returns it). */
  created_at?: unknown;
};

export class RealtimeHub {
  #cursor: string | undefined;
  #starting: Promise<void> | undefined;
  #ticking = false;
  #again = false;
  #idle: (() => void)[] = [];
  #stopped = false;
  readonly #live = new Set<Subscription>();
  #listener: PgSubscriber | undefined;
  #poll: NodeJS.Timeout | undefined;
  #lastPrune = 0;
  #pruneTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: HubOptions) {}

  get subscriptionCount(): number {
    return this.#live.size;
  }

  /** Starts the reader on the first subscription: a gateway nobody subscribes to reads nothing. */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      const head = await this.#head();
      this.#cursor = head;
      this.#poll = setInterval(() => {
        this.#connectListener();
        this.wake();
      }, this.options.pollMs);
      this.#poll.unref();
      this.#connectListener();
    })().catch((error) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  /**
   * Prunes every PRUNE_EVERY_MS while the gateway serves, subscribed to or not: the outbox fills
   * with every write, whoever listens.
   */
  startPruning(): void {
    if (this.#pruneTimer || this.#stopped) return;
    this.#pruneTimer = setInterval(() => this.#maybePrune(), PRUNE_EVERY_MS);
    this.#pruneTimer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#poll) clearInterval(this.#poll);
    if (this.#pruneTimer) clearInterval(this.#pruneTimer);
    for (const subscription of this.#live) subscription.ended = true;
    this.#live.clear();
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) await listener.close().catch(() => {});
    if (this.#ticking) await new Promise<void>((resolve) => this.#idle.push(resolve));
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /**
   * Subscribes: without `since`, live from the current cursor; with it, the replay first. The
   * `subscribed` message goes out before the replayed events; an error (GONE for a `since`
   * older than the retention window) instead of it.
   */
  async subscribe(subscription: Subscription, since: string | undefined): Promise<void> {
    await this.start();
    let position = since;
    let confirmed = false;
    let waits = 0;
    for (;;) {
      if (subscription.ended || this.#stopped) return;
      if (this.#ticking) {
        await new Promise<void>((resolve) => this.#idle.push(resolve));
        continue;
      }
      const target = this.#cursor as string;
      // A `since` ahead of this instance's reader (given by another instance, whose reader is a
      // poll ahead): wait for ours rather than replay up to an older cursor and repeat events.
      // A cursor no event can have is refused by the database (A0400) after a few batches.
      if (position !== undefined && waits < MAX_AHEAD_WAITS && (compareCursors(position, target) ?? 0) > 0) {
        waits++;
        await this.#nextBatch();
        continue;
      }
      if (position === undefined || position === target) {
        // Between batches, synchronously: the next batch includes it.
        if (!confirmed) subscription.owner.send(subscribedMessage(subscription.id, target));
        this.#live.add(subscription);
        this.options.metrics?.subscribers.inc();
        return;
      }
      let rows: Row[];
      try {
        rows = await this.#events(subscription.context, position, target, [subscription.table]);
      } catch (error) {
        subscription.owner.fail(subscription, this.#clientError(error));
        return;
      }
      if (subscription.ended) return;
      if (!confirmed) {
        subscription.owner.send(subscribedMessage(subscription.id, target));
        confirmed = true;
      }
      subscription.owner.batch(() => {
        for (const row of rows) this.#deliver(subscription, new BatchEvent(row));
      });
      position = target;
    }
  }

  /** Resolves after the next batch has run (or at once when stopped). */
  #nextBatch(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#idle.push(resolve));
    if (this.#ticking) this.#again = true;
    else this.wake();
    return done;
  }

  /** Unsubscribe, expiry, disconnect: nothing more is sent to it. */
  remove(subscription: Subscription): void {
    subscription.ended = true;
    if (this.#live.delete(subscription)) this.options.metrics?.subscribers.dec();
  }

  /** Something may have been written: read the outbox (coalesced while a batch runs). */
  wake(): void {
    if (this.#cursor === undefined || this.#stopped) {
      // No batch will run: nobody may wait for one.
      for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    this.#ticking = true;
    void this.#tick().finally(() => {
      this.#ticking = false;
      for (const resolve of this.#idle.splice(0)) resolve();
      if (this.#again && !this.#stopped) {
        this.#again = false;
        this.wake();
      }
    });
  }

  async #tick(): Promise<void> {
    try {
      const head = await this.#head();
      const from = this.#cursor as string;
      if (head === from) return;
      const groups = new Map<
        string,
        { context: PermissionContext; tables: Set<string>; members: Subscription[] }
      >();
      for (const subscription of this.#live) {
        let group = groups.get(subscription.context.key);
        if (!group) {
          group = { context: subscription.context, tables: new Set(), members: [] };
          groups.set(subscription.context.key, group);
        }
        group.tables.add(subscription.table);
        group.members.push(subscription);
      }
      const list = [...groups.values()];
      const results: Row[][] = new Array(list.length);
      let next = 0;
      const worker = async () => {
        while (next < list.length) {
          const i = next++;
          const group = list[i] as (typeof list)[number];
          results[i] = await this.#events(group.context, from, head, [...group.tables]);
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(GROUP_CONCURRENCY, list.length) }, worker));
      } catch (error) {
        const apiError = fromPostgresError(error);
        // The reader itself fell out of the retention window (the gateway was stopped that
        // long): its live subscriptions cannot be made whole; they are told, and it restarts at
        // the head.
        if (apiError.code !== "SERVER_ERROR" && apiError.status < 500) {
          for (const subscription of this.#live) subscription.owner.fail(subscription, apiError);
          this.#cursor = head;
          return;
        }
        throw error;
      }
      // Synchronously from here: the batch reaches every member, then the cursor moves.
      list.forEach((group, i) => {
        const rows = results[i] as Row[];
        if (rows.length === 0) return;
        const events = rows.map((row) => new BatchEvent(row));
        for (const member of group.members) {
          member.owner.batch(() => {
            for (const event of events) {
              if (member.ended) break;
              if (event.event.table === member.table) this.#deliver(member, event);
            }
          });
        }
      });
      this.#cursor = head;
      this.options.afterBatch?.();
    } catch (error) {
      // The cursor stays: the next poll or notification retries the same batch.
      const level = isConnectionFailure(error) ? "warn" : "error";
      this.options.log[level]({ err: error }, "realtime: reading the outbox failed; retrying");
    }
  }

  #deliver(subscription: Subscription, event: BatchEvent): void {
    if (!matches(subscription.match, event.event)) return;
    if (!subscription.owner.send(eventMessage(subscription.id, event.body))) return;
    const metrics = this.options.metrics;
    if (!metrics) return;
    metrics.delivered.inc();
    const committed = commitTime(event.row.created_at);
    if (committed !== undefined) metrics.lag.observe(Math.max(0, Date.now() - committed) / 1000);
  }

  async #head(): Promise<string> {
    const result = await this.options.pool.query<{ head: string }>("SELECT api.realtime_head() AS head");
    return (result.rows[0] as { head: string }).head;
  }

  async #events(context: PermissionContext, after: string, upto: string, tables: string[]): Promise<Row[]> {
    const result = await this.options.pool.query<Row>(
      "SELECT * FROM api.realtime_events($1::jsonb, $2, $3, $4::text[])",
      [JSON.stringify(context.ctx), after, upto, tables],
    );
    return result.rows;
  }

  /** A database error as the client may see it: our SQLSTATEs (GONE, BAD_REQUEST), else generic. */
  #clientError(error: unknown): ApiError {
    const apiError = fromPostgresError(error);
    if (apiError.status >= 500) this.options.log.error({ err: error }, "realtime: replay failed");
    return apiError;
  }

  #connectListener(): void {
    if (this.#listener || this.#stopped) return;
    const pool = this.options.pool as pg.Pool & { options: pg.ClientConfig };
    // retryTimeout 0: reconnect forever (pg-listen's default gives up after 3 s). The payload
    // carries nothing: every notification only wakes the reader.
    const listener = createSubscriber(
      { ...pool.options, application_name: "api-gateway-realtime" },
      {
        retryTimeout: 0,
        parse: (payload: string) => payload,
      },
    );
    this.#listener = listener;
    // pg-listen says "connected" before the first LISTEN has run (after reconnects, once it has
    // listened again): a NOTIFY sent in between would be missed until the next poll. So the
    // reader is woken once LISTEN has taken effect, for whatever was written before.
    let listened = false;
    listener.notifications.on(CHANNEL, () => this.wake());
    listener.events.on("connected", () => {
      if (listened) this.wake();
    });
    listener.events.on("error", (error: Error) => {
      this.options.log.warn({ err: error }, "realtime: LISTEN connection failed; reconnecting");
    });
    listener
      .connect()
      .then(() => listener.listenTo(CHANNEL))
      .then(() => {
        listened = true;
        this.wake();
      })
      .catch((error: unknown) => {
        // The first connection is not retried by pg-listen: the next poll makes a new one.
        this.options.log.warn(
          { err: error },
          "realtime: LISTEN connection failed; retrying at the next poll",
        );
        if (this.#listener === listener) this.#listener = undefined;
        void listener.close().catch(() => {});
      });
  }

  #maybePrune(): void {
    const now = Date.now();
    if (this.#stopped || now - this.#lastPrune < PRUNE_EVERY_MS - 1000) return;
    this.#lastPrune = now;
    // Every instance prunes; the function deletes in small batches, so two at once only share work.
    void this.#prune().catch((error: unknown) =>
      this.options.log.warn({ err: error }, "realtime: pruning the outbox failed"),
    );
  }

  /** Small batches until a call deletes less than a full one (writers are never blocked long). */
  async #prune(): Promise<void> {
    for (let round = 0; round < 100 && !this.#stopped; round++) {
      const result = await this.options.pool.query<{ deleted: string }>(PRUNE_SQL, [
        this.options.retentionSeconds,
        PRUNE_BATCH,
      ]);
      if (Number(result.rows[0]?.deleted ?? 0) < PRUNE_BATCH) return;
    }
  }
}

/** One row of a batch, parsed once and serialized once (when a subscriber first needs it). */
class BatchEvent {
  readonly event: OutboxEvent;
  #body: string | undefined;

  constructor(readonly row: Row) {
    this.event = toEvent(row);
  }

  get body(): string {
    this.#body ??= eventBody(this.event);
    return this.#body;
  }
}

function toEvent(row: Row): OutboxEvent {
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  const data = json(row.data);
  const old = json(row.old);
  return {
    eventId: row.event_id,
    table: row.table_name,
    op: row.op,
    key: (json(row.key) ?? {}) as Record<string, unknown>,
    ...(data != null ? { data: data as Record<string, unknown> } : {}),
    ...(old != null ? { old: old as Record<string, unknown> } : {}),
  };
}

/**
 * The subscription's own filter on the event (docs/realtime.md "Delivery rules"): an insert by
 * its new row; an update when the new row or the old one matches (a row leaving the filter is
 * news to a client that shows it); a delete by the row as it was; a delete-like event without
 * any row (it left the subscriber's view) is sent: the key alone tells nothing it did not see.
 */
export function matches(match: RowMatcher | undefined, event: OutboxEvent): boolean {
  if (!match) return true;
  const images = [event.data, event.old].filter((image) => image !== undefined);
  if (images.length === 0) return event.op === "delete";
  return images.some((image) => match(image as Record<string, unknown>));
}

/**
 * Orders two cursors of the database's form "<xid>:<seq>" (sql/realtime.sql); undefined when
 * either is not of that form (the database then decides, with A0400 for a malformed one).
 */
export function compareCursors(a: string, b: string): number | undefined {
  const pa = /^(\d{1,20}):(\d{1,19})$/.exec(a);
  const pb = /^(\d{1,20}):(\d{1,19})$/.exec(b);
  if (!pa || !pb) return undefined;
  const xa = BigInt(pa[1] as string);
  const xb = BigInt(pb[1] as string);
  if (xa !== xb) return xa < xb ? -1 : 1;
  const sa = BigInt(pa[2] as string);
  const sb = BigInt(pb[2] as string);
  return sa === sb ? 0 : sa < sb ? -1 : 1;
}

function commitTime(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "string" || typeof value === "number") {
    const ms = new Date(value).getTime();
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
