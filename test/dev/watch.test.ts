// Watch mode (gateway/dev): the dev server on a scratch copy of the example app, on this test's
// database copy, under a steady stream of reads and writes over real HTTP while the schema gains a
// route, then turns invalid, then a handler breaks and is edited. Every request must be answered
// 200: a swap drops none, and a broken version leaves the last good one serving.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import { seedApp } from "../../cli/seed.ts";
import { withClient } from "../../db/databases.ts";
import { readGatewayConfig } from "../../gateway/config.ts";
import { type DevServer, isWatchedPath, startDevServer } from "../../gateway/dev/index.ts";
import { exampleAppWithStubs } from "../harness/app.ts";
import { testDatabase } from "../harness/db.ts";
import { JWT_SECRET, token } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { REPO } from "../harness/templates.ts";

t.setTimeout(180_000);

const roleUrl = (url: string, user: string, password: string) => {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
};

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

t.test("only the schema file and src/** trigger a rebuild", async (t) => {
  t.ok(isWatchedPath("api.schema.json"));
  t.ok(isWatchedPath(path.join("src", "api", "v1", "user.api.v1.ts")));
  t.notOk(isWatchedPath(path.join("migrations", "0002_x.sql")), "migrate's own output is not a change");
  t.notOk(isWatchedPath(path.join(".data", "postgres", "x")));
});

t.test("swaps under load: a new route, a broken schema, a broken then edited handler", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  const exampleSchema = JSON.parse(fs.readFileSync(path.join(REPO, "example/api.schema.json"), "utf8"));
  const app = exampleAppWithStubs(t, exampleSchema, path.join(REPO, "example"));
  // ES modules, as the apps in this repository are (the temp dir has no package.json above it).
  fs.writeFileSync(path.join(app.dir, "package.json"), '{ "type": "module" }\n');
  const loaded = readAppSchema(path.join(REPO, "example")).schema;
  if (!loaded) throw new Error("the example's schema has errors");
  await withClient(url, (client) => seedApp(client, path.join(REPO, "example"), loaded));

  const saved = process.env.JWT_SECRET;
  process.env.JWT_SECRET = JWT_SECRET;
  t.teardown(() => {
    if (saved === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = saved;
  });
  const lines: string[] = [];
  const dev: DevServer = await startDevServer({
    appDir: app.dir,
    url,
    gatewayUrl: roleUrl(url, "api_gateway", GATEWAY_TEST_PASSWORD),
    serviceUrl: roleUrl(url, "api_service", SERVICE_TEST_PASSWORD),
    config: readGatewayConfig({ LOG_LEVEL: "silent" }),
    allowDataLoss: false,
    allowMissingHandlers: false,
    log: (line) => lines.push(line),
    port: 0,
    host: "127.0.0.1",
    debounceMs: 50,
  });
  t.teardown(() => dev.close());
  t.equal(dev.swaps, 1, "the first version serves");

  const base = `http://127.0.0.1:${dev.port}/api/v1`;
  const auth = { authorization: `Bearer ${token({ role: "admin", userId: 1, companyId: 1 })}` };
  const call = (method: string, p: string, body?: unknown) =>
    fetch(`${base}${p}`, {
      method,
      headers: { ...auth, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  // The load: reads (a table route, a custom handler) and writes, four loops one request after another.
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  const steps = [
    () => call("GET", "/company/public/1"),
    () => call("GET", "/user/me"),
    () => call("PATCH", "/user/me", { firstName: `Dev${sent % 100}` }),
    () => call("GET", "/user/me/session"),
  ];
  const loop = async (k: number) => {
    for (let i = k; running; i++) {
      sent += 1;
      try {
        const res = await (steps[i % steps.length] as () => Promise<Response>)();
        const text = await res.text();
        if (res.status !== 200) failures.push(`${res.status} ${text.slice(0, 200)}`);
      } catch (error) {
        failures.push(`network: ${(error as Error).message}`);
      }
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(loop));
  await new Promise((r) => setTimeout(r, 300));

  // 1. A new route: the same public profile under another path.
  const routes = exampleSchema.endpoints[0].routes;
  const publicRoute = routes.find((r: { path: string }) => r.path === "/company/public/:id");
  const withRoute = structuredClone(exampleSchema);
  withRoute.endpoints[0].routes.push({
    ...publicRoute,
    name: "Public profile again",
    path: "/company/listed/:id",
  });
  t.equal((await call("GET", "/company/listed/1")).status, 404, "the route does not exist yet");
  app.write(withRoute);
  await until("the new route's version", () => dev.swaps === 2);
  const added = await call("GET", "/company/listed/1");
  t.equal(added.status, 200, "the new route answers after the swap");
  t.match(await added.json(), { data: { id: 1, name: "Acme Robotics" } });
  t.match(
    fs.readFileSync(path.join(app.dir, "generated/types.ts"), "utf8"),
    /"GET \/api\/v1\/company\/listed\/:id": \{ request: GetCompanyListedById/,
    "the rebuild regenerated the types with the new route",
  );

  // 2. A broken schema: errors printed, the last good version keeps serving.
  const broken = structuredClone(withRoute);
  broken.endpoints[0].routes.push({
    ...publicRoute,
    name: "Broken",
    path: "/broken/:id",
    table: "no_such_table",
  });
  app.write(broken);
  await until("the broken schema's report", () => dev.failures === 1);
  t.match(lines.join("\n"), /not swapped: the previous version keeps serving[\s\S]*no_such_table/);
  t.equal((await call("GET", "/company/listed/1")).status, 200, "the last good version serves");
  t.equal((await call("GET", "/broken/1")).status, 404);

  // 3. A handler that does not compile: reported, nothing swapped, nothing migrated.
  const sessionFile = path.join(app.handlers, "user.api.v1.ts");
  const original = fs.readFileSync(sessionFile, "utf8");
  app.write(withRoute);
  await until("the good schema again", () => dev.swaps === 3);
  fs.writeFileSync(sessionFile, "export default class Stub { getUserMeSession(req, res) { res.sendData( }");
  await until("the broken handler's report", () => dev.failures === 2);
  t.match(lines.slice(-3).join("\n"), /user\.api\.v1\.ts failed to load/);
  t.same(await (await call("GET", "/user/me/session")).json(), { data: true }, "the old handler answers");

  // 4. A handler edit: the new code answers, with no restart.
  fs.writeFileSync(
    sessionFile,
    original.replace(
      "getUserMeSession(req, res) { res.sendData(true); }",
      "getUserMeSession(req, res) { res.sendData(false); }",
    ),
  );
  await until("the edited handler's version", () => dev.swaps === 4);
  t.same(await (await call("GET", "/user/me/session")).json(), { data: false }, "the edited handler answers");

  await new Promise((r) => setTimeout(r, 300));
  running = false;
  await load;
  t.comment(
    `watch mode under load: ${sent} requests sent across ${dev.swaps - 1} swaps and ${dev.failures} refused versions, ${failures.length} failed`,
  );
  t.same(failures, [], "no request failed");
  t.ok(sent > 100, `a steady stream ran (${sent} requests)`);
});
