// Realtime sessions over real WebSockets (docs/realtime.md "Protocol", "Authentication",
// "Errors"): the two ways to authenticate, refused credentials, expiry at `exp` and renewal by a
// new `auth` message, and every subscribe error with its standard code.

import t from "tap";
import { client, realtimeGateway, token, USERS } from "./wsHarness.ts";

const gw = await realtimeGateway(t);

async function touchProject(id: number, name: string): Promise<void> {
  await gw.su.query(`UPDATE "project" SET "name" = $2 WHERE "id" = $1`, [id, name]);
}

t.test("auth by the upgrade request's Authorization header", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  await mia.subscribe("p", "project");
  await touchProject(2, "Website Redesign (header)");
  const [event] = await mia.events(1);
  t.match(event, { op: "update", key: { id: 2 } });
});

t.test("auth by a first message; a subscribe sent right after it is decided under it", async (t) => {
  const c = await client(t, gw.url);
  c.send({ type: "auth", token: token(USERS.miaMember) });
  c.send({ type: "subscribe", id: "p", table: "project" });
  t.match(await c.next(), { type: "subscribed", id: "p" });
  await touchProject(2, "Website Redesign (message)");
  const [event] = await c.events(1);
  t.match(event, { op: "update", key: { id: 2 }, data: { companyId: 1 } });
});

t.test("without credentials: public tables subscribe, row policies show nothing", async (t) => {
  const c = await client(t, gw.url);
  t.match(await c.subscribe("p", "project"), { type: "subscribed" });
  await touchProject(2, "Website Redesign (anonymous)");
  t.same(await c.quiet(), [], "no company: the policy shows no row");
});

t.test("refused credentials: an error without id; the connection stays, anonymous", async (t) => {
  const bad = await client(t, gw.url, "not.a.jwt");
  t.match(await bad.next(), {
    type: "error",
    error: { code: "UNAUTHORIZED", message: "Invalid credentials" },
  });
  const expired = await client(t, gw.url, token(USERS.miaMember, { expiresIn: -10 }));
  t.match(await expired.next(), { type: "error", error: { code: "UNAUTHORIZED", message: "Token expired" } });
  // Still usable: a good token by message.
  expired.send({ type: "auth", token: token(USERS.miaMember) });
  t.match(await expired.subscribe("p", "project"), { type: "subscribed" });
  const foreign = await client(t, gw.url, token(USERS.miaMember, {}).replace(/.$/, "x"));
  t.match(await foreign.next(), { type: "error", error: { code: "UNAUTHORIZED" } });
});

t.test("expiry: at exp every subscription ends with UNAUTHORIZED; a new auth message renews", async (t) => {
  const c = await client(t, gw.url, token(USERS.miaMember, { expiresIn: 2 }));
  await c.subscribe("a", "project");
  await c.subscribe("b", "task");
  const ended = [await c.next(4000), await c.next(1000)];
  t.same(ended.map((m) => m.id).sort(), ["a", "b"]);
  for (const m of ended)
    t.match(m, { type: "error", error: { code: "UNAUTHORIZED", message: "Token expired" } });
  await touchProject(2, "Website Redesign (after expiry)");
  t.same(await c.quiet(), [], "nothing after expiry");
  t.match(
    await c.subscribe("late", "project"),
    { type: "subscribed" },
    "subscribing while expired is anonymous",
  );
  c.send({ type: "unsubscribe", id: "late" });
  c.send({ type: "auth", token: token(USERS.miaMember) });
  t.match(await c.subscribe("a", "project"), { type: "subscribed", id: "a" });
  await touchProject(2, "Website Redesign (renewed)");
  t.match((await c.events(1))[0], { id: "a", data: { name: "Website Redesign (renewed)" } });
});

t.test("renewal before exp: the subscriptions continue and the old exp no longer ends them", async (t) => {
  const c = await client(t, gw.url, token(USERS.miaMember, { expiresIn: 2 }));
  await c.subscribe("a", "project");
  c.send({ type: "auth", token: token(USERS.miaMember, { expiresIn: 60 }) });
  t.same(await c.quiet(2500), [], "no error at the first token's exp");
  await touchProject(2, "Website Redesign (continued)");
  t.match((await c.events(1))[0], { id: "a", data: { name: "Website Redesign (continued)" } });
});

t.test("renewal with another tenant's token: the subscription continues under the new caller", async (t) => {
  const c = await client(t, gw.url, USERS.miaMember);
  await c.subscribe("a", "project");
  c.send({ type: "auth", token: token(USERS.ginaMember) });
  // The auth is handled before the next message: a round trip through an error proves it.
  t.match(await c.subscribe("x", "nope"), { type: "error", id: "x" });
  await touchProject(2, "Website Redesign (company 1)");
  await gw.su.query(`UPDATE "project" SET "name" = 'Fleet Telematics 2' WHERE "id" = 4`);
  const [event] = await c.events(1);
  t.match(event, { id: "a", key: { id: 4 }, data: { companyId: 2 } });
  t.same(await c.quiet(), []);
});

