// Realtime tests' harness: a real gateway listening on a port (buildGateway as `make serve` builds
// it, realtime settings under test), the example app seeded in a copy of its template, and real
// WebSocket clients (the `ws` package) that queue what they receive.

import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Test } from "tap";
import WebSocket from "ws";
import { readAppSchema } from "../../app/load.ts";
import { migrateApp } from "../../db/migrate.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { REALTIME_DEFAULTS, type RealtimeConfig } from "../../gateway/config.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { type Claims, JWT_SECRET, token } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";

export { token };
export const EXAMPLE_DIR = path.join(REPO, "example");

/** Tokens of the example's seeded users (example/seed.sql): two companies, three roles each. */
export const USERS = {
  aliceAdmin: { role: "admin", scopes: ["billing:read", "tasks:write"], userId: 1, companyId: 1 },
  markManager: { role: "manager", scopes: ["tasks:write"], userId: 2, companyId: 1 },
  miaMember: { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 },
  gretaAdmin: { role: "admin", scopes: ["billing:read", "tasks:write"], userId: 4, companyId: 2 },
  gusManager: { role: "manager", scopes: ["billing:read", "tasks:write"], userId: 5, companyId: 2 },
  ginaMember: { role: "member", scopes: [], userId: 6, companyId: 2 },
} satisfies Record<string, Claims>;

export interface RealtimeGateway {
  app: FastifyInstance;
  /** ws://127.0.0.1:<port><path> */
  url: string;
  /** Superuser connection to the same database (writes like any other program's). */
  su: pg.Client;
  dbUrl: string;
  /** `api.realtime_events` calls this gateway has made so far. */
  eventQueries(): number;
}

export interface RealtimeGatewayOptions {
  realtime?: Partial<RealtimeConfig>;
  metrics?: boolean;
  /** Another instance on an existing database (no new database, no seed). */
  dbUrl?: string;
  /** A scratch app directory (migrated into a new database here) instead of the example template. */
  appDir?: string;
}

export async function realtimeGateway(
  t: Test,
  options: RealtimeGatewayOptions = {},
): Promise<RealtimeGateway> {
  let dbUrl = options.dbUrl;
  if (!dbUrl) {
    dbUrl = options.appDir ? await testDatabase(t) : await testDatabase(t, "tpl_example");
    if (options.appDir) await migrateApp({ appDir: options.appDir, url: dbUrl });
  }
  const su = await connect(t, dbUrl);
  if (!options.dbUrl) await su.query(fs.readFileSync(path.join(EXAMPLE_DIR, "seed.sql"), "utf8"));
  const appDir = options.appDir ?? EXAMPLE_DIR;
  const schema = readAppSchema(appDir).schema as Schema;
  const gatewayUrl = new URL(dbUrl);
  gatewayUrl.username = "api_gateway";
  gatewayUrl.password = GATEWAY_TEST_PASSWORD;
  const pool = createPool(gatewayUrl.toString(), 4);
  let eventQueries = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("realtime_events")) eventQueries++;
    return query(...args);
  };
  const authenticate = builtInAuthenticator(
    readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
    schema.globalParams,
  );
  const app = buildGateway({
    schema,
    pool,
    authenticate,
    config: {
      maxPerPage: 100,
      bodyLimit: 1024 * 1024,
      logLevel: process.env.TEST_LOG_LEVEL === "debug" ? "debug" : "silent",
      realtime: { ...REALTIME_DEFAULTS, pollMs: 200, ...options.realtime },
      ...(options.metrics
        ? {
            ops: {
              metrics: { enabled: true },
              poolWaitMs: 5000,
              statementTimeoutMs: 0,
              shutdownTimeoutMs: 5000,
            },
          }
        : {}),
    },
    handlers: await loadHandlers(appDir, schema),
    allowMissingHandlers: true,
  });
  let closed = false;
  app.addHook("onClose", async () => {
    closed = true;
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as { port: number };
  t.teardown(async () => {
    if (!closed) await app.close();
    await pool.end();
  });
  return {
    app,
    su,
    dbUrl,
    eventQueries: () => eventQueries,
    url: `ws://127.0.0.1:${address.port}${options.realtime?.path ?? "/realtime"}`,
  };
}

export type Message = Record<string, unknown> & { type: string };

/** Whether a message's object field (`data`, `old`) has `key`; false when the field is absent. */
export function has(message: Message | undefined, field: string, key: string): boolean {
  const value = message?.[field];
  return typeof value === "object" && value !== null && Object.hasOwn(value, key);
}

/** A WebSocket client that keeps every message; `next` takes them in order. */
export class Client {
  readonly received: Message[] = [];
  #taken = 0;
  #waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.received.push(JSON.parse(String(data)) as Message);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.once("close", (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const wake of this.#waiters.splice(0)) wake();
      }),
    );
    this.opened = new Promise((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** The next message not taken yet, waiting up to `ms`. */
  async next(ms = 5000): Promise<Message> {
    const deadline = Date.now() + ms;
    while (this.#taken >= this.received.length) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no message within ${ms} ms (received so far: ${JSON.stringify(this.received)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received[this.#taken++] as Message;
  }

  /** Messages until `count` of type `event` were taken (others are returned too). */
  async events(count: number, ms = 5000): Promise<Message[]> {
    const out: Message[] = [];
    while (out.length < count) {
      const message = await this.next(ms);
      if (message.type !== "event") throw new Error(`expected an event, got ${JSON.stringify(message)}`);
      out.push(message);
    }
    return out;
  }

  /** Nothing more arrives within `ms` (events are at most a poll away, so a quiet wait proves absence). */
  async quiet(ms = 700): Promise<Message[]> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const rest = this.received.slice(this.#taken);
    this.#taken = this.received.length;
    return rest;
  }

  /** subscribe and wait for its answer (subscribed or error). */
  async subscribe(
    id: string,
    table: string,
    extra: { filter?: string; since?: string } = {},
  ): Promise<Message> {
    this.send({ type: "subscribe", id, table, ...extra });
    return this.next();
  }

  close(): void {
    this.ws.close();
  }
}

/** A connected client; with `as`, authenticated by the upgrade's Authorization header. */
export async function client(t: Test, url: string, as?: Claims | string): Promise<Client> {
  const headers: Record<string, string> = {};
  if (as !== undefined) headers.authorization = `Bearer ${typeof as === "string" ? as : token(as)}`;
  const ws = new WebSocket(url, { headers });
  const c = new Client(ws);
  t.teardown(() => ws.terminate());
  await c.opened;
  return c;
}

/** Waits until `check` holds (polling), up to `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
