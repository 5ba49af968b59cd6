// Rules the example cannot show, on test/realtime/db.schema.json: a table rule (doc: admins and
// managers), a private column (note.secret: never stored, never sent), a column rule on a table
// with notify "ALL" (note.score: admins), two permissive policies (same company, or any company
// for admins), and a table without notify.

import t from "tap";
import type { Schema } from "../../generator/schema/types.ts";
import type { Ctx } from "../api/helpers.ts";
import { events, head, outboxAfter, smallSchemaDatabase } from "./dbHelpers.ts";

const member1: Ctx = { role: "member", scopes: [], companyId: "1" };
const manager1: Ctx = { role: "manager", scopes: [], companyId: "1" };
const admin1: Ctx = { role: "admin", scopes: [], companyId: "1" };

t.test("small schema", async (t) => {
  const { su, appDir } = await smallSchemaDatabase(t);
  const start = await head(su);
  await su.query(
    `INSERT INTO public.note ("companyId", title, secret, score) VALUES (1, 'a', 's1', 5), (2, 'b', 's2', 7)`,
  );
  await su.query(`UPDATE public.note SET secret = 'only the secret'`);
  await su.query(`UPDATE public.note SET title = title || '!', secret = 'again' WHERE title = 'a'`);
  await su.query(`DELETE FROM public.note WHERE title = 'b'`);
  await su.query(`INSERT INTO public.doc (title, body) VALUES ('d', 'long text')`);
  await su.query(`INSERT INTO public.quiet (title) VALUES ('q')`);

  t.test("private columns are never stored", async (t) => {
    const rows = await outboxAfter(su, start);
    t.same(
      rows.map((r) => `${r.table_name} ${r.op}`),
      ["note insert", "note insert", "note update", "note delete", "doc insert"],
      "an update of the private column alone records nothing; quiet has no notify",
    );
    for (const r of rows) {
      for (const image of [r.new_row, r.old_row]) {
        if (image) t.notOk("secret" in image, `${r.table_name} ${r.op}: no secret in the image`);
      }
    }
    t.notOk(JSON.stringify(rows).includes("s1"), "not even as a value");
  });

  t.test("private columns are never sent, even with notify ALL and an admin", async (t) => {
    const all = await events(su, admin1, start);
    t.ok(all.length > 0);
    for (const e of all) t.notOk(JSON.stringify(e).includes("secret"), `${e.op} ${e.table_name}`);
  });

  t.test("the table rule: doc is for admins and managers", async (t) => {
    t.same(
      (await events(su, manager1, start, { tables: ["doc"] })).map((e) => [e.op, e.data]),
      [["insert", { id: 1, title: "d" }]],
      "only the notify columns (no body)",
    );
    t.same(await events(su, member1, start, { tables: ["doc"] }), [], "a member gets nothing of doc");
  });

  t.test("column rule and policies on note", async (t) => {
    const member = (await events(su, member1, start)).map((e) => [e.op, e.data, e.old]);
    t.same(member, [
      ["insert", { id: 1, companyId: 1, title: "a" }, null],
      ["update", { id: 1, companyId: 1, title: "a!" }, { id: 1, companyId: 1, title: "a" }],
    ]);
    const admin = (await events(su, admin1, start, { tables: ["note"] })).map((e) => [e.op, e.data]);
    t.same(
      admin,
      [
        ["insert", { id: 1, companyId: 1, title: "a", score: 5 }],
        ["insert", { id: 2, companyId: 2, title: "b", score: 7 }],
        ["update", { id: 1, companyId: 1, title: "a!", score: 5 }],
        ["delete", { id: 2, companyId: 2, title: "b", score: 7 }],
      ],
      "the admins_all policy shows company 2's rows too, and score",
    );
  });

  t.test("an image recorded before a column became private or was dropped never sends it", async (t) => {
    const before = await head(su);
    // As if recorded by an older schema: "secret" was not private yet, "dropped" existed.
    await su.query(
      `INSERT INTO api_realtime.outbox (table_name, op, new_row)
       VALUES ('note', 'insert', '{"id": 9, "companyId": 1, "title": "old", "score": 1, "secret": "was public", "dropped": 1}')`,
    );
    // Then a migrate rebuilds the layer: the image above is now from an earlier layer.
    const { rebuildApiLayer } = await import("../../db/apiLayer.ts");
    const { readAppSchema } = await import("../../app/load.ts");
    await rebuildApiLayer(su, readAppSchema(appDir).schema as Schema);
    t.same(
      (await events(su, admin1, before)).map((e) => e.data),
      [{ id: 9, companyId: 1, title: "old", score: 1 }],
      "only the current notify columns",
    );
  });
});
