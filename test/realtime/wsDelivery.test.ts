// Realtime delivery rules over real WebSockets (docs/realtime.md "Delivery rules"): two tenants
// and several roles of the example app, writes made by a plain SQL connection (as psql or any
// other program would). Each rule has its test: table, column, row policy, own filter, delete,
// update out of view, notify columns, and one `api.realtime_events` call per permission group.

import t from "tap";
import { type Client, client, has, realtimeGateway, USERS } from "./wsHarness.ts";

const gw = await realtimeGateway(t);

/** A project of company `companyId`, written as plain SQL. */
async function newProject(companyId: number, name: string, status = "planning"): Promise<number> {
  const result = await gw.su.query<{ id: string }>(
    `INSERT INTO "project" ("companyId", "name", "status", "budget") VALUES ($1, $2, $3, 10) RETURNING "id"`,
    [companyId, name, status],
  );
  return Number(result.rows[0]?.id);
}

t.test("row policy: each tenant receives only its own rows", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  const gina = await client(t, gw.url, USERS.ginaMember);
  t.match(await mia.subscribe("p", "project"), { type: "subscribed", id: "p", lastEventId: String });
  t.match(await gina.subscribe("p", "project"), { type: "subscribed", id: "p" });
  const acme = await newProject(1, "RT acme");
  const globex = await newProject(2, "RT globex");
  const [miaEvent] = await mia.events(1);
  t.match(miaEvent, {
    type: "event",
    id: "p",
    table: "project",
    op: "insert",
    key: { id: acme },
    data: { id: acme, companyId: 1, name: "RT acme", status: "planning" },
  });
  t.type(miaEvent?.eventId, "string");
  const [ginaEvent] = await gina.events(1);
  t.match(ginaEvent, { op: "insert", key: { id: globex }, data: { companyId: 2 } });
  t.same(await mia.quiet(), [], "company 1 never sees company 2's row");
  t.same(await gina.quiet(), [], "company 2 never sees company 1's row");
});

t.test(
  "column rules and notify columns: only the columns the subscriber may see, only notify ones",
  async (t) => {
    const mia = await client(t, gw.url, USERS.miaMember);
    const mark = await client(t, gw.url, USERS.markManager);
    await mia.subscribe("p", "project");
    await mark.subscribe("p", "project");
    await gw.su.query(`UPDATE "project" SET "budget" = 130000, "name" = 'Warehouse Robot v3' WHERE "id" = 1`);
    const [forMark] = await mark.events(1);
    const [forMia] = await mia.events(1);
    t.match(forMark, {
      op: "update",
      data: { name: "Warehouse Robot v3", budget: 130000 },
      old: { budget: 125000 },
    });
    t.match(forMia, {
      op: "update",
      data: { name: "Warehouse Robot v3" },
      old: { name: "Warehouse Robot v2" },
    });
    t.notOk(has(forMia, "data", "budget"), "budget is hidden from members");
    t.notOk(has(forMia, "old", "budget"), "also in the old image");
    for (const hidden of ["description", "settings", "startDate", "ownerId", "createdOn"]) {
      t.notOk(has(forMark, "data", hidden), `${hidden} is not a notify column`);
    }
    // A change only to a column outside the notify list is no event.
    await gw.su.query(`UPDATE "project" SET "description" = 'changed' WHERE "id" = 1`);
    // A change only to a column hidden from Mia is none for her, an update for Mark.
    await gw.su.query(`UPDATE "project" SET "budget" = 140000 WHERE "id" = 1`);
    const [budgetOnly] = await mark.events(1);
    t.match(budgetOnly, { op: "update", data: { budget: 140000 } });
    t.same(await mark.quiet(), [], "the description change sent nothing");
    t.same(await mia.quiet(), [], "Mia saw no change she may see");
  },
);

t.test("own filter: PAGED syntax, typed comparisons, three-valued logic", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  t.match(await mia.subscribe("active", "project", { filter: "(status,eq,active)and(name,sw,rt f)" }), {
    type: "subscribed",
  });
  t.match(await mia.subscribe("due", "task", { filter: "(dueDate,gt,2029-12-31)" }), { type: "subscribed" });
  t.match(await mia.subscribe("notDone", "task", { filter: "!(done,eq,true)and(estimateHours,lte,5)" }), {
    type: "subscribed",
  });
  t.match(await mia.subscribe("notThatDay", "task", { filter: "!(dueDate,eq,2030-06-01)" }), {
    type: "subscribed",
  });
  await newProject(1, "RT filter planning", "planning");
  const active = await newProject(1, "RT filter active", "active");
  await gw.su.query(
    `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "priority", "estimateHours", "done", "dueDate")
     VALUES (1, 1, 2, 'RT late', 'low', 2, false, '2030-06-01'),
            (1, 1, 2, 'RT early', 'low', 10, false, '2026-01-01'),
            (1, 1, 2, 'RT done', 'low', 1, true, NULL)`,
  );
  const received = await mia.events(4);
  const byId = (id: string) => received.filter((m) => m.id === id);
  t.same(
    byId("active").map((m) => (m.data as { id: number }).id),
    [active],
    "only the active project named RT f...",
  );
  t.same(
    byId("due").map((m) => (m.data as { title: string }).title),
    ["RT late"],
    "dueDate compared as a date; NULL never matches gt",
  );
  t.same(
    byId("notDone").map((m) => (m.data as { title: string }).title),
    ["RT late"],
    'estimateHours compared as a number (10 > 5, though "10" < "5" as text), ! of done',
  );
  t.same(
    byId("notThatDay").map((m) => (m.data as { title: string }).title),
    ["RT early"],
    "! of a comparison with NULL stays unknown: RT done (no dueDate) is left out",
  );
  t.same(await mia.quiet(), []);
});