t.test("renewal that loses a column the filter uses ends that subscription", async (t) => {
  const c = await client(t, gw.url, USERS.markManager);
  t.match(await c.subscribe("budget", "project", { filter: "(budget,gt,1)" }), { type: "subscribed" });
  await c.subscribe("plain", "project");
  c.send({ type: "auth", token: token(USERS.miaMember) });
  t.match(await c.next(), {
    type: "error",
    id: "budget",
    error: {
      code: "BAD_REQUEST",
      message: /"budget" at position 1 cannot be filtered: hidden from your role/,
    },
  });
  await touchProject(2, "Website Redesign (plain)");
  const [event] = await c.events(1);
  t.equal(event?.id, "plain");
  t.notOk(Object.hasOwn(event?.data as object, "budget"), "and the plain one now sees a member's columns");
});

t.test("subscribe errors: standard codes, the subscription's id, positions in filters", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  const cases: [Record<string, unknown>, string, RegExp | string][] = [
    [{ table: "nope" }, "NOT_FOUND", 'unknown table "nope"'],
    [{ table: "company" }, "BAD_REQUEST", /table "company" sends no events/],
    [{ table: "project", filter: "(status,eq,active" }, "BAD_REQUEST", /^invalid filter: .* at position 0$/],
    [
      { table: "project", filter: "(status,EQ,active)" },
      "BAD_REQUEST",
      /unknown operator "EQ" at position 8/,
    ],
    [
      { table: "project", filter: "(status,active)and(budget,gt,1)" },
      "BAD_REQUEST",
      'invalid filter: column "budget" at position 19 cannot be filtered: hidden from your role',
    ],
    [
      { table: "project", filter: "(description,has,x)" },
      "BAD_REQUEST",
      /column "description" at position 1 cannot be filtered: not a notify column/,
    ],
    [
      { table: "project", filter: "(passwordHash,eq,x)" },
      "BAD_REQUEST",
      /column "passwordHash" at position 1 cannot be filtered: unknown column/,
    ],
    [{ table: "project", filter: "(name.x,eq,1)" }, "BAD_REQUEST", /cannot be filtered: unknown column/],
    [{ table: "project", filter: "(project.name.x,eq,1)" }, "BAD_REQUEST", /not a JSON column/],
    [
      { table: "project", filter: "(dueDate,gt,soon)" },
      "BAD_REQUEST",
      'filter value for column "dueDate" is not a valid date',
    ],
    [
      { table: "project", filter: "(id,in,1|two)" },
      "BAD_REQUEST",
      'filter value for column "id" is not a valid integer',
    ],
    [{ table: "task", filter: "(done,eq,maybe)" }, "BAD_REQUEST", /"done" is not a valid boolean/],
    [{ table: "project", since: "yesterday" }, "BAD_REQUEST", /cursor is not valid/],
  ];
  let n = 0;
  for (const [extra, code, message] of cases) {
    const id = `e${n++}`;
    mia.send({ type: "subscribe", id, ...extra });
    const answer = await mia.next();
    t.match(answer, { type: "error", id, error: { code } }, JSON.stringify(extra));
    const text = (answer.error as { message: string }).message;
    if (typeof message === "string") t.equal(text, message);
    else t.match(text, message);
  }
  const mark = await client(t, gw.url, USERS.markManager);
  t.match(await mark.subscribe("ok", "project", { filter: "(budget,gt,1)and(project.status,ne,x)" }), {
    type: "subscribed",
  });
});

t.test("protocol errors: malformed messages, a duplicate id, binary frames", async (t) => {
  const c = await client(t, gw.url, USERS.miaMember);
  c.send("not json");
  t.match(await c.next(), { type: "error", error: { code: "BAD_REQUEST", message: /one JSON object/ } });
  c.send({ type: "subscribe", table: "project" });
  t.match(await c.next(), { type: "error", error: { code: "BAD_REQUEST", message: /"id"/ } });
  c.send({ type: "hello", id: "h" });
  t.match(await c.next(), { type: "error", id: "h", error: { code: "BAD_REQUEST" } });
  await c.subscribe("same", "project");
  t.match(await c.subscribe("same", "task"), { type: "error", id: "same", error: { code: "CONFLICT" } });
  c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  t.match(await c.next(), { type: "error", error: { code: "BAD_REQUEST" } });
  t.equal((await c.closed).code, 1008, "closed as a policy violation");
});

t.test("a message over 64 KiB closes with 1009", async (t) => {
  const c = await client(t, gw.url, USERS.miaMember);
  c.send({ type: "auth", token: "x".repeat(70 * 1024) });
  t.equal((await c.closed).code, 1009);
});

t.test("a plain GET of the endpoint says it takes WebSockets", async (t) => {
  const res = await gw.app.inject({ method: "GET", url: "/realtime" });
  t.equal(res.statusCode, 400);
  t.match(res.json(), { error: { code: "BAD_REQUEST", message: /WebSocket/ } });
});
