// The API's description as the gateway serves it (gateway/http/apiDocs.ts): /openapi.json is the
// generated document, /docs renders it in a real browser (headless Chromium) with every route of
// the example app on the page and no request leaving the gateway, and API_DOCS=0 serves neither.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { buildModel } from "../../generator/model/index.ts";
import { withBrowserPage } from "../harness/browser.ts";
import { testGateway } from "../harness/gateway.ts";
import { REPO } from "../harness/templates.ts";

const generated = JSON.parse(fs.readFileSync(path.join(REPO, "example/generated/openapi.json"), "utf8"));

t.test("/openapi.json is the generated document", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const res = await gw.request({ method: "GET", url: "/openapi.json" });
  t.equal(res.statusCode, 200);
  t.match(res.headers["content-type"], /^application\/json/);
  t.same(JSON.parse(res.body), generated, "the same document make check writes");
  t.equal(gw.statements(), 0, "served from memory");
});

t.test("API_DOCS=0: neither is served", async (t) => {
  const gw = await testGateway(t, "tpl_example", { apiDocs: false });
  for (const url of ["/openapi.json", "/docs", "/docs/swagger-ui-bundle.js"]) {
    const res = await gw.request({ method: "GET", url });
    t.equal(res.statusCode, 404, url);
    t.equal(JSON.parse(res.body).error.code, "NOT_FOUND");
  }
});

t.test("/docs in headless Chromium: every route on the page, nothing fetched from elsewhere", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const address = gw.app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const base = `http://127.0.0.1:${address.port}`;
  const schema = readAppSchema(path.join(REPO, "example")).schema;
  if (!schema) throw new Error("the example does not load");
  const routes = buildModel(schema).routes;

  const { requested, shown, errors } = await withBrowserPage(t, async (page) => {
    const requested: string[] = [];
    const errors: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${base}/docs`);
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    const shown = await page.$$eval(".opblock", (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector(".opblock-summary-method")?.textContent ?? "";
        const path = b.querySelector("[data-path]")?.getAttribute("data-path") ?? "";
        return `${method.trim()} ${path.trim()}`;
      }),
    );
    return { requested, shown, errors };
  });

  t.same(errors, [], "no script errors");
  const expected = routes.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]\w*)/g, "{$1}")}`).sort();
  t.same([...shown].sort(), expected, `all ${routes.length} routes of the example are on the page`);
  const elsewhere = requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith("data:"));
  t.same(elsewhere, [], "every request of the page went to the gateway");
  t.ok(requested.includes(`${base}/openapi.json`), "the page loaded the gateway's document");
});
