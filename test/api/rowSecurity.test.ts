// Row-level security on the tables themselves, as api_owner (the role route functions run as):
// the policies hold for reads and writes whatever the views or a route's own SQL say.

import t from "tap";
import {
  admin1,
  anonymous,
  type Ctx,
  ids,
  member1,
  rolledBack,
  rows,
  seededExample,
  sqlState,
} from "./helpers.ts";

t.test("as api_owner on the tables", async (t) => {
  const { su } = await seededExample(t);
  const asOwner = <T>(ctx: Ctx | null, use: Parameters<typeof rolledBack<T>>[3]) =>
    rolledBack(su, [], ctx, use, "api_owner");

  t.test("reads are filtered by the policies", async (t) => {
    t.same(await asOwner(member1, (c) => ids(c, `SELECT DISTINCT "companyId" AS id FROM public.task`)), [1]);
    t.same(await asOwner(null, (c) => ids(c, "SELECT id FROM public.task")), [], "no settings: no rows");
    t.same(await asOwner(anonymous, (c) => ids(c, "SELECT id FROM public.company")), [1]);
    t.same(
      await asOwner(member1, (c) => ids(c, "SELECT id FROM public.comment ORDER BY id")),
      [1, 2, 3, 4, 5],
      "custom EXISTS policy",
    );
    t.same(
      await asOwner(member1, (c) => ids(c, "SELECT id FROM public.invoice")),
      [],
      "no policy for members",
    );
    t.same(
      await asOwner({ ...admin1, scopes: [] }, (c) => ids(c, "SELECT id FROM public.invoice")),
      [],
      "table scope billing:read (restrictive policy)",
    );
    t.same(await asOwner(admin1, (c) => ids(c, "SELECT id FROM public.invoice ORDER BY id")), [1, 2, 3]);
    // Row security sees the table's own columns: no masks here (the views apply those).
    t.same(await asOwner(member1, (c) => rows(c, "SELECT budget FROM public.project WHERE id = 2")), [
      { budget: "1234.50" },
    ]);
  });

  t.test("WITH CHECK: a write cannot move a row to another company", async (t) => {
    const update = (sql: string) => asOwner(member1, (c) => sqlState(c, sql));
    t.equal(await update(`UPDATE public.project SET "companyId" = 2 WHERE id = 1`), "42501");
    t.equal(await update(`UPDATE public.tag SET "companyId" = 2 WHERE id = 1`), "42501");
    t.equal(await update(`UPDATE public."user" SET "companyId" = 2 WHERE id = 3`), "42501");
    t.equal(
      await update(`INSERT INTO public.tag ("companyId", name, color) VALUES (2, 'sneaky', '#000000')`),
      "42501",
      "insert into another company",
    );
    t.equal(
      await update(`INSERT INTO public.comment ("taskId", "authorId", body) VALUES (9, 3, 'hi')`),
      "42501",
      "comment on another company's task (custom EXISTS policy)",
    );
    t.equal(
      await update(`UPDATE public.comment SET "taskId" = 9 WHERE id = 1`),
      "42501",
      "move a comment to another company's task",
    );
    // The same statements inside the company succeed, so the refusals above are the policies'.
    t.equal(await update(`UPDATE public.project SET name = 'Renamed' WHERE id = 1`), undefined);
    t.equal(
      await update(`INSERT INTO public.tag ("companyId", name, color) VALUES (1, 'fine', '#000000')`),
      undefined,
    );
    t.equal(
      await update(`INSERT INTO public.comment ("taskId", "authorId", body) VALUES (1, 3, 'hi')`),
      undefined,
    );
    // The superuser (the table owner, not bound by RLS) can make the same kind of change.
    await su.query("BEGIN");
    try {
      t.equal((await su.query(`UPDATE public.tag SET "companyId" = 2 WHERE id = 2`)).rowCount, 1);
    } finally {
      await su.query("ROLLBACK");
    }
    t.equal(await update(`UPDATE public.tag SET "companyId" = 2 WHERE id = 2`), "42501", "not as api_owner");
  });

  t.test("USING: other companies' rows cannot be changed or deleted", async (t) => {
    const count = (sql: string, ctx: Ctx = member1) =>
      asOwner(ctx, async (c) => (await c.query(sql)).rowCount);
    t.equal(await count(`UPDATE public.task SET title = 'x' WHERE "companyId" = 2`), 0);
    t.equal(await count(`DELETE FROM public.task_tag WHERE "taskId" = 9`), 0);
    t.equal(await count(`DELETE FROM public.invoice`), 0, "members delete no invoice");
    t.equal(await count(`DELETE FROM public.invoice WHERE id = 3`, admin1), 1, "an admin with the scope can");
    t.equal(await count(`UPDATE public.task SET title = 'x' WHERE "companyId" = 1`), 8, "its own: all 8");
  });

  t.test("api_owner cannot turn row security off either", async (t) => {
    t.equal(
      await asOwner(admin1, async (c) => {
        await c.query("SET LOCAL row_security = off");
        return sqlState(c, "SELECT * FROM public.task");
      }),
      "42501",
    );
  });

  t.test("a policy compares the context with the column's own type", async (t) => {
    // companyId is bigint: "1" and 1 both match; a value that is not a number is an error,
    // never a silent match.
    t.same(
      await asOwner({ ...member1, companyId: 1 }, (c) =>
        ids(c, `SELECT DISTINCT "companyId" AS id FROM public.tag`),
      ),
      [1],
    );
    t.equal(
      await asOwner({ ...member1, companyId: "1 OR true" }, (c) => sqlState(c, "SELECT * FROM public.tag")),
      "22P02",
    );
  });
});
