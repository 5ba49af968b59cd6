// The handlers as the gateway uses them: a FastifyRequest passed as it is, over a real socket,
// where Node collapses repeated Authorization headers in `headers` (rawHeaders keeps them).

import net from "node:net";
import Fastify, { type FastifyRequest } from "fastify";
import t from "tap";
import { builtInAuthenticator } from "../../gateway/auth/custom.ts";
import { claims, hs256, hsConfig, now } from "./fixtures/keys.ts";

/** Raw HTTP, so the request can carry two Authorization headers. */
function rawGet(port: number, headerLines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        ["GET /who HTTP/1.1", "Host: test", ...headerLines, "Connection: close", "", ""].join("\r\n"),
      );
    });
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(data.slice(data.indexOf("\r\n\r\n") + 4)));
  });
}

t.test("a FastifyRequest is an AuthRequest; two Authorization headers are refused", async (t) => {
  const authenticate = builtInAuthenticator(hsConfig(), ["userId"], { now });
  const app = Fastify();
  app.get("/who", async (request: FastifyRequest) => authenticate(request));
  await app.listen({ port: 0, host: "127.0.0.1" });
  t.teardown(() => app.close());
  const port = (app.server.address() as net.AddressInfo).port;
  const token = hs256(claims({ role: "admin", userId: 3 }));

  t.same(JSON.parse(await rawGet(port, [`Authorization: Bearer ${token}`])), {
    user: { role: "admin", scopes: [], globals: { userId: 3 } },
  });
  t.same(JSON.parse(await rawGet(port, [])), { anonymous: true, reason: "missing" });
  t.same(JSON.parse(await rawGet(port, [`Authorization: Bearer ${token}`, "Authorization: Bearer x.y.z"])), {
    anonymous: true,
    reason: "invalid",
    detail: "2 Authorization headers",
  });
  t.same(
    JSON.parse(await rawGet(port, ["Authorization: Bearer x.y.z", `Authorization: Bearer ${token}`])),
    { anonymous: true, reason: "invalid", detail: "2 Authorization headers" },
    "whichever comes first",
  );

  // inject(): light-my-request's request, lower-case scheme.
  const injected = await app.inject({
    method: "GET",
    url: "/who",
    headers: { authorization: `bearer ${token}` },
  });
  t.same(injected.json(), { user: { role: "admin", scopes: [], globals: { userId: 3 } } });
});
