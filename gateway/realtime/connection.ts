// One WebSocket client: its caller (from the upgrade's Authorization header or an `auth`
// message), its subscriptions, its expiry timer, its ping, and its bounded send buffer. A
// connection that cannot keep up (more than REALTIME_BUFFER bytes unsent) is told and closed with
// 1013; the others never wait for it, since a send only appends to its own socket's buffer.

import jwt from "jsonwebtoken";
import type { WebSocket } from "ws";
import {
  ANONYMOUS_MESSAGES,
  type Anonymous,
  type Authenticator,
  type AuthResult,
  isAnonymous,
} from "../auth/context.ts";
import { ApiError } from "../errors.ts";
import { permissionContext } from "./groups.ts";
import type { Log, RealtimeHub, Subscriber, Subscription } from "./hub.ts";
import { CLOSE, errorMessage, parseClientMessage } from "./protocol.ts";
import { checkSubscription, type NotifyTable } from "./tables.ts";

export interface ConnectionDeps {
  hub: RealtimeHub;
  tables: Map<string, NotifyTable>;
  schemaTables: ReadonlySet<string>;
  authenticate: Authenticator;
  /** The globals row policies of notify tables read (groups.ts). */
  globals: readonly string[];
  bufferBytes: number;
  pingMs: number;
  path: string;
  log: Log;
}

/** Most subscriptions one connection may hold. */
const MAX_SUBSCRIPTIONS = 100;
/** A closing connection whose peer does not finish the close handshake is cut after this. */
const CLOSE_GRACE_MS = 2_000;
/** How long a connection may stay over REALTIME_BUFFER unsent bytes before it is dropped. */
export const SLOW_GRACE_MS = 1_000;
/** Unsent bytes beyond this many times REALTIME_BUFFER drop the connection at once. */
export const HARD_LIMIT_FACTOR = 8;

