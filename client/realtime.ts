// The realtime client (docs/realtime.md "Client library"), for browsers and Node: one WebSocket
// to the gateway's realtime endpoint, authenticated by a first `auth` message (browsers cannot
// set headers on an upgrade), typed subscriptions, and reconnects with exponential backoff that
// resume every subscription with `since` = the last event it delivered, so the application sees
// neither a gap nor a duplicate. No dependency: the platform's WebSocket, or in Node 20 (which
// has none) a constructor passed in, e.g. the `ws` package's.

import {
  type ClientMessage,
  type ErrorMessage,
  parseServerMessage,
  type RealtimeEvent,
  type ServerMessage,
} from "./protocol.ts";
import { RealtimeError, type SubscribeOptions, Subscription } from "./subscription.ts";

export type { RealtimeEvent, RealtimeOp } from "./protocol.ts";
export {
  RealtimeError,
  type SubscribeOptions,
  Subscription,
  type SubscriptionStatus,
} from "./subscription.ts";

/** What the client uses of a WebSocket (the browser's and the `ws` package's both have it). */
interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** A WebSocket class: the browser's `WebSocket`, or `ws`'s default export in Node. */
export type WebSocketConstructor = new (url: string) => object;

/** A token, or a function that fetches a fresh one (called on every (re)connect). */
export type TokenSource = string | null | (() => string | null | Promise<string | null>);

export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "closed";

export interface RealtimeClientOptions {
  /** `ws://host:port/realtime` (or `wss://`). */
  url: string;
  token?: TokenSource;
  /** Required where there is no global WebSocket (Node 20): `import WebSocket from "ws"`. */
  WebSocket?: WebSocketConstructor;
  /** Reconnect delays: initial * factor^attempt, capped, with jitter (a random 50-100 %). */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number; factor?: number };
  /** Errors that concern the connection rather than one subscription. */
  onError?: (error: RealtimeError) => void;
  onStateChange?: (state: ConnectionState) => void;
}

const OPEN = 1;
// Subscriptions of any row type, as the connection holds them (it never reads rows).
type Untyped = Subscription<Record<string, unknown>>;
// Errors after which the same request may succeed later: retried with backoff, not ended.
const TRANSIENT = new Set(["SERVICE_UNAVAILABLE", "SERVER_ERROR", "GATEWAY_TIMEOUT", "TOO_MANY_REQUESTS"]);

export class RealtimeClient {
  private socket: SocketLike | null = null;
  private readonly subscriptions = new Map<string, Untyped>();
  private nextId = 1;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  /** The server refused the token: reconnecting with the same one is pointless until setToken. */
  private needsToken = false;
  private state: ConnectionState = "idle";
  private readonly WebSocketClass: WebSocketConstructor;

  constructor(private readonly options: RealtimeClientOptions) {
    const platform = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    const WebSocketClass = options.WebSocket ?? platform;
    if (!WebSocketClass) {
      throw new Error("no WebSocket here: pass one, e.g. new RealtimeClient({ url, WebSocket }) with ws's");
    }
    this.WebSocketClass = WebSocketClass;
  }

  get connectionState(): ConnectionState {
    return this.state;
  }

  /** Opens the connection now (subscribe() also does). */
  connect(): void {
    this.stopped = false;
    if (!this.socket && this.timer === undefined) this.open();
  }

  /** Subscribes to a table's changes; events arrive by `onEvent` or by iterating the result. */
  subscribe<Row = Record<string, unknown>>(
    table: string,
    options: SubscribeOptions<Row> = {},
  ): Subscription<Row> {
    const id = `s${this.nextId++}`;
    const subscription = new Subscription<Row>(id, table, options.filter, options, (s) =>
      this.detach(s as unknown as Untyped),
    );
    this.subscriptions.set(id, subscription as unknown as Untyped);
    if (this.socket?.readyState === OPEN) this.sendSubscribe(subscription as unknown as Untyped);
    else this.connect();
    return subscription;
  }

  /**
   * Renews the token: sent at once on an open connection (subscriptions the server ended for an
   * expired token resume from their cursor), and used by every later reconnect.
   */
  setToken(token: TokenSource): void {
    this.options.token = token;
    const waited = this.needsToken;
    this.needsToken = false;
    const socket = this.socket;
    if (socket?.readyState === OPEN) {
      void this.authenticate(socket).then((ok) => {
        if (!ok) return;
        for (const s of this.subscriptions.values()) if (s.status === "paused") this.sendSubscribe(s);
      });
    } else if (waited && !this.stopped && !this.socket) {
      this.clearTimer();
      this.open();
    }
  }

