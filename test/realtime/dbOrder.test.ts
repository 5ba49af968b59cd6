// Ids that commit out of order (docs/realtime.md "Order and cursors"): transaction A takes the
// lower id and commits last. A reader that only reads up to api.realtime_head() and moves its
// cursor to that head never skips A's event, and never sees an uncommitted or rolled-back one.

import t from "tap";
import { member1, seededExample } from "../api/helpers.ts";
import { events, head } from "./dbHelpers.ts";

const insert = (title: string) =>
  `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, '${title}')`;

t.test("out-of-order commits are never skipped", async (t) => {
  const { url, su } = await seededExample(t);
  const { connect } = await import("../harness/db.ts");
  const a = await connect(t, url);
  const b = await connect(t, url);
  const reader = await connect(t, url);
  await reader.query("SET SESSION AUTHORIZATION api_gateway");

  let cursor = await head(reader);
  const delivered: string[] = [];
  const read = async () => {
    const upto = await head(reader);
    for (const e of await events(reader, member1, cursor, { upto })) delivered.push(String(e.data?.title));
    cursor = upto;
  };

  await a.query("BEGIN");
  await a.query(insert("A, lower id, commits last"));
  await b.query("BEGIN");
  await b.query(insert("B, higher id, commits first"));
  await b.query("COMMIT");
  await su.query(insert("C, committed alone"));
  await read();
  t.same(delivered, [], "A is still open: nothing after its id is read yet");
  const bCursor = (
    await su.query(
      `SELECT xid::text || ':' || seq::text AS c FROM api_realtime.outbox WHERE new_row->>'title' LIKE 'B,%'`,
    )
  ).rows[0]?.c as string;
  t.same(
    await events(reader, member1, cursor, { upto: bCursor }),
    [],
    "an upto past the head is cut to the head: B, committed but after open A, is not read early",
  );

  await a.query("COMMIT");
  await read();
  t.same(
    delivered,
    ["A, lower id, commits last", "B, higher id, commits first", "C, committed alone"],
    "once A commits, A, B and C are read, in id order",
  );

  await a.query("BEGIN");
  await a.query(insert("rolled back"));
  await su.query(insert("D"));
  await read();
  await a.query("ROLLBACK");
  await read();
  await su.query(insert("E"));
  await read();
  t.same(delivered.slice(3), ["D", "E"], "a rolled-back event never appears; nothing is lost around it");

  // A reader that trusted the highest committed id instead of the head would have skipped A:
  // its id is below B's, which that reader had already passed.
  const { rows } = await su.query(
    `SELECT (SELECT xid FROM api_realtime.outbox WHERE new_row->>'title' LIKE 'A,%')
          < (SELECT xid FROM api_realtime.outbox WHERE new_row->>'title' LIKE 'B,%') AS lower`,
  );
  t.equal(rows[0]?.lower, true, "A's id is lower than B's (the case this test is about)");
});
