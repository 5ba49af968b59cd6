// Each request's logger is made when the request first logs (gateway/http/requestLog.ts): lines
// still carry the request's id, levels still hold, and a request that logs nothing below the
// level makes no child.

import { Writable } from "node:stream";
import Fastify, { type FastifyBaseLogger } from "fastify";
import t from "tap";
import { requestLogger } from "../../gateway/http/requestLog.ts";

async function server(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line !== "") lines.push(JSON.parse(line));
      done();
    },
  });
  let children = 0;
  const app = Fastify({
    logger: { level, stream },
    childLoggerFactory: (parent, bindings, options) => {
      // Count the real children made, through the factory's own calls of parent.child.
      const counting = Object.create(parent) as FastifyBaseLogger;
      counting.child = (b, o) => {
        children++;
        return parent.child(b, o);
      };
      return requestLogger(counting, bindings, options);
    },
  });
  app.get("/quiet", async (request) => {
    request.log.info("below the level");
    request.log.debug({ detail: 1 }, "far below");
    return "ok";
  });
  app.get("/loud", async (request) => {
    request.log.info("maybe");
    request.log.warn({ detail: 2 }, "at the level");
    request.log.error("above it");
    return request.id;
  });
  app.get("/child", async (request) => {
    request.log.child({ part: "db" }).warn("from a child");
    return { level: request.log.level, id: request.id };
  });
  await app.ready();
  // Fastify's own lines (at info: "incoming request", "request completed") left out.
  const own = () => lines.filter((l) => !("req" in l) && !("res" in l));
  return { app, lines: own, children: () => children };
}

t.test("at warn: nothing below the level, no child made for it", async (t) => {
  const s = await server("warn");
  t.teardown(() => s.app.close());
  const res = await s.app.inject("/quiet");
  t.equal(res.statusCode, 200);
  t.equal(s.lines().length, 0, "no line");
  t.equal(s.children(), 0, "no child made");
});

t.test("at warn: lines at and above the level, with the request id, one child a request", async (t) => {
  const s = await server("warn");
  t.teardown(() => s.app.close());
  const a = await s.app.inject("/loud");
  const b = await s.app.inject("/loud");
  t.same(
    s.lines().map((l) => [l.msg, l.detail, l.reqId]),
    [
      ["at the level", 2, a.body],
      ["above it", undefined, a.body],
      ["at the level", 2, b.body],
      ["above it", undefined, b.body],
    ],
  );
  t.not(a.body, b.body);
  t.equal(s.children(), 2, "one child per request that logged");
});

t.test("at info: every level from info up, as a plain child would", async (t) => {
  const s = await server("info");
  t.teardown(() => s.app.close());
  const res = await s.app.inject("/loud");
  t.same(
    s.lines().map((l) => l.msg),
    ["maybe", "at the level", "above it"],
  );
  t.ok(s.lines().every((l) => l.reqId === res.body));
});

t.test("a child of the request's logger and its level", async (t) => {
  const s = await server("warn");
  t.teardown(() => s.app.close());
  const res = await s.app.inject("/child");
  const body = res.json() as { level: string; id: string };
  t.equal(body.level, "warn", "the request logger's level is the parent's");
  t.equal(s.lines().length, 1);
  t.match(s.lines()[0], { msg: "from a child", part: "db", reqId: body.id });
});
