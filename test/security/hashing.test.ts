// Password hashing off the event loop (gateway/custom/hashPool.ts): bcrypt runs on worker
// threads, so logins do not stall other requests; and passwords over bcrypt's 72 bytes are
// refused with 422 before any hashing.
//
// The timing check is relative, so a slow or busy machine does not make it flaky: while 16
// logins (each a bcrypt comparison) run, /health must answer in under a quarter of the time the
// 16 logins take together. With hashing on the main thread /health waited for nearly all of it.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { threadId } from "node:worker_threads";
import t from "tap";
import {
  HashPool,
  hashPassword,
  MAX_PASSWORD_BYTES,
  passwordTooLong,
  verifyPassword,
} from "../../gateway/custom/hashPool.ts";
import { JWT_SECRET, testGateway } from "../harness/gateway.ts";

process.env.JWT_SECRET = JWT_SECRET;
const SEEDED = "$2b$10$CTfBJpIZx42FGvdCq48oGeWDHwoUFMD9zbUeDpGGAO.N4Nlx/X7uG"; // password123, the seed's

t.test("hashing runs on a worker thread, and existing hashes stay valid", async (t) => {
  const pool = new HashPool(2);
  t.teardown(() => pool.close());
  const answer = await pool.run({ op: "compare", password: "password123", hash: SEEDED });
  t.same(answer.value, true, "the seed's bcryptjs hash still matches");
  t.not(answer.threadId, threadId, `computed on thread ${answer.threadId}, not the main thread ${threadId}`);
  t.equal(await pool.compare("password124", SEEDED), false);
  const fresh = await pool.hash("a new password", 4);
  t.match(fresh, /^\$2[aby]\$04\$/);
  t.equal(await pool.compare("a new password", fresh), true);
  t.equal(await verifyPassword("password123", SEEDED), true, "the shared pool too");
  t.match(await hashPassword("x", 4), /^\$2/);
});

t.test("passwords over 72 bytes", async (t) => {
  t.equal(MAX_PASSWORD_BYTES, 72);
  t.notOk(passwordTooLong("a".repeat(72)));
  t.ok(passwordTooLong("a".repeat(73)));
  t.ok(passwordTooLong("é".repeat(37)), "bytes, not characters: 37 × 2 bytes");

  const gw = await testGateway(t, "tpl_example");
  const login = (password: string) =>
    gw.request({
      method: "POST",
      url: "/api/v1/user/login",
      payload: { username: "mia.member@acme.test", password },
    });
  const long = await login(`password123${"x".repeat(62)}`);
  t.equal(long.statusCode, 422);
  t.same(JSON.parse(long.body), {
    error: {
      code: "VALIDATION_ERROR",
      message: "Request validation failed",
      details: { password: "must be at most 72 bytes" },
    },
  });
  // bcrypt would have accepted it: its first 72 bytes are what counts, and they do not match
  // here, but a password sharing the stored one's first 72 bytes would have.
  const exactly72 = await login("x".repeat(72));
  t.equal(exactly72.statusCode, 401, "72 bytes is compared (and wrong)");
});

/** One request over a real socket from `localAddress` (any 127.x.y.z is loopback on Linux). */
function send(port: number, method: string, url: string, body: unknown, localAddress = "127.0.0.1") {
  return new Promise<number>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: url,
        localAddress,
        headers: payload
          ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
          : {},
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

t.test("16 logins at once do not stall /health", async (t) => {
  // A real socket: the stall is the event loop not reaching its poll phase, which fastify.inject
  // (no socket) would not see.
  const gw = await testGateway(t, "tpl_example");
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const port = (gw.app.server.address() as AddressInfo).port;
  // Distinct addresses and unknown usernames: no rate limit is reached, and each login still
  // runs one bcrypt comparison (against the dummy hash).
  const started = performance.now();
  const logins = Array.from({ length: 16 }, (_, i) =>
    send(
      port,
      "POST",
      "/api/v1/user/login",
      { username: `nobody${i}@example.test`, password: "password123" },
      `127.0.0.${i + 11}`,
    ),
  );
  let done = false;
  const all = Promise.all(logins).finally(() => {
    done = true;
  });
  // /health, again and again, for as long as the logins run.
  const latencies: number[] = [];
  const statuses = new Set<number>();
  while (!done) {
    const probeStart = performance.now();
    statuses.add(await send(port, "GET", "/health", undefined));
    latencies.push(performance.now() - probeStart);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.same([...statuses], [200], "/health answered");
  const answers = await all;
  const allMs = performance.now() - started;
  t.same(answers, Array(16).fill(401), "every login ran (and failed: unknown users)");
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  // bcrypt on the event loop answers /health only between its 100 ms slices, one per running
  // login: a median of hundreds of ms. Off the loop it is a few ms, even on a busy machine.
  t.ok(
    median < 100 && median < allMs / 20,
    `/health: median ${median.toFixed(0)} ms over ${latencies.length} probes while 16 logins took ${allMs.toFixed(0)} ms`,
  );
});
