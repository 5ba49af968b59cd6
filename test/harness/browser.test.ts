// The browser harness itself: Debian's chromium starts headless with our flags on this closed
// network and runs a page's JavaScript, served by a real Fastify server on 127.0.0.1.

import Fastify from "fastify";
import t from "tap";
import { withBrowserPage } from "./browser.ts";

t.test("chromium renders what a page's script writes", async (t) => {
  const app = Fastify();
  app.get("/", async (_req, reply) =>
    reply
      .type("text/html")
      .send(
        `<p id="out">static</p><script>document.getElementById("out").textContent = "from " + "script";</script>`,
      ),
  );
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  t.teardown(() => app.close());
  await withBrowserPage(t, async (page) => {
    await page.goto(url);
    t.equal(await page.textContent("#out"), "from script");
  });
});