  /** Closes for good: no reconnect, every subscription ends. */
  close(): void {
    this.stopped = true;
    this.clearTimer();
    for (const s of this.subscriptions.values()) s.finish();
    this.subscriptions.clear();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, "client closed");
    }
    this.setState("closed");
  }

  private open(): void {
    this.setState(this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new this.WebSocketClass(this.options.url) as SocketLike;
    this.socket = socket;
    let refused = false;
    socket.onopen = () => {
      void this.authenticate(socket).then((ok) => {
        if (!ok || this.socket !== socket) return;
        this.setState("open");
        if (this.subscriptions.size === 0) this.attempt = 0;
        for (const s of this.subscriptions.values()) this.sendSubscribe(s);
      });
    };
    socket.onmessage = (event) => {
      const message = parseServerMessage(textOf(event.data));
      if (message?.type === "error" && message.id === undefined && message.error.code === "UNAUTHORIZED") {
        refused = true;
      }
      if (message) this.handle(message);
    };
    socket.onerror = () => {
      // Always followed by close, which reconnects.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const s of this.subscriptions.values()) if (s.status === "active") s.status = "pending";
      if (this.stopped) {
        this.setState("closed");
        return;
      }
      // A token the server refused is not retried as it is; a token function may yield a new one.
      if (refused && typeof this.options.token !== "function") {
        this.needsToken = true;
        this.setState("idle");
        return;
      }
      this.scheduleReconnect();
    };
  }

  /** Sends the `auth` message when there is a token; false when the socket went meanwhile. */
  private async authenticate(socket: SocketLike): Promise<boolean> {
    const source = this.options.token;
    let token: string | null | undefined;
    try {
      token = typeof source === "function" ? await source() : source;
    } catch (error) {
      this.options.onError?.(
        new RealtimeError("UNAUTHORIZED", `the token function failed: ${String(error)}`),
      );
      token = null;
    }
    if (this.socket !== socket || socket.readyState !== OPEN) return false;
    if (token) this.send({ type: "auth", token });
    return true;
  }

  private handle(message: ServerMessage): void {
    if (message.type === "error") {
      this.handleError(message);
      return;
    }
    const subscription = this.subscriptions.get(message.id);
    if (!subscription) return; // unsubscribed meanwhile
    if (message.type === "subscribed") {
      this.attempt = 0;
      subscription.confirmed(message.lastEventId);
    } else if (subscription.deliver(message as RealtimeEvent)) {
      this.attempt = 0;
    }
  }

  private handleError({ id, error }: ErrorMessage): void {
    const problem = new RealtimeError(error.code, error.message, id, error.details);
    if (id === undefined) {
      // For the connection: an expired token ends every subscription (they wait for setToken).
      if (error.code === "UNAUTHORIZED") {
        for (const s of this.subscriptions.values()) if (s.status !== "ended") s.status = "paused";
      }
      this.options.onError?.(problem);
      return;
    }
    const subscription = this.subscriptions.get(id);
    if (!subscription) return;
    if (error.code === "UNAUTHORIZED") {
      subscription.status = "paused";
      subscription.report(problem);
    } else if (TRANSIENT.has(error.code)) {
      subscription.status = "pending";
      subscription.report(problem);
      const socket = this.socket;
      setTimeout(() => {
        if (this.socket === socket && subscription.status === "pending") this.sendSubscribe(subscription);
      }, this.delay());
    } else {
      // Refused (unknown table, bad filter, a cursor older than retention...): not retried.
      this.subscriptions.delete(id);
      subscription.fail(problem);
    }
  }

  private sendSubscribe(subscription: Untyped): void {
    if (subscription.status === "ended") return;
    subscription.status = "pending";
    this.send({
      type: "subscribe",
      id: subscription.id,
      table: subscription.table,
      ...(subscription.filter !== undefined ? { filter: subscription.filter } : {}),
      ...(subscription.lastEventId !== undefined ? { since: subscription.lastEventId } : {}),
    });
  }

  private detach(subscription: Untyped): void {
    this.subscriptions.delete(subscription.id);
    if (this.socket?.readyState === OPEN) this.send({ type: "unsubscribe", id: subscription.id });
  }

  private send(message: ClientMessage): void {
    this.socket?.send(JSON.stringify(message));
  }

  private scheduleReconnect(): void {
    this.setState("reconnecting");
    const wait = this.delay();
    this.attempt++;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped && !this.socket) this.open();
    }, wait);
  }

  /** The next backoff delay in ms: initial * factor^attempt, capped, times a random 0.5-1. */
  private delay(): number {
    const { initialDelayMs = 250, maxDelayMs = 10_000, factor = 2 } = this.options.reconnect ?? {};
    const base = Math.min(maxDelayMs, initialDelayMs * factor ** this.attempt);
    return Math.round(base * (0.5 + Math.random() / 2));
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onStateChange?.(state);
  }
}

/** A frame's text: browsers give a string, `ws` may give a Buffer or ArrayBuffer. */
function textOf(data: unknown): string {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(data as ArrayBuffer);
  }
  return String(data);
}
