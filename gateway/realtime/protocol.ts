// The realtime protocol's messages (docs/realtime.md "Protocol"): what a client may send, checked
// field by field, and the server's messages as JSON text. Everything a client sends is data:
// table names are looked up in the schema, filters parsed by the PAGED parser, cursors handed to
// the database as bound parameters.

import { ApiError, type ErrorCode, errorBody } from "../errors.ts";

export type ClientMessage =
  | { type: "auth"; token: string }
  | { type: "subscribe"; id: string; table: string; filter?: string; since?: string }
  | { type: "unsubscribe"; id: string };

export type ParsedMessage =
  | { ok: true; message: ClientMessage }
  | { ok: false; id?: string; error: ApiError };

/** Longest subscription id and table name a client may send. */
const MAX_NAME = 128;
/** Longest cursor (`since`); the server's own are far shorter. */
const MAX_CURSOR = 256;
/** Longest token in an `auth` message. */
const MAX_TOKEN = 16 * 1024;

export function parseClientMessage(text: string): ParsedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused("BAD_REQUEST", "a message must be one JSON object");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refused("BAD_REQUEST", "a message must be one JSON object");
  }
  const m = value as Record<string, unknown>;
  const id = typeof m.id === "string" && m.id.length <= MAX_NAME ? m.id : undefined;
  switch (m.type) {
    case "auth": {
      if (typeof m.token !== "string" || m.token === "" || m.token.length > MAX_TOKEN) {
        return refused(
          "BAD_REQUEST",
          `"token" must be a non-empty string of at most ${MAX_TOKEN} characters`,
        );
      }
      return { ok: true, message: { type: "auth", token: m.token } };
    }
    case "subscribe": {
      if (id === undefined || id === "") return badId();
      if (typeof m.table !== "string" || m.table === "" || m.table.length > MAX_NAME) {
        return refused("BAD_REQUEST", `"table" must be a table name`, id);
      }
      if (m.filter !== undefined && m.filter !== null && typeof m.filter !== "string") {
        return refused("BAD_REQUEST", `"filter" must be a string`, id);
      }
      if (m.since !== undefined && m.since !== null) {
        if (typeof m.since !== "string" || m.since === "" || m.since.length > MAX_CURSOR) {
          return refused("BAD_REQUEST", `"since" must be an event id the server sent`, id);
        }
      }
      return {
        ok: true,
        message: {
          type: "subscribe",
          id,
          table: m.table,
          // An empty filter is no filter, as on PAGED routes.
          ...(typeof m.filter === "string" && m.filter !== "" ? { filter: m.filter } : {}),
          ...(typeof m.since === "string" ? { since: m.since } : {}),
        },
      };
    }
    case "unsubscribe":
      if (id === undefined || id === "") return badId();
      return { ok: true, message: { type: "unsubscribe", id } };
    default:
      return refused("BAD_REQUEST", `"type" must be one of auth, subscribe, unsubscribe`, id);
  }
}

function badId(): ParsedMessage {
  return refused("BAD_REQUEST", `"id" must be a non-empty string of at most ${MAX_NAME} characters`);
}

function refused(code: ErrorCode, message: string, id?: string): ParsedMessage {
  return { ok: false, ...(id !== undefined ? { id } : {}), error: new ApiError(code, message) };
}

/** One event as the database decided it for a permission context. */
export interface OutboxEvent {
  eventId: string;
  table: string;
  op: "insert" | "update" | "delete";
  key: Record<string, unknown>;
  data?: Record<string, unknown>;
  old?: Record<string, unknown>;
}

export function subscribedMessage(id: string, lastEventId: string): string {
  return JSON.stringify({ type: "subscribed", id, lastEventId });
}

/**
 * `{"type":"event","id":...,"eventId":...}`. The part after the id is the same for every
 * subscriber of a batch: it is serialized once per event (`eventBody`) and only the id per send.
 */
export function eventMessage(id: string, body: string): string {
  return `{"type":"event","id":${JSON.stringify(id)},${body}`;
}

/** The event's fields as JSON text without the opening brace (eventMessage prefixes it). */
export function eventBody(event: OutboxEvent): string {
  return JSON.stringify({
    eventId: event.eventId,
    table: event.table,
    op: event.op,
    key: event.key,
    ...(event.data !== undefined ? { data: event.data } : {}),
    ...(event.old !== undefined ? { old: event.old } : {}),
  }).slice(1);
}

/** `{"type":"error","id"?,"error":{code,message,details?}}`: the standard envelope's inner object. */
export function errorMessage(error: ApiError, id?: string): string {
  return JSON.stringify({
    type: "error",
    ...(id !== undefined ? { id } : {}),
    ...errorBody(error.code, error.message, error.details),
  });
}

/** Close codes (RFC 6455 7.4.1), documented in docs/realtime.md "Close codes". */
export const CLOSE = {
  /** The gateway is shutting down. */
  goingAway: 1001,
  /** The client broke the protocol (a message too large, binary frames). */
  policy: 1008,
  /** The connection fell behind: more than REALTIME_BUFFER bytes unsent. */
  slowConsumer: 1013,
} as const;
