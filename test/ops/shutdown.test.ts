// Graceful shutdown over a real socket: `cli/run.ts` in a child process (as `make serve` runs it)
// with slow requests in flight gets SIGTERM. New connections must be refused at once, the requests
// in flight must be answered, and the process must exit 0 within SHUTDOWN_TIMEOUT_MS; a request
// still running at that deadline loses its connection, and the process still exits 0.

import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import t, { type Test } from "tap";
import { freePort } from "../../db/postgres.ts";
import { JWT_SECRET } from "../harness/gateway.ts";
import { SERVICE_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";
import { opsDatabase, sleep } from "./helpers.ts";

t.setTimeout(120_000);

interface Answer {
  status?: number;
  body?: string;
  error?: string;
  at: number;
}

/** One request on a connection of its own (no keep-alive pool hiding a refused connect). */
function get(port: number, p: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: p, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, at: Date.now() }));
      res.on("error", (e) =>
        resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, at: Date.now() }),
      );
    });
    req.on("error", (e) =>
      resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, at: Date.now() }),
    );
  });
}

async function serve(
  t: Test,
  shutdownTimeoutMs: number,
): Promise<{ child: ChildProcess; port: number; exited: Promise<number | null>; output: () => string }> {
  const { appDir, url, gatewayUrl } = await opsDatabase(t);
  const serviceUrl = new URL(url);
  serviceUrl.username = "api_service";
  serviceUrl.password = SERVICE_TEST_PASSWORD;
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "cli/run.ts", "--app", appDir], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: url,
      GATEWAY_DATABASE_URL: gatewayUrl,
      SERVICE_DATABASE_URL: serviceUrl.toString(),
      JWT_SECRET,
      PORT: String(port),
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c) => {
    output += c;
  });
  child.stderr?.on("data", (c) => {
    output += c;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const deadline = Date.now() + 60_000;
  while (!/serving /.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`cli/run.ts did not start:\n${output}`);
    await sleep(50);
  }
  return { child, port, exited, output: () => output };
}

t.test("SIGTERM: refuses new connections, answers the requests in flight, exits 0", async (t) => {
  const shutdownTimeoutMs = 5000;
  const { child, port, exited, output } = await serve(t, shutdownTimeoutMs);
  t.equal((await get(port, "/api/v1/item")).status, 200, "serving");

  // Two seconds in SQL through a handler, one second in a standard route's SQL.
  const inFlight = [
    get(port, "/api/v1/ops/sleep"),
    get(port, "/api/v1/item/slow"),
    get(port, "/api/v1/ops/sleep"),
  ];
  await sleep(400);
  const signalled = Date.now();
  child.kill("SIGTERM");
  await sleep(300);
  const refused = await get(port, "/api/v1/item");
  t.equal(refused.error, "ECONNREFUSED", "a new connection is refused while requests finish");

  const answers = await Promise.all(inFlight);
  for (const a of answers) {
    t.equal(a.status, 200, `an in-flight request is answered: ${a.body ?? a.error}`);
    t.ok(a.at - signalled < shutdownTimeoutMs, "within SHUTDOWN_TIMEOUT_MS");
  }
  t.ok(
    answers.some((a) => a.at - signalled > 1000),
    "the requests really were still running at SIGTERM",
  );
  t.equal(await exited, 0, `exit code 0:\n${output()}`);
  t.ok(Date.now() - signalled < shutdownTimeoutMs + 2000, "the process ended soon after its requests");
  t.match(output(), /stopping: finishing requests in flight/);
  t.notMatch(output(), /still running at SHUTDOWN_TIMEOUT_MS/, "nothing was cut");
});

t.test("SIGTERM: a request longer than SHUTDOWN_TIMEOUT_MS is cut at the deadline, exit 0", async (t) => {
  const shutdownTimeoutMs = 500;
  const { child, port, exited, output } = await serve(t, shutdownTimeoutMs);
  const slow = get(port, "/api/v1/ops/sleep");
  await sleep(300);
  const signalled = Date.now();
  child.kill("SIGTERM");
  const answer = await slow;
  t.ok(answer.error, `the connection was closed without an answer (${answer.error ?? answer.status})`);
  t.ok(answer.at - signalled >= shutdownTimeoutMs - 50, "not before the deadline");
  t.ok(answer.at - signalled < shutdownTimeoutMs + 1000, "at the deadline, not when the handler ends");
  t.equal(await exited, 0, `exit code 0:\n${output()}`);
  t.match(output(), /still running at SHUTDOWN_TIMEOUT_MS/);
});
