// The realtime protocol's messages as the client sees them (docs/realtime.md). Event ids are
// opaque strings: the server's cursor, handed back as `since`; the client never orders or parses
// them.

/** The operation an event records. */
export type RealtimeOp = "insert" | "update" | "delete";

/** The standard error envelope's inner object (docs/errors.md codes). */
export interface RealtimeErrorBody {
  code: string;
  message: string;
  details?: Record<string, string>;
}

export interface AuthMessage {
  type: "auth";
  token: string;
}

export interface SubscribeMessage {
  type: "subscribe";
  id: string;
  table: string;
  filter?: string;
  since?: string;
}

export interface UnsubscribeMessage {
  type: "unsubscribe";
  id: string;
}

export type ClientMessage = AuthMessage | SubscribeMessage | UnsubscribeMessage;

export interface SubscribedMessage {
  type: "subscribed";
  id: string;
  lastEventId: string;
}

/** One table change. `data` is absent for a delete-like event (a row that left the subscriber's view). */
export interface RealtimeEvent<Row = Record<string, unknown>> {
  type: "event";
  /** The subscription it belongs to. */
  id: string;
  eventId: string;
  table: string;
  op: RealtimeOp;
  key: Record<string, unknown>;
  data?: Partial<Row>;
  old?: Partial<Row>;
}

export interface ErrorMessage {
  type: "error";
  id?: string;
  error: RealtimeErrorBody;
}

export type ServerMessage = SubscribedMessage | RealtimeEvent | ErrorMessage;

/** Parses one text frame; null for anything that is not a message of the protocol. */
export function parseServerMessage(text: string): ServerMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const type = (value as { type?: unknown }).type;
  if (type === "subscribed" || type === "event" || type === "error") return value as ServerMessage;
  return null;
}
