// The realtime system end to end over real WebSockets: two gateway instances on one database
// (each delivers every event to its own subscribers, whichever instance or program wrote it), a
// writer that is plain `psql` (events come from the table's triggers, not from the gateway), and
// the client library resuming with `since` after the server itself went away and came back on
// the same port (nothing lost, nothing duplicated, in order).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import t, { type Test } from "tap";
import type { RealtimeEvent } from "../../client/realtime.ts";
import { type Claims, token } from "../harness/gateway.ts";
import { exampleDatabase, insertTasks, liveGateway, nodeClient, sleep, until } from "./systemHarness.ts";

const ACME_MEMBER = { role: "member", userId: 3, companyId: 1, scopes: ["tasks:write"] };
const ACME_MANAGER = { role: "manager", userId: 2, companyId: 1, scopes: ["tasks:write"] };
const GLOBEX_ADMIN = { role: "admin", userId: 4, companyId: 2, scopes: ["billing:read", "tasks:write"] };
const PSQL = "/usr/bin/psql";

/** Subscribes `claims` to tasks whose title starts with `prefix` on `url`; returns the events. */
async function watch(t: Test, url: string, claims: Claims, prefix: string): Promise<RealtimeEvent[]> {
  const events: RealtimeEvent[] = [];
  let subscribed = false;
  const client = nodeClient(t, { url, token: token(claims) });
  client.subscribe("task", {
    filter: `(title,sw,${prefix})`,
    onEvent: (e) => events.push(e),
    onSubscribed: () => {
      subscribed = true;
    },
  });
  await until(() => subscribed, `subscribed on ${url}`);
  return events;
}

const titles = (events: RealtimeEvent[]) => events.map((e) => `${e.op}:${String(e.data?.title ?? e.key.id)}`);

t.test("two gateway instances on one database", async (t) => {
  const { url, su } = await exampleDatabase(t);
  const a = await liveGateway(t, url);
  const b = await liveGateway(t, url);
  const onA = await watch(t, a.ws, ACME_MEMBER, "two-");
  const onB = await watch(t, b.ws, ACME_MANAGER, "two-");
  const globexOnB = await watch(t, b.ws, GLOBEX_ADMIN, "two-");

  // Written through instance A's HTTP API, through B's, and by plain SQL.
  const post = async (base: string, title: string) => {
    const res = await fetch(`${base}/api/v1/task`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token(ACME_MEMBER)}` },
      body: JSON.stringify({ projectId: 1, title }),
    });
    t.equal(res.status, 200, `POST ${title}`);
  };
  await post(a.http, "two-via-a");
  await post(b.http, "two-via-b");
  await insertTasks(su, ["two-via-sql"]);
  await until(() => onA.length === 3 && onB.length === 3, "three events on each instance");
  await sleep(300);
  const expected = ["insert:two-via-a", "insert:two-via-b", "insert:two-via-sql"];
  t.same(titles(onA), expected, "instance A's subscriber: every event, once, in order");
  t.same(titles(onB), expected, "instance B's subscriber: the same events");
  t.same(
    onA.map((e) => e.eventId),
    onB.map((e) => e.eventId),
    "the same event ids on both instances (one outbox)",
  );
  t.same(globexOnB, [], "the other tenant's subscriber on B gets none of them");
});

t.test("a writer that is plain psql", { skip: fs.existsSync(PSQL) ? false : `no ${PSQL}` }, async (t) => {
  const { url } = await exampleDatabase(t);
  const gw = await liveGateway(t, url);
  const events = await watch(t, gw.ws, ACME_MEMBER, "psql-");
  const sql = `
    INSERT INTO public."task" ("companyId", "projectId", "title") VALUES (1, 1, 'psql-one'), (1, 1, 'psql-two');
    UPDATE public."task" SET "done" = true WHERE "title" = 'psql-one';
    DELETE FROM public."task" WHERE "title" = 'psql-two';
    INSERT INTO public."task" ("companyId", "projectId", "title") VALUES (2, 4, 'psql-other-tenant');`;
  const run = spawnSync(PSQL, [url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], { encoding: "utf8" });
  t.equal(run.status, 0, `psql ran (${run.stderr.trim()})`);
  await until(() => events.length >= 4, "four events from psql's statements");
  await sleep(300);
  t.same(
    events.map((e) => e.op),
    ["insert", "insert", "update", "delete"],
    "insert (two rows of one statement), update, delete, in commit order",
  );
  t.same(
    events.slice(0, 2).map((e) => e.data?.title),
    ["psql-one", "psql-two"],
  );
  t.match(events[2], { op: "update", data: { title: "psql-one", done: true } });
  t.match(events[3], { op: "delete", key: { id: events[1]?.key.id } });
  t.notOk(
    events.some((e) => e.data?.title === "psql-other-tenant"),
    "the other company's row is not delivered",
  );
});

t.test("the server goes away and comes back: the client resumes with since", async (t) => {
  const { url, su } = await exampleDatabase(t);
  const first = await liveGateway(t, url);
  const events = await watch(t, first.ws, ACME_MEMBER, "back-");
  await insertTasks(su, ["back-1", "back-2"]);
  await until(() => events.length === 2, "two events before the shutdown");
  // The server closes every socket (1001 going away); events keep being written meanwhile.
  await first.close();
  await insertTasks(su, ["back-3", "back-4"]);
  const second = await liveGateway(t, url, { port: first.port });
  await insertTasks(su, ["back-5"]);
  await until(() => events.length >= 5, "the missed and new events from the new instance", 15_000);
  await sleep(300);
  t.same(
    events.map((e) => e.data?.title),
    ["back-1", "back-2", "back-3", "back-4", "back-5"],
    "nothing lost, nothing duplicated, in order",
  );
  t.equal(second.port, first.port);
});
