// Smoke: the outbox records a plain-SQL insert and api.realtime_events returns it.

import t from "tap";
import { gatewaySession, member1, seededExample } from "../api/helpers.ts";

t.test("smoke", async (t) => {
  const { url, su } = await seededExample(t);
  const gw = await gatewaySession(t, url);
  const head0 = (await gw.query("SELECT api.realtime_head() AS h")).rows[0].h;
  await su.query(
    `INSERT INTO public.task ("companyId", "projectId", "createdById", title) VALUES (1, 1, 3, 'smoke')`,
  );
  const head1 = (await gw.query("SELECT api.realtime_head() AS h")).rows[0].h;
  const ev = await gw.query("SELECT * FROM api.realtime_events($1, $2, $3, NULL)", [member1, head0, head1]);
  console.log(head0, head1, JSON.stringify(ev.rows, null, 1));
  t.ok(ev.rows.length >= 1);
});
