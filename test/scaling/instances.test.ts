// Several gateway instances on one database (docs/scaling.md "Instances"): two gateways, each
// with its own pools, listening on real sockets. Both serve reads and writes; what one writes the
// other reads at once (no cache in between); concurrent writes through both land whole: creates
// all persist, updates of one row leave exactly one of the written values.

import t from "tap";
import { caller } from "../gateway/helpers.ts";
import { testDatabase } from "../harness/db.ts";
import { token } from "../harness/gateway.ts";
import { scalingGateway, seedExample } from "./gateway.ts";
import { one } from "./replica.ts";

const headers = {
  authorization: `Bearer ${token(caller("member1", ["tasks:write"]))}`,
  "content-type": "application/json",
};

async function call(origin: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

t.test("two gateway instances on one database", async (t) => {
  const url = await testDatabase(t, "tpl_example");
  await seedExample(url);
  const a = await scalingGateway(t, url, { listen: true });
  const b = await scalingGateway(t, url, { listen: true });
  const A = a.origin as string;
  const B = b.origin as string;
  t.not(A, B, "two sockets");

  t.test("a write through one is read through the other", async (t) => {
    const created = await call(A, "POST", "/api/v1/task", { projectId: 2, title: "Made on A" });
    t.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.data.id;
    const read = await call(B, "GET", `/api/v1/task/${id}`);
    t.equal(read.status, 200);
    t.equal(read.body.data.title, "Made on A");
    const patched = await call(B, "PATCH", `/api/v1/task/${id}`, { title: "Changed on B" });
    t.equal(patched.status, 200);
    t.equal((await call(A, "GET", `/api/v1/task/${id}`)).body.data.title, "Changed on B");
  });

  t.test("concurrent creates through both all persist", async (t) => {
    const before = Number(await one(url, 'SELECT count(*)::int AS v FROM "public"."task"'));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? A : B, "POST", "/api/v1/task", { projectId: 2, title: `parallel ${i}` }),
      ),
    );
    t.same(
      results.map((r) => r.status),
      Array(20).fill(200),
    );
    const ids = new Set(results.map((r) => r.body.data.id));
    t.equal(ids.size, 20, "twenty distinct ids from one sequence");
    t.equal(Number(await one(url, 'SELECT count(*)::int AS v FROM "public"."task"')), before + 20);
  });

  t.test("concurrent updates of one row through both: each whole, one wins", async (t) => {
    const writes = Array.from({ length: 10 }, (_, i) => ({
      origin: i % 2 ? A : B,
      title: `title ${i}`,
      estimateHours: i + 1,
    }));
    const results = await Promise.all(
      writes.map((w) =>
        call(w.origin, "PATCH", "/api/v1/task/2", { title: w.title, estimateHours: w.estimateHours }),
      ),
    );
    t.same(
      results.map((r) => r.status),
      Array(10).fill(200),
    );
    const row = await one<{ title: string; estimateHours: string }>(
      url,
      'SELECT json_build_object(\'title\', "title", \'estimateHours\', "estimateHours") AS v FROM "public"."task" WHERE "id" = 2',
    );
    const winner = writes.find((w) => w.title === row.title);
    t.ok(winner, `the row holds one of the written titles (${row.title})`);
    t.equal(Number(row.estimateHours), winner?.estimateHours, "and that same write's other column: no mix");
  });

  t.test("both instances answer /ready", async (t) => {
    for (const origin of [A, B]) t.equal((await fetch(`${origin}/ready`)).status, 200);
  });
});
