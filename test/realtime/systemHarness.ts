// Real gateways on real ports for the realtime system, client and page tests: the example app
// served by buildGateway and listening on 127.0.0.1, any number of them on one database, plus a
// TCP relay in front of one that a test can cut (a network drop the server did not choose).

import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import type { Test } from "tap";
import WebSocket from "ws";
import { readAppSchema } from "../../app/load.ts";
import { RealtimeClient, type RealtimeClientOptions } from "../../client/realtime.ts";
import { builtInAuthenticator, readAuthConfig } from "../../gateway/auth/index.ts";
import { loadHandlers } from "../../gateway/custom/index.ts";
import { createPool } from "../../gateway/pool.ts";
import { buildGateway } from "../../gateway/server.ts";
import { connect, testDatabase } from "../harness/db.ts";
import { JWT_SECRET } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";

export const EXAMPLE_DIR = path.join(REPO, "example");

/** A copy of the migrated example with its seed data: its URL and a superuser client. */
export async function exampleDatabase(t: Test): Promise<{ url: string; su: pg.Client }> {
  const url = await testDatabase(t, "tpl_example");
  const su = await connect(t, url);
  await su.query(fs.readFileSync(path.join(EXAMPLE_DIR, "seed.sql"), "utf8"));
  return { url, su };
}

export interface LiveGateway {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  http: string;
  /** `ws://127.0.0.1:<port>/realtime` */
  ws: string;
  port: number;
  /** Closes it now (1001 to its WebSocket clients); teardown then does nothing more. */
  close(): Promise<void>;
  /**
   * What it logged at level error, one JSON line each: a test that times out waiting for the
   * gateway says what threw (a 500 or a realtime SERVER_ERROR that only a loaded machine meets).
   */
  errorLog: string[];
}

export interface LiveGatewayOptions {
  /** The gateway role's URL; default: api_gateway with the test password on `databaseUrl`. */
  gatewayUrl?: string;
  serviceUrl?: string;
  publicDir?: string;
  /** Listen on this port (a gateway that comes back where the previous one was); default: any. */
  port?: number;
}

/** The example app served by a real gateway on a free port of 127.0.0.1, closed at teardown. */
export async function liveGateway(
  t: Test,
  databaseUrl: string,
  options: LiveGatewayOptions = {},
): Promise<LiveGateway> {
  const schema = readAppSchema(EXAMPLE_DIR).schema;
  if (!schema) throw new Error("the example's schema does not load");
  const pool = createPool(
    options.gatewayUrl ?? roleUrl(databaseUrl, "api_gateway", GATEWAY_TEST_PASSWORD),
    4,
  );
  const servicePool = createPool(
    options.serviceUrl ?? roleUrl(databaseUrl, "api_service", SERVICE_TEST_PASSWORD),
    2,
  );
  const authenticate = builtInAuthenticator(
    readAuthConfig({ JWT_SECRET }) as Parameters<typeof builtInAuthenticator>[0],
    schema.globalParams,
  );
  const debug = process.env.TEST_LOG_LEVEL === "debug";
  const errorLog: string[] = [];
  const app = buildGateway({
    schema,
    pool,
    authenticate,
    config: {
      maxPerPage: 100,
      bodyLimit: 1024 * 1024,
      logLevel: debug ? "debug" : "error",
    },
    ...(debug ? {} : { logStream: lineSink(errorLog) }),
    handlers: await loadHandlers(EXAMPLE_DIR, schema),
    servicePool,
    ...(options.publicDir ? { publicDir: options.publicDir } : {}),
  });
  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      await pool.end();
      await servicePool.end();
    })();
    return closing;
  };
  t.teardown(close);
  const port = (app.server.address() as net.AddressInfo).port;
  return {
    app,
    port,
    close,
    errorLog,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/realtime`,
  };
}

/** A stream keeping what is written to it as lines, in `lines`. */
function lineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").trimEnd().split("\n"));
      done();
    },
  });
}

export function roleUrl(databaseUrl: string, role: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

/** A client for `url` using the `ws` package (Node 20 has no WebSocket), closed at teardown. */
export function nodeClient(t: Test, options: Omit<RealtimeClientOptions, "WebSocket">): RealtimeClient {
  const client = new RealtimeClient({
    reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    ...options,
    WebSocket,
  });
  t.teardown(() => client.close());
  return client;
}

/** A TCP relay to `port` whose connections a test can cut, or refuse while `refusing`. */
export interface Relay {
  port: number;
  /** Destroys every open connection, both sides, as a network failure would. */
  cut(): void;
  /** While true, new connections are accepted and closed at once. */
  refusing: boolean;
  /** When each connection was accepted (ms, Date.now()). */
  accepted: number[];
}

export async function relay(t: Test, targetPort: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const state: Relay = {
    port: 0,
    refusing: false,
    accepted: [],
    cut() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
  const server = net.createServer((inbound) => {
    state.accepted.push(Date.now());
    if (state.refusing) {
      inbound.destroy();
      return;
    }
    const outbound = net.connect(targetPort, "127.0.0.1");
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as net.AddressInfo).port;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        state.cut();
        server.close(() => resolve());
      }),
  );
  return state;
}

/** Inserts `titles` as tasks of company 1, project 1, one statement each; returns their ids. */
export async function insertTasks(
  db: pg.Client | pg.Pool,
  titles: string[],
  companyId = 1,
): Promise<number[]> {
  const ids: number[] = [];
  for (const title of titles) {
    const project = companyId === 1 ? 1 : await projectOf(db, companyId);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO public."task" ("companyId", "projectId", "title") VALUES ($1, $2, $3) RETURNING "id"`,
      [companyId, project, title],
    );
    ids.push(Number(rows[0]?.id));
  }
  return ids;
}

async function projectOf(db: pg.Client | pg.Pool, companyId: number): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT "id" FROM public."project" WHERE "companyId" = $1 ORDER BY "id" LIMIT 1`,
    [companyId],
  );
  return Number(rows[0]?.id);
}

/** Resolves when `check` holds (polled every 20 ms), or rejects after `ms` saying `what`. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
