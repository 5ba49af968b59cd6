// Request ids: in the log and the `x-request-id` header, so an operator can find a request a
// client reports. Random (a counter would tell anyone how busy the service is and let them
// guess other requests' ids), unless a proxy in front already gave the request one: then the
// same id follows it through both logs. An incoming id is honoured only when it is short and
// plain, so it cannot forge log lines or bloat every line of the log.

import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const REQUEST_ID_HEADER = "x-request-id";

const VALID_INCOMING = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestId(raw: IncomingMessage): string {
  const incoming = raw.headers[REQUEST_ID_HEADER];
  return typeof incoming === "string" && VALID_INCOMING.test(incoming) ? incoming : randomUUID();
}