t.test("delete: decided on the row as it was; the other tenant gets nothing", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  const gina = await client(t, gw.url, USERS.ginaMember);
  await mia.subscribe("t", "task");
  await gina.subscribe("t", "task");
  const inserted = await gw.su.query<{ id: string }>(
    `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "priority") VALUES (1, 1, 2, 'RT delete me', 'low') RETURNING "id"`,
  );
  const id = Number(inserted.rows[0]?.id);
  await gw.su.query(`DELETE FROM "task" WHERE "id" = $1`, [id]);
  const [insert, remove] = await mia.events(2);
  t.match(insert, { op: "insert", key: { id } });
  t.match(remove, { op: "delete", key: { id }, data: { id, title: "RT delete me", companyId: 1 } });
  t.ok(String(insert?.eventId) !== String(remove?.eventId), "each event has its own id");
  t.same(await gina.quiet(), [], "company 2 sees neither");
});

/**
 * The insert of a row made after `subscriber` subscribed, taken before the test goes on. A row made
 * before subscribing could have its insert delivered after the subscription on a loaded machine
 * (the hub dispatches what it reads after the subscription starts), and be taken for the event
 * the test waits for.
 */
async function created(subscriber: Client, id: number): Promise<number> {
  const [insert] = await subscriber.events(1);
  if (insert?.op !== "insert" || String((insert.key as { id?: unknown }).id) !== String(id)) {
    throw new Error(`expected the insert of project ${id}, got ${JSON.stringify(insert)}`);
  }
  return id;
}

t.test("update out of view: a delete without data for the old tenant, an insert for the new", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  const gina = await client(t, gw.url, USERS.ginaMember);
  await mia.subscribe("p", "project");
  await gina.subscribe("p", "project");
  const id = await created(mia, await newProject(1, "RT moving"));
  await gw.su.query(`UPDATE "project" SET "companyId" = 2 WHERE "id" = $1`, [id]);
  const [left] = await mia.events(1);
  t.match(left, { op: "delete", key: { id } });
  t.notOk(left && Object.hasOwn(left, "data"), "no data: the row is no longer Mia's to see");
  t.notOk(left && Object.hasOwn(left, "old"));
  const [arrived] = await gina.events(1);
  t.match(arrived, { op: "insert", key: { id }, data: { companyId: 2, name: "RT moving" } });
});

t.test("a filter that excluded a row still gets the delete-like event without data", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  await mia.subscribe("p", "project", { filter: "(name,sw,RT moving)" });
  const id = await created(mia, await newProject(1, "RT moving filtered"));
  await gw.su.query(`UPDATE "project" SET "companyId" = 2 WHERE "id" = $1`, [id]);
  const [left] = await mia.events(1);
  t.match(left, { op: "delete", key: { id } });
});

t.test("an update leaving the subscriber's own filter is still sent (old image matched)", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  await mia.subscribe("p", "project", { filter: "(status,eq,active)" });
  const id = await created(mia, await newProject(1, "RT leaves filter", "active"));
  await gw.su.query(`UPDATE "project" SET "status" = 'on_hold' WHERE "id" = $1`, [id]);
  const [update] = await mia.events(1);
  t.match(update, { op: "update", data: { status: "on_hold" }, old: { status: "active" } });
  await gw.su.query(`UPDATE "project" SET "name" = 'RT still on hold' WHERE "id" = $1`, [id]);
  t.same(await mia.quiet(), [], "neither image matches now");
});

t.test("unsubscribe stops the events of that subscription only", async (t) => {
  const mia = await client(t, gw.url, USERS.miaMember);
  await mia.subscribe("a", "project");
  await mia.subscribe("b", "project");
  mia.send({ type: "unsubscribe", id: "a" });
  await newProject(1, "RT after unsubscribe");
  const [event] = await mia.events(1);
  t.equal(event?.id, "b");
  t.same(await mia.quiet(), []);
});

t.test("one api.realtime_events call per permission group per batch", async (t) => {
  // Six subscribers in two contexts: three members of company 1 (different users: no policy of
  // a notify table reads userId), three members of company 2.
  const members = [3, 7, 8].map((userId) => ({ ...USERS.miaMember, userId }));
  const others = [6, 9, 10].map((userId) => ({ ...USERS.ginaMember, userId }));
  const clients = await Promise.all([...members, ...others].map((claims) => client(t, gw.url, claims)));
  for (const c of clients) t.match(await c.subscribe("t", "task"), { type: "subscribed" });
  const before = gw.eventQueries();
  // One transaction: one batch.
  await gw.su.query(
    `INSERT INTO "task" ("companyId", "projectId", "createdById", "title", "priority")
     VALUES (1, 1, 2, 'RT g1', 'low'), (1, 1, 2, 'RT g2', 'low'), (1, 1, 2, 'RT g3', 'low'),
            (2, 4, 5, 'RT g4', 'low'), (2, 4, 5, 'RT g5', 'low')`,
  );
  for (const c of clients.slice(0, 3)) t.equal((await c.events(3)).length, 3);
  for (const c of clients.slice(3)) t.equal((await c.events(2)).length, 2);
  t.equal(
    gw.eventQueries() - before,
    2,
    "two groups, one batch: two calls, whatever the subscribers or events",
  );
});
