// The gateway through PgBouncer in transaction mode (docs/scaling.md "Poolers"). The test runner
// installs Debian's pgbouncer when it is missing (test/harness/debianPackages.ts); where it could
// not, this skips with the reason.
//
// PgBouncer before 1.21 does not track named prepared statements: in transaction mode a client's
// statement lives on whichever server connection it was prepared on, and another client's
// statement of the same name collides with it. So the gateway's default (one named statement
// per route) fails there, shown below, and PG_PREPARED_STATEMENTS=0 (unnamed statements) works:
// reads, writes, PAGED with a filter, and a custom handler's transaction (req.db: BEGIN,
// set_config(..., true), COMMIT, all inside one transaction, as transaction mode requires).
// PgBouncer 1.21+ with max_prepared_statements prepares a client's named statements on each server
// connection itself: there the default runs the same requests (PGBOUNCER names such a binary;
// Debian bookworm's is 1.18).

import t, { type Test } from "tap";
import { caller } from "../gateway/helpers.ts";
import { serverUrl, testDatabase } from "../harness/db.ts";
import { token } from "../harness/gateway.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "../harness/gatewayRole.ts";
import { scalingGateway, seedExample } from "./gateway.ts";
import { findPgbouncer, startPgbouncer } from "./pgbouncer.ts";
import { one } from "./replica.ts";

const found = findPgbouncer();
const member = { authorization: `Bearer ${token(caller("member1", ["tasks:write"]))}` };
const manager = { authorization: `Bearer ${token(caller("manager1", []))}` };

t.test(
  "the gateway through PgBouncer in transaction mode",
  { skip: "missing" in found ? `skipped: ${found.missing}` : false },
  async (t) => {
    if ("missing" in found) return;
    const url = await testDatabase(t, "tpl_example");
    await seedExample(url);
    const tracksStatements = found.version[0] > 1 || found.version[1] >= 21;
    const bouncer = await startPgbouncer(
      found.binary,
      found.version,
      serverUrl(),
      { api_gateway: GATEWAY_TEST_PASSWORD, api_service: SERVICE_TEST_PASSWORD },
      // 1.21+: PgBouncer keeps named statements per client itself.
      tracksStatements ? { max_prepared_statements: "100" } : {},
    );
    t.teardown(() => bouncer.stop());
    const viaBouncer = new URL(url);
    viaBouncer.port = String(bouncer.port);
    t.comment(`PgBouncer ${found.version.join(".")} on port ${bouncer.port}`);

    type Gateway = Awaited<ReturnType<typeof scalingGateway>>;
    const concurrentReads = async (gw: Gateway) => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          gw.app.inject({ method: "GET", url: "/api/v1/task/2", headers: member }),
        ),
      );
      return answers.map((r) => r.statusCode);
    };

    t.test("named prepared statements (the default)", async (t) => {
      const gw = await scalingGateway(t, viaBouncer.toString());
      if (tracksStatements) {
        // 1.21+: PgBouncer prepares each client's statements on whichever server connection runs
        // them, so everything works as without a pooler.
        t.comment(`PgBouncer ${found.version.join(".")} with max_prepared_statements keeps them`);
        throughThePooler(t, gw);
        return;
      }
      const statuses = await concurrentReads(gw);
      t.ok(
        statuses.some((s) => s !== 200),
        `PgBouncer ${found.version.join(".")} collides clients' statements: ${statuses.join(" ")}`,
      );
    });

    t.test("PG_PREPARED_STATEMENTS=0", async (t) => {
      throughThePooler(t, await scalingGateway(t, viaBouncer.toString(), { preparedStatements: false }));
    });

    /** Reads, a write, a filtered page, a handler's transaction: each answers as without a pooler. */
    function throughThePooler(t: Test, gw: Gateway) {
      t.test("concurrent reads", async (t) => {
        t.same(await concurrentReads(gw), Array(8).fill(200));
      });
      t.test("a write, then read back", async (t) => {
        const res = await gw.app.inject({
          method: "PATCH",
          url: "/api/v1/task/2",
          headers: member,
          payload: { title: "Through the pooler" },
        });
        t.equal(res.statusCode, 200, res.body);
        t.equal(
          await one(url, 'SELECT "title" AS v FROM "public"."task" WHERE "id" = 2'),
          "Through the pooler",
        );
        const read = await gw.app.inject({ method: "GET", url: "/api/v1/task/2", headers: member });
        t.equal(JSON.parse(read.body).data.title, "Through the pooler");
      });

      t.test("PAGED with a filter and a sort", async (t) => {
        const res = await gw.app.inject({
          method: "GET",
          url: `/api/v1/project?filter=${encodeURIComponent("(status,eq,active)")}&sortBy=name&sortOrder=ASC`,
          headers: member,
        });
        t.equal(res.statusCode, 200, res.body);
        const body = JSON.parse(res.body);
        t.ok(body.data.length > 0, "rows");
        t.ok(
          body.data.every((p: { status: string }) => p.status === "active"),
          "every row matches the filter",
        );
        t.equal(body.total, body.data.length, "the total counts the filtered rows");
      });

      t.test("a custom handler's transaction (req.db)", async (t) => {
        const res = await gw.app.inject({
          method: "POST",
          url: "/api/v1/report/summary",
          headers: manager,
          payload: { from: "2020-01-01", to: "2031-12-31", groupBy: "project" },
        });
        t.equal(res.statusCode, 200, res.body);
        const body = JSON.parse(res.body);
        t.ok(body.data.totals.taskCount > 0, "rows of the caller's company, read under its context");
      });

      t.test("the caller's context does not outlive its transaction", async (t) => {
        // After the handler's transaction, a server connection shared through the pooler holds
        // no api.ctx: set_config(..., true) ends with the transaction.
        const res = await gw.app.inject({
          method: "POST",
          url: "/api/v1/report/summary",
          headers: manager,
          payload: { from: "2020-01-01", to: "2031-12-31", groupBy: "project" },
        });
        t.equal(res.statusCode, 200);
        const ctx = await one<string | null>(
          viaBouncer.toString().replace(/\/\/[^@]*@/, `//api_gateway:${GATEWAY_TEST_PASSWORD}@`),
          "SELECT nullif(current_setting('api.ctx', true), '') AS v",
        );
        t.equal(ctx, null);
      });
    }
  },
);
