// The HTTP server's timeouts (gateway/config.ts TIMEOUT_DEFAULTS), as Fastify options. Node
// refuses a headers timeout longer than the request timeout, and checks both only every
// `connectionsCheckingInterval` (30 s by default), which would stretch a short request timeout:
// check a few times per timeout instead, but no more than once every 50 ms or less than once per
// second.

import type { Server } from "node:http";
import type { FastifyHttpOptions } from "fastify";
import type { GatewayConfig } from "../config.ts";
import { TIMEOUT_DEFAULTS } from "../config.ts";

type Timeouts = Partial<
  Pick<GatewayConfig, "requestTimeoutMs" | "connectionTimeoutMs" | "keepAliveTimeoutMs">
>;

/** Node's own default for receiving the headers, kept when the request timeout allows it. */
const HEADERS_TIMEOUT_MS = 60_000;

export function serverTimeouts(
  config: Timeouts,
): Pick<FastifyHttpOptions<Server>, "requestTimeout" | "connectionTimeout" | "keepAliveTimeout" | "http"> {
  const requestTimeout = config.requestTimeoutMs ?? TIMEOUT_DEFAULTS.requestTimeoutMs;
  return {
    requestTimeout,
    connectionTimeout: config.connectionTimeoutMs ?? TIMEOUT_DEFAULTS.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs ?? TIMEOUT_DEFAULTS.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 4))),
    },
  };
}
