// Watch mode's one listening socket (docs/operations.md "Watch mode"). Fastify cannot remove
// routes, so each good version of the app is a new gateway instance; this http.Server hands every
// request to the instance current when it arrived (`app.routing`), and a swap retires the old
// instance only after its last request has answered, so no request fails during a swap.

import http from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";

export interface ServedVersion {
  app: FastifyInstance;
  /** Called once the version has no request left in flight: close its instance and pools. */
  retire: () => Promise<void>;
}

interface Tracked extends ServedVersion {
  inFlight: number;
  retiring: boolean;
  retired?: Promise<void>;
}

export class Dispatcher {
  readonly server: http.Server;
  private current: Tracked | undefined;

  constructor() {
    this.server = http.createServer((req, res) => this.dispatch(req, res));
    // WebSocket upgrades go to the current instance's own server, where its plugin listens.
    this.server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.current) this.current.app.server.emit("upgrade", req, socket, head);
      else socket.destroy();
    });
  }

  /** Serves `next` from now on; the previous version retires when its requests are done. */
  async swap(next: ServedVersion): Promise<void> {
    await next.app.ready();
    const previous = this.current;
    this.current = { ...next, inFlight: 0, retiring: false };
    if (previous) {
      previous.retiring = true;
      this.retireWhenIdle(previous);
    }
  }

  /** Stops listening, lets requests in flight finish, then retires the current version. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeIdleConnections();
    });
    const last = this.current;
    this.current = undefined;
    if (last) {
      last.retiring = true;
      this.retireWhenIdle(last);
      await last.retired;
    }
  }

  private dispatch(req: http.IncomingMessage, res: http.ServerResponse): void {
    const version = this.current;
    if (!version) {
      res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ error: { code: "SERVICE_UNAVAILABLE", message: "Starting" } }));
      return;
    }
    version.inFlight += 1;
    // 'close' fires once per response, whether it finished or the client went away.
    res.once("close", () => {
      version.inFlight -= 1;
      if (version.retiring) this.retireWhenIdle(version);
    });
    version.app.routing(req, res);
  }

  private retireWhenIdle(version: Tracked): void {
    if (version.inFlight > 0 || version.retired) return;
    // A failure to close is printed, never thrown: it must not stop the version now serving.
    version.retired = version.retire().catch((error: Error) => {
      console.error(`closing a retired version failed: ${error.message}`);
    });
  }
}