/** The longest a timer may be set for (setTimeout's limit, ~24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

export class Connection implements Subscriber {
  #auth: AuthResult = { anonymous: true, reason: "missing" };
  #expiry: NodeJS.Timeout | undefined;
  readonly #subscriptions = new Map<string, Subscription>();
  #alive = true;
  #ping: NodeJS.Timeout | undefined;
  #closed = false;
  #backlogTimer: NodeJS.Timeout | undefined;
  /** Characters sent since the instance last checked its memory budget (realtime/index.ts). */
  #sentSinceCheck = 0;
  /** Messages are handled one after another: an `auth` finishes before the next subscribe. */
  #chain: Promise<void> = Promise.resolve();
  /** Settles when the socket has closed (shutdown waits for it, briefly). */
  readonly closed: Promise<void>;

  constructor(
    private readonly ws: WebSocket,
    private readonly deps: ConnectionDeps,
  ) {
    this.closed = new Promise((resolve) => ws.once("close", () => resolve()));
    ws.on("message", (data, isBinary) => {
      this.#chain = this.#chain
        .then(() => this.#onMessage(data, isBinary))
        .catch((error: unknown) => {
          deps.log.error({ err: error }, "realtime: handling a message failed");
          this.send(errorMessage(new ApiError("SERVER_ERROR")));
        });
    });
    ws.on("close", () => this.#onClose());
    ws.on("pong", () => {
      this.#alive = true;
    });
    this.#ping = setInterval(() => {
      // No pong since the last ping: the peer is gone (or its network is); free its resources.
      if (!this.#alive) {
        ws.terminate();
        return;
      }
      this.#alive = false;
      ws.ping();
    }, deps.pingMs);
    this.#ping.unref();
  }

  /**
   * The caller from the upgrade request's Authorization header, before any message is handled;
   * a refused one is sent as an error and the connection stays, anonymous.
   */
  authenticateUpgrade(request: Parameters<Authenticator>[0]): void {
    this.#chain = this.#chain.then(async () => {
      let result: AuthResult;
      try {
        result = await this.deps.authenticate(request);
      } catch (error) {
        this.deps.log.error({ err: error }, "realtime: the authentication handler failed");
        this.send(errorMessage(new ApiError("SERVER_ERROR")));
        return;
      }
      this.#setAuth(result, bearerOf(request.headers.authorization));
    });
  }

  /**
   * Sends a message, or drops the connection when it has fallen behind: more than REALTIME_BUFFER
   * bytes unsent for longer than SLOW_GRACE_MS (one large batch, which a reading client drains in
   * milliseconds, is not falling behind), or more than HARD_LIMIT_FACTOR times that at any moment
   * (the gateway's memory). A send only appends to this socket's buffer: nobody else waits.
   */
  send(text: string): boolean {
    if (this.#closed) return false;
    const unsent = this.ws.bufferedAmount + text.length;
    if (unsent > this.deps.bufferBytes * HARD_LIMIT_FACTOR) {
      this.#dropSlow();
      return false;
    }
    if (unsent > this.deps.bufferBytes) this.#watchBacklog();
    this.#sentSinceCheck += text.length;
    this.ws.send(text);
    return true;
  }

  /**
   * Corks the TCP socket around a batch: ws writes each frame separately, and a thousand
   * subscribers times a batch's events would be that many system calls; corked, each
   * connection's share of a batch is one write. (ws keeps the socket as `_socket`; nested corks
   * are counted, so its own per-frame cork/uncork stays inside ours.)
   */
  batch(sends: () => void): void {
    const socket = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (this.#closed || !socket) {
      sends();
      return;
    }
    socket.cork();
    try {
      sends();
    } finally {
      socket.uncork();
    }
  }

  /** Over the limit: checked again after the grace period (also when nothing more is sent). */
  #watchBacklog(): void {
    if (this.#backlogTimer) return;
    this.#backlogTimer = setTimeout(() => {
      this.#backlogTimer = undefined;
      if (this.#closed) return;
      if (this.ws.bufferedAmount > this.deps.bufferBytes) this.#dropSlow();
    }, SLOW_GRACE_MS);
    this.#backlogTimer.unref();
  }

  fail(subscription: Subscription, error: ApiError): void {
    this.deps.hub.remove(subscription);
    if (this.#subscriptions.get(subscription.id) === subscription)
      this.#subscriptions.delete(subscription.id);
    this.send(errorMessage(error, subscription.id));
  }

  /** Closes with a close frame (1001 on shutdown); a peer that does not answer is cut. */
  close(code: number, reason: string): void {
    if (this.#closed) return;
    this.#onClose();
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  /** Bytes queued on this socket and not yet written to the network. */
  get unsent(): number {
    return this.#closed ? 0 : this.ws.bufferedAmount;
  }

  /**
   * Unsent bytes older than the last budget check: what the client left unread since then. A
   * reading client that has just been sent a large batch has none; a stalled one keeps it all.
   * (Characters stand in for bytes: the messages are JSON, nearly all ASCII.)
   */
  get backlog(): number {
    return Math.max(0, this.unsent - this.#sentSinceCheck);
  }

  /** The budget was checked: what is unsent from here on counts as backlog at the next check. */
  checked(): void {
    this.#sentSinceCheck = 0;
  }

  /** Dropped to keep the instance within REALTIME_MEMORY (realtime/index.ts): as a slow consumer. */
  shed(): void {
    if (!this.#closed) {
      this.#dropSlow(
        `This connection fell behind while the server's realtime memory was full: ${this.ws.bufferedAmount} bytes were waiting to be sent. Reconnect and resume with "since".`,
      );
    }
  }

  #dropSlow(
    message = `This connection fell behind: more than ${this.deps.bufferBytes} bytes were waiting to be sent. Reconnect and resume with "since".`,
  ): void {
    const error = new ApiError("TOO_MANY_REQUESTS", message);
    // Past the limit on purpose: the client should learn why, and it is one small message.
    this.ws.send(errorMessage(error));
    this.deps.log.warn({ realtime: { buffered: this.ws.bufferedAmount } }, "realtime: slow consumer dropped");
    this.close(CLOSE.slowConsumer, "slow consumer");
  }

  async #onMessage(data: unknown, isBinary: boolean): Promise<void> {
    if (this.#closed) return;
    if (isBinary) {
      this.send(errorMessage(new ApiError("BAD_REQUEST", "messages are JSON text frames")));
      this.close(CLOSE.policy, "binary frame");
      return;
    }
    const parsed = parseClientMessage(String(data));
    if (!parsed.ok) {
      this.send(errorMessage(parsed.error, parsed.id));
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case "auth":
        await this.#renew(message.token);
        return;
      case "subscribe":
        this.#subscribe(message.id, message.table, message.filter, message.since);
        return;
      case "unsubscribe": {
        const subscription = this.#subscriptions.get(message.id);
        if (subscription) {
          this.deps.hub.remove(subscription);
          this.#subscriptions.delete(message.id);
        }
        return;
      }
    }
  }

  /**
   * A new token: the caller changes, its subscriptions continue under it when it may still have
   * them (each is checked again; one it may no longer have ends with the error). A token that
   * fails verification leaves the connection anonymous: its subscriptions end, as at expiry.
   */
  async #renew(token: string): Promise<void> {
    const headers = { authorization: `Bearer ${token}` };
    let result: AuthResult;
    try {
      result = await this.deps.authenticate({ headers, method: "GET", url: this.deps.path });
    } catch (error) {
      this.deps.log.error({ err: error }, "realtime: the authentication handler failed");
      this.send(errorMessage(new ApiError("SERVER_ERROR")));
      return;
    }
    if (this.#closed) return;
    this.#setAuth(result, token);
    for (const subscription of [...this.#subscriptions.values()]) {
      const check = checkSubscription(this.deps.tables, this.deps.schemaTables, subscription, this.#auth);
      if (!check.ok) {
        this.fail(subscription, check.error);
        continue;
      }
      subscription.context = permissionContext(this.#auth, this.deps.globals);
    }
  }

  #setAuth(result: AuthResult, token: string | undefined): void {
    if (this.#expiry) clearTimeout(this.#expiry);
    this.#expiry = undefined;
    this.#auth = result;
    if (isAnonymous(result)) {
      if (result.reason !== "missing") this.#refused(result);
      return;
    }
    const exp = token === undefined ? undefined : expiryOf(token);
    if (exp === undefined) return;
    const ms = exp * 1000 - Date.now();
    this.#expiry = setTimeout(() => this.#expire(), Math.max(0, Math.min(ms, MAX_TIMER_MS)));
    this.#expiry.unref();
  }

  /** Credentials that failed: the client is told (no id), the connection stays, anonymous. */
  #refused(result: Anonymous): void {
    this.send(errorMessage(new ApiError("UNAUTHORIZED", ANONYMOUS_MESSAGES[result.reason])));
    for (const subscription of [...this.#subscriptions.values()]) {
      this.fail(subscription, new ApiError("UNAUTHORIZED", ANONYMOUS_MESSAGES[result.reason]));
    }
  }

  /** At `exp`: every subscription ends with UNAUTHORIZED; an `auth` message starts again. */
  #expire(): void {
    this.#expiry = undefined;
    this.#auth = { anonymous: true, reason: "expired" };
    const error = new ApiError("UNAUTHORIZED", ANONYMOUS_MESSAGES.expired);
    const subscriptions = [...this.#subscriptions.values()];
    if (subscriptions.length === 0) this.send(errorMessage(error));
    for (const subscription of subscriptions) this.fail(subscription, error);
  }

  #subscribe(id: string, table: string, filter: string | undefined, since: string | undefined): void {
    if (this.#subscriptions.has(id)) {
      this.send(
        errorMessage(new ApiError("CONFLICT", `subscription id ${JSON.stringify(id)} is already in use`), id),
      );
      return;
    }
    if (this.#subscriptions.size >= MAX_SUBSCRIPTIONS) {
      this.send(
        errorMessage(
          new ApiError("TOO_MANY_REQUESTS", `at most ${MAX_SUBSCRIPTIONS} subscriptions per connection`),
          id,
        ),
      );
      return;
    }
    const check = checkSubscription(
      this.deps.tables,
      this.deps.schemaTables,
      { table, ...(filter !== undefined ? { filter } : {}) },
      this.#auth,
    );
    if (!check.ok) {
      this.send(errorMessage(check.error, id));
      return;
    }
    const subscription: Subscription = {
      id,
      table,
      ...(filter !== undefined ? { filter } : {}),
      match: check.match,
      context: permissionContext(this.#auth, this.deps.globals),
      owner: this,
      ended: false,
    };
    this.#subscriptions.set(id, subscription);
    this.deps.hub.subscribe(subscription, since).catch((error: unknown) => {
      this.deps.log.error({ err: error }, "realtime: subscribing failed");
      this.fail(
        subscription,
        new ApiError("SERVICE_UNAVAILABLE", "Realtime events are unavailable; retry shortly"),
      );
    });
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#expiry) clearTimeout(this.#expiry);
    if (this.#ping) clearInterval(this.#ping);
    if (this.#backlogTimer) clearTimeout(this.#backlogTimer);
    for (const subscription of this.#subscriptions.values()) this.deps.hub.remove(subscription);
    this.#subscriptions.clear();
  }
}

function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  return /^Bearer[ \t]+(\S+)$/i.exec(header.trim())?.[1];
}

/**
 * The token's `exp` (seconds). Read without verification, AFTER the gateway's authenticator
 * accepted the token: it only times the end of what was already verified. A token that is not a
 * JWT (a custom handler's own format) has none, and is not timed.
 */
function expiryOf(token: string): number | undefined {
  const payload = jwt.decode(token, { json: true });
  const exp = payload?.exp;
  return typeof exp === "number" && Number.isFinite(exp) ? exp : undefined;
}
