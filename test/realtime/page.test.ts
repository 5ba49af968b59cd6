// The example's live page (example/public/live.html) in headless Chromium (Debian's, through the
// shared browser harness) against a real gateway: the page and the browser build of the client are
// served, a seeded user signs in on the page's form, rows inserted and updated through the HTTP
// API appear on it as they happen, and the other company's rows never do.

import path from "node:path";
import type { Page } from "playwright-core";
import t from "tap";
import { withBrowserPage } from "../harness/browser.ts";
import { type Claims, JWT_SECRET, token } from "../harness/gateway.ts";
import { EXAMPLE_DIR, exampleDatabase, liveGateway, sleep } from "./systemHarness.ts";

// The example's login handler signs tokens with JWT_SECRET (example/src/tokens.ts).
process.env.JWT_SECRET = JWT_SECRET;

const ACME_MEMBER = { role: "member", userId: 3, companyId: 1, scopes: ["tasks:write"] };
const GLOBEX_ADMIN = { role: "admin", userId: 4, companyId: 2, scopes: ["billing:read", "tasks:write"] };

t.test("the live page shows task events as they happen", async (t) => {
  const { url } = await exampleDatabase(t);
  const gw = await liveGateway(t, url, { publicDir: path.join(EXAMPLE_DIR, "public") });

  const html = await fetch(`${gw.http}/live.html`);
  t.equal(html.status, 200, "the page is served");
  t.match(html.headers.get("content-type"), /^text\/html/);
  const script = await fetch(`${gw.http}/client/realtime.js`);
  t.equal(script.status, 200, "the browser client is served");
  t.match(script.headers.get("content-type"), /^text\/javascript/);
  t.match(await script.text(), /export\s*\{[^}]*RealtimeClient/, "as an ES module exporting RealtimeClient");
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

  await withBrowserPage(t, async (browser) => {
    const page = pageOf(browser, gw.errorLog);
    await browser.goto(`${gw.http}/live.html`);
    await page.run(`document.getElementById("password").value = "password123";
    document.querySelector("button[type=submit]").click();`);
    // Login hashes the password and the browser has just started: on a loaded CI machine (tap at
    // 870 s) this took just over 10 s once, the page reaching "live" right after the wait gave up.
    await page.until(
      `document.getElementById("status").textContent === "live"`,
      "the page's subscription",
      30_000,
    );

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
  });
});

/** Expressions evaluated in the page, as text: the page's own globals, no bundling of test code. */
function pageOf(page: Page, gatewayErrors: string[]) {
  const run = (expression: string): Promise<unknown> => page.evaluate(expression);
  return {
    run,
    async until(expression: string, what: string, ms = 10_000) {
      try {
        await page.waitForFunction(expression, undefined, { timeout: ms, polling: 50 });
      } catch {
        const status = await run(`document.getElementById("status")?.textContent`);
        const logged = gatewayErrors.length > 0 ? `; the gateway logged:\n${gatewayErrors.join("\n")}` : "";
        throw new Error(`timed out waiting for ${what} (status: ${String(status)})${logged}`);
      }
    },
  };
}
