// Retention (docs/realtime.md "Retention"): api.realtime_prune deletes only events older than the
// window, as a prefix in cursor order, at most a batch per call; a cursor older than what was
// pruned gets A0410 (GONE), not silence; pruning never blocks a writer, and two pruners do not
// wait for each other.

import t from "tap";
import { fromPostgresError } from "../../gateway/errors.ts";
import { gatewaySession, member1, seededExample } from "../api/helpers.ts";
import { events, failsWith, head, outboxAfter } from "./dbHelpers.ts";

const insert = (title: string) =>
  `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, '${title}')`;

t.test("retention", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);
  const { connect } = await import("../harness/db.ts");
  const start = await head(su);
  for (const title of ["old 1", "old 2", "new 3", "old 4", "new 5"]) await su.query(insert(title));
  const ages = `UPDATE api_realtime.outbox SET created_at = now() - interval '2 days' WHERE new_row->>'title' LIKE 'old %'`;
  await su.query(ages);
  // The seed's own events are old too (everything before start).
  await su.query(
    `UPDATE api_realtime.outbox o SET created_at = now() - interval '3 days'
    FROM api.realtime_cursor($1) c WHERE (o.xid, o.seq) <= (c.xid, c.seq)`,
    [start],
  );
  const cursorOf = async (title: string) =>
    (await outboxAfter(su, "0:0")).find((r) => r.new_row?.title === title)?.cursor as string;

  t.test("only old events, as a prefix in cursor order", async (t) => {
    const seedEvents = (await outboxAfter(su, "0:0")).length - 5;
    const deleted = Number((await gw.query("SELECT api.realtime_prune(interval '1 day') AS n")).rows[0]?.n);
    t.equal(deleted, seedEvents + 2, "the seed's events and old 1, old 2");
    t.same(
      (await outboxAfter(su, "0:0")).map((r) => r.new_row?.title),
      ["new 3", "old 4", "new 5"],
      "old 4 stays: new 3 before it is young (the watermark must say exactly what is gone)",
    );
    t.equal(
      Number((await gw.query("SELECT api.realtime_prune(interval '1 day') AS n")).rows[0]?.n),
      0,
      "again: none",
    );
  });

  t.test("a cursor older than the watermark gets A0410", async (t) => {
    t.equal(await failsWith(() => events(gw, member1, start)), "A0410");
    const err = await events(gw, member1, start).catch((e) => e);
    t.equal(fromPostgresError(err).code, "GONE", "the gateway maps it to GONE");
    t.equal(fromPostgresError(err).status, 410);
    const watermark = await cursorOf("old 2").catch(() => undefined);
    t.equal(watermark, undefined, "old 2 is gone");
    const { rows } = await su.query("SELECT xid::text || ':' || seq::text AS c FROM api_realtime.pruned");
    t.same(
      (await events(gw, member1, rows[0]?.c)).map((e) => e.data?.title),
      ["new 3", "old 4", "new 5"],
      "at the watermark: everything after it, nothing lost",
    );
    t.same(
      (await events(gw, member1, null)).map((e) => e.data?.title),
      ["new 3", "old 4", "new 5"],
      "no cursor: everything kept",
    );
  });

  t.test("at most a batch per call", async (t) => {
    await su.query(`UPDATE api_realtime.outbox SET created_at = now() - interval '2 days'`);
    t.equal(Number((await su.query("SELECT api.realtime_prune(interval '1 day', 2) AS n")).rows[0]?.n), 2);
    t.same(
      (await outboxAfter(su, "0:0")).map((r) => r.new_row?.title),
      ["new 5"],
    );
  });

  t.test("pruning blocks no writer, and a second pruner skips", async (t) => {
    for (const title of ["p1", "p2", "p3"]) await su.query(insert(title));
    await su.query(`UPDATE api_realtime.outbox SET created_at = now() - interval '2 days'`);
    const pruner = await connect(t, url);
    const writer = await connect(t, url);
    const other = await connect(t, url);
    await pruner.query("BEGIN");
    const n = Number((await pruner.query("SELECT api.realtime_prune(interval '1 day') AS n")).rows[0]?.n);
    t.equal(n, 4, "new 5, p1, p2, p3 deleted, not yet committed");
    await writer.query("SET statement_timeout = '3s'");
    await writer.query(insert("while pruning"));
    await writer.query(`UPDATE public.task SET title = 'while pruning 2' WHERE title = 'while pruning'`);
    t.pass("a writer inserted and updated while the prune was open");
    await other.query("SET statement_timeout = '3s'");
    t.equal(
      Number((await other.query("SELECT api.realtime_prune(interval '0') AS n")).rows[0]?.n),
      0,
      "a concurrent prune returns at once",
    );
    await pruner.query("COMMIT");
    t.same(
      (await outboxAfter(su, "0:0")).map((r) => r.new_row?.title),
      ["while pruning", "while pruning 2"],
    );
  });

  t.test("arguments", async (t) => {
    t.equal(await failsWith(() => gw.query("SELECT api.realtime_prune(interval '-1 day')")), "A0400");
    t.equal(await failsWith(() => gw.query("SELECT api.realtime_prune(interval '1 day', 0)")), "A0400");
  });
});
