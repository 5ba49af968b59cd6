// The table rule over real WebSockets (docs/realtime.md "Delivery rules"): a table with `roles`
// or `scopes` (the example's invoice, with notify added here) is subscribed only by callers who
// pass its rule: 401 UNAUTHORIZED without credentials, 403 FORBIDDEN otherwise, as for routes.
// Its row policy (admins and managers of the company) then decides the rows.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { exampleAppWithStubs } from "../harness/app.ts";
import { client, EXAMPLE_DIR, realtimeGateway, token, USERS } from "./wsHarness.ts";

const schema = JSON.parse(fs.readFileSync(path.join(EXAMPLE_DIR, "api.schema.json"), "utf8"));
const invoice = schema.database.find((table: { name: string }) => table.name === "invoice");
invoice.notify = ["id", "companyId", "number", "amount", "status"];
const app = exampleAppWithStubs(t, schema, EXAMPLE_DIR);
const gw = await realtimeGateway(t, { appDir: app.dir });

async function newInvoice(companyId: number, number: string): Promise<void> {
  await gw.su.query(
    `INSERT INTO "invoice" ("companyId", "number", "amount", "currency", "status", "issuedOn")
     VALUES ($1, $2, 100, 'EUR', 'draft', '2026-01-01')`,
    [companyId, number],
  );
}

t.test("the table rule decides who may subscribe", async (t) => {
  const anonymous = await client(t, gw.url);
  t.match(await anonymous.subscribe("i", "invoice"), {
    type: "error",
    id: "i",
    error: { code: "UNAUTHORIZED", message: "Authentication required" },
  });
  const mia = await client(t, gw.url, USERS.miaMember);
  t.match(await mia.subscribe("i", "invoice"), {
    type: "error",
    id: "i",
    error: { code: "FORBIDDEN", message: "Insufficient permissions" },
  });
  const mark = await client(t, gw.url, USERS.markManager);
  t.match(
    await mark.subscribe("i", "invoice"),
    { type: "error", error: { code: "FORBIDDEN" } },
    "no billing:read",
  );
});

t.test("callers who pass it receive their company's rows only", async (t) => {
  const alice = await client(t, gw.url, USERS.aliceAdmin);
  const gus = await client(t, gw.url, USERS.gusManager);
  t.match(await alice.subscribe("i", "invoice"), { type: "subscribed" });
  t.match(await gus.subscribe("i", "invoice"), { type: "subscribed" });
  await newInvoice(1, "RT-ACME-1");
  await newInvoice(2, "RT-GLOBEX-1");
  t.match((await alice.events(1))[0], { op: "insert", data: { number: "RT-ACME-1", companyId: 1 } });
  t.match((await gus.events(1))[0], { op: "insert", data: { number: "RT-GLOBEX-1", companyId: 2 } });
  t.same(await alice.quiet(), []);
  t.same(await gus.quiet(), []);
});

t.test("a token renewed without the scope ends the subscription with FORBIDDEN", async (t) => {
  const c = await client(t, gw.url, USERS.aliceAdmin);
  await c.subscribe("i", "invoice");
  c.send({ type: "auth", token: token({ ...USERS.aliceAdmin, scopes: [] }) });
  t.match(await c.next(), { type: "error", id: "i", error: { code: "FORBIDDEN" } });
  await newInvoice(1, "RT-ACME-2");
  t.same(await c.quiet(), []);
});
