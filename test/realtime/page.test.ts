// The example's live page (example/public/live.html) in headless Chromium (Debian's, driven over
// the DevTools protocol) against a real gateway: the page and the browser build of the client are
// served, a seeded user signs in on the page's form, rows inserted and updated through the HTTP
// API appear on it as they happen, and the other company's rows never do.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t, { type Test } from "tap";
import WebSocket from "ws";
import { type Claims, JWT_SECRET, token } from "../harness/gateway.ts";
import { EXAMPLE_DIR, exampleDatabase, liveGateway, sleep } from "./systemHarness.ts";

const CHROMIUM = "/usr/bin/chromium";

// The example's login handler signs tokens with JWT_SECRET (example/src/tokens.ts).
process.env.JWT_SECRET = JWT_SECRET;

const ACME_MEMBER = { role: "member", userId: 3, companyId: 1, scopes: ["tasks:write"] };
const GLOBEX_ADMIN = { role: "admin", userId: 4, companyId: 2, scopes: ["billing:read", "tasks:write"] };

t.test(
  "the live page shows task events as they happen",
  { skip: fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM} (apt-get install chromium)` },
  async (t) => {
    const { url } = await exampleDatabase(t);
    const gw = await liveGateway(t, url, { publicDir: path.join(EXAMPLE_DIR, "public") });

    const html = await fetch(`${gw.http}/live.html`);
    t.equal(html.status, 200, "the page is served");
    t.match(html.headers.get("content-type"), /^text\/html/);
    const script = await fetch(`${gw.http}/client/realtime.js`);
    t.equal(script.status, 200, "the browser client is served");
    t.match(script.headers.get("content-type"), /^text\/javascript/);
    t.match(
      await script.text(),
      /export\s*\{[^}]*RealtimeClient/,
      "as an ES module exporting RealtimeClient",
    );
    t.equal((await fetch(`${gw.http}/live.html/../seed.sql`)).status, 404, "nothing else of the app");

    const post = async (claims: Claims, projectId: number, title: string) => {
      const res = await fetch(`${gw.http}/api/v1/task`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token(claims)}` },
        body: JSON.stringify({ projectId, title }),
      });
      t.equal(res.status, 200, `POST /api/v1/task ${title}`);
      return ((await res.json()) as { data: { id: number } }).data.id;
    };

    const page = await browserPage(t);
    await page.goto(`${gw.http}/live.html`);
    await page.run(`document.getElementById("password").value = "password123";
    document.querySelector("button[type=submit]").click();`);
    await page.until(`document.getElementById("status").textContent === "live"`, "the page's subscription");

    const id = await post(ACME_MEMBER, 1, "Shown live on the page");
    await post(GLOBEX_ADMIN, 4, "Another company's task");
    const cells = `[...document.querySelectorAll("#events tr")].map((r) => [...r.cells].map((c) => c.textContent))`;
    await page.until(`${cells}.length === 1`, "the new row on the page");
    t.same(
      await page.run(cells),
      [["insert", String(id), "Shown live on the page", "medium", "false", await page.run(`${cells}[0][5]`)]],
      "the new row, as it happened",
    );
    await sleep(500);
    t.notOk(
      String(await page.run(`document.getElementById("events").textContent`)).includes("Another company"),
      "the other company's task is not shown",
    );

    const done = await fetch(`${gw.http}/api/v1/task/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${token(ACME_MEMBER)}` },
      body: JSON.stringify({ done: true }),
    });
    t.equal(done.status, 200, "PATCH done");
    await page.until(`${cells}.length === 2`, "the update on the page");
    t.match(
      await page.run(`${cells}[0]`),
      ["update", String(id), "Shown live on the page", "medium", "true"],
      "the update, on top",
    );
  },
);

interface BrowserPage {
  goto(url: string): Promise<void>;
  /** Evaluates `expression` in the page; its value (JSON). */
  run(expression: string): Promise<unknown>;
  /** Waits until `expression` is true in the page. */
  until(expression: string, what: string, ms?: number): Promise<void>;
}

/**
 * A page of a headless Chromium of its own (fresh profile, no network beyond 127.0.0.1 needed),
 * closed at teardown. The flags keep it from reaching out on a closed network.
 */
async function browserPage(t: Test): Promise<BrowserPage> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "api-chromium-"));
  const chromium = spawn(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    // Its own process group: chromium's helper processes (renderer, GPU, network) die with it.
    { stdio: ["ignore", "ignore", "pipe"], detached: true },
  );
  const exited = new Promise((resolve) => chromium.once("exit", resolve));
  t.teardown(async () => {
    try {
      process.kill(-(chromium.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
    await exited;
    // A helper process may still be flushing its cache for a moment: retry, and never let the
    // cleanup of a temp directory fail the test (or skip the teardowns after it).
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (error) {
      t.comment(`left ${profile}: ${(error as Error).message}`);
    }
  });
  const browserUrl = await new Promise<string>((resolve, reject) => {
    let text = "";
    chromium.stderr.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found?.[1]) resolve(found[1]);
    });
    chromium.once("exit", (code) => reject(new Error(`chromium exited (${code}): ${text.slice(-500)}`)));
  });
  const http = browserUrl.replace(/^ws:\/\/([^/]+)\/.*$/, "http://$1");
  const targets = (await (await fetch(`${http}/json/list`)).json()) as {
    type: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((x) => x.type === "page");
  if (!target) throw new Error("chromium has no page");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
  t.teardown(() => ws.close());
  let nextId = 1;
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  ws.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString("utf8")) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  const call = (method: string, params: object) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) =>
        message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result as never),
      );
      ws.send(JSON.stringify({ id, method, params }));
    });
  const run = async (expression: string) => {
    const result = (await call("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string };
    };
    if (result.exceptionDetails) throw new Error(`in the page: ${JSON.stringify(result.exceptionDetails)}`);
    return result.result.value;
  };
  return {
    async goto(url) {
      await call("Page.enable", {});
      const loaded = new Promise<void>((resolve) =>
        ws.on("message", (data: Buffer) => {
          if (String(data).includes('"Page.loadEventFired"')) resolve();
        }),
      );
      await call("Page.navigate", { url });
      await loaded;
    },
    run,
    async until(expression, what, ms = 10_000) {
      const deadline = Date.now() + ms;
      while ((await run(expression)) !== true) {
        if (Date.now() > deadline) {
          const status = await run(`document.getElementById("status")?.textContent`);
          throw new Error(`timed out waiting for ${what} (status: ${String(status)})`);
        }
        await sleep(50);
      }
    },
  };
}
