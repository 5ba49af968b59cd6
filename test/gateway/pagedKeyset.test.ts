// PAGED over HTTP: keyset pages (`after`, answers with `next`) and the count mode
// (`Prefer: count=...`, answered with `Preference-Applied` and `totalMode`), on the example app.

import t from "tap";
import { testGateway } from "../harness/gateway.ts";
import { caller } from "./helpers.ts";

interface Page {
  data: { id: number }[];
  total: number;
  next?: string | null;
  totalMode?: string;
}

t.test("keyset pages and count modes through the gateway", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const as = caller("admin1", []);
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await gw.request({ method: "GET", url, as, headers });
    return { status: res.statusCode, body: JSON.parse(res.body) as Page, headers: res.headers };
  };

  t.test("walking by cursor gives the offset pages' rows", async (t) => {
    for (const sort of ["", "&sortBy=name&sortOrder=DESC", "&filter=(status,eq,active)"]) {
      const all = await get(`/api/v1/project?perPage=100${sort}`);
      t.equal(all.status, 200);
      const ids: number[] = [];
      let after = "";
      for (let n = 0; n < 10; n++) {
        const page = await get(`/api/v1/project?perPage=1&after=${encodeURIComponent(after)}${sort}`);
        t.equal(page.status, 200, JSON.stringify(page.body));
        t.equal(page.body.total, all.body.total);
        ids.push(...page.body.data.map((r) => r.id));
        if (!page.body.next) break;
        after = page.body.next;
      }
      t.same(
        ids,
        all.body.data.map((r) => r.id),
        `same rows, same order (${sort || "route order"})`,
      );
    }
  });

  t.test("the cursor of docs/query-language.md's example", async (t) => {
    const first = await get("/api/v1/project?perPage=2&after=");
    t.same(
      first.body.data.map((r) => r.id),
      [1, 2],
    );
    t.equal(first.body.next, "eyJzIiA6ICIiLCAibyIgOiAiQVNDIiwgImsiIDogWzJdfQ");
    const second = await get(`/api/v1/project?perPage=2&after=${first.body.next}`);
    t.same(
      second.body.data.map((r) => r.id),
      [3],
    );
    t.equal(second.body.next, null);
  });

  t.test("a bad cursor or combination is a 400 in the standard envelope", async (t) => {
    const bad = await get("/api/v1/project?after=xyz");
    t.equal(bad.status, 400);
    t.same(bad.body, {
      error: {
        code: "BAD_REQUEST",
        message: "after is not a cursor of this route for this sortBy and sortOrder",
      },
    } as unknown as Page);
    t.equal((await get("/api/v1/project?after=&page=2")).status, 400);
    t.equal((await get("/api/v1/project?after=&sortOrder=RAND")).status, 400);
  });

  t.test("Prefer: count=...", async (t) => {
    const plain = await get("/api/v1/project?perPage=2");
    t.notOk("preference-applied" in plain.headers);
    t.notOk("totalMode" in plain.body);
    const planned = await get("/api/v1/project?perPage=2", { prefer: "count=planned" });
    t.equal(planned.status, 200);
    t.equal(planned.headers["preference-applied"], "count=planned");
    t.equal(planned.body.totalMode, "planned");
    t.same(planned.body.data, plain.body.data, "the same page");
    const estimated = await get("/api/v1/project?perPage=2", { prefer: "return=minimal, count=estimated" });
    t.equal(estimated.headers["preference-applied"], "count=estimated");
    t.same(estimated.body, { ...plain.body, totalMode: "exact" }, "few rows: counted exactly");
    const exact = await get("/api/v1/project?perPage=2", { prefer: "count=exact" });
    t.same(exact.body, plain.body);
    const unknown = await get("/api/v1/project?perPage=2", { prefer: "count=all" });
    t.same(unknown.body, plain.body, "an unknown preference is ignored");
    t.notOk("preference-applied" in unknown.headers);
  });
});
