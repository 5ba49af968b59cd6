// A gateway for the example app whose database is unreachable: enough for everything answered
// before any SQL (transport errors, CORS, timeouts, authentication refusals), with its log
// captured. Not a test file; no harness import (see helpers.ts).

import net from "node:net";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import type { Authenticator } from "../../gateway/auth/types.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway, type GatewayDeps } from "../../gateway/server.ts";
import { loadExampleSchema } from "./helpers.ts";

export const OFFLINE_SECRET = "an-offline-test-secret-of-32-bytes-or-more";

export interface OfflineGateway {
  app: FastifyInstance;
  /** Log lines written so far, parsed. */
  logs(): Record<string, unknown>[];
  close(): Promise<void>;
}

export async function offlineGateway(
  config: Partial<GatewayDeps["config"]> = {},
  authenticate?: Authenticator,
): Promise<OfflineGateway> {
  const schema = loadExampleSchema();
  const pool = createPool("postgres://api_gateway:x@127.0.0.1:9/nowhere", 1);
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split("\n")
          .filter((l) => l !== ""),
      );
      done();
    },
  });
  const app = buildGateway({
    schema,
    pool,
    authenticate:
      authenticate ??
      builtInAuthenticator(readAuthConfig({ JWT_SECRET: OFFLINE_SECRET }), schema.globalParams),
    config: { maxPerPage: 100, bodyLimit: 1024 * 1024, logLevel: "info", ...config },
    allowMissingHandlers: true,
    logStream,
  });
  await app.ready();
  return {
    app,
    logs: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

/** Raw bytes to a listening gateway; resolves with everything it answers until it closes. */
export function rawExchange(port: number, chunks: (string | Buffer)[], gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => {
      answer += String(d);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
    socket.on("connect", async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

/** Status line, headers (lower-case names) and JSON body of a raw HTTP/1.1 answer. */
export function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = "", body = ""] = answer.split("\r\n\r\n", 2);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: body === "" ? undefined : JSON.parse(body),
  };
}
