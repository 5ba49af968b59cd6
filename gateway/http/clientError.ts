// Errors Node's HTTP parser answers before Fastify sees a request (a malformed request line or
// header, headers over the size limit, a request not received within REQUEST_TIMEOUT_MS): the
// same error envelope as every other answer, written straight to the socket, which is then closed
// (the parser's state is unknown, so the connection cannot be reused).

import http from "node:http";
import type { Socket } from "node:net";
import { ERRORS, type ErrorCode, errorBody } from "../errors.ts";

type ParserError = Error & { code?: string };

function answerFor(error: ParserError): { code: ErrorCode; message: string } {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { code: "REQUEST_TIMEOUT", message: "The request was not received in time" };
  }
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return { code: "HEADERS_TOO_LARGE", message: "Request headers are too large" };
  }
  if (error.code === "HPE_INVALID_METHOD") {
    return { code: "BAD_REQUEST", message: "Unknown HTTP method" };
  }
  return { code: "BAD_REQUEST", message: "Malformed HTTP request" };
}

export function clientErrorHandler(
  this: { log: { debug(obj: unknown, msg: string): void } },
  error: ParserError,
  socket: Socket,
): void {
  // A reset or already-closed connection has no one to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { code, message } = answerFor(error);
  const body = JSON.stringify(errorBody(code, message));
  const status = ERRORS[code].status;
  // Debug only: these are usually scanners and broken clients, and each would be a log line.
  this.log.debug({ err: error, status }, "client error before routing");
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  }
  socket.destroySoon();
}
