// Plan check for a custom handler's SQL through the API views (`req.db`), on the bench's data:
// the example's report, prepared as `req.db` prepares a repeated text and planned generically
// (what a long-lived connection ends up running, the hand-written statement too), answers as the hand-written statement does and
// touches no more than BOUNDS allows over it. Through `security_barrier` views it did not: the
// join could not reach the projects' primary key, and the plan read all of the company's projects
// again for every task (7,600 buffers against 90).
//
// Only the report by project is held to the bound. By assignee, the generic plan looks each
// task's user up by primary key (417 buffers against 63): the handler's optional filters
// (`$3 IS NULL OR ...`, `$4 OR NOT done`) make the planner expect almost no tasks. That is the
// handler's SQL, not the views (the plan reads each user once per task, never a rescan), and the
// answer is still checked.

import path from "node:path";
import t from "tap";
import { EXAMPLE } from "../../bench/sql.ts";
import { summarySql } from "../../example/src/api/v1/report.api.v1.ts";
import { explainedPlan, overBounds, planDatabase, REPO, read, statsOf } from "./plan.ts";

const CTX = { role: "admin", scopes: ["billing:read", "tasks:write"], userId: 1, companyId: 1 };
const FROM = "2025-01-01";
const TO = "2025-03-31";

/** The same report on the tables, as a superuser: $1 from, $2 to, $3 company. */
const HAND_WRITTEN = {
  project: EXAMPLE.reportByProject,
  assignee: `
SELECT u."id" AS "key", coalesce(u."firstName" || ' ' || u."lastName", 'Unassigned') AS "label",
       count(*)::int AS "taskCount", (count(*) FILTER (WHERE t."done"))::int AS "doneCount",
       coalesce(sum(t."estimateHours"), 0)::float8 AS "estimateHours"
FROM "task" t LEFT JOIN "user" u ON u."id" = t."assigneeId" AND u."companyId" = $3
WHERE t."companyId" = $3 AND t."dueDate" BETWEEN $1::date AND $2::date
GROUP BY u."id", u."firstName", u."lastName"
ORDER BY 1 NULLS LAST`,
};

t.test("a handler's query through the views plans like the hand-written one", async (t) => {
  const db = await planDatabase(t, "tpl_example", path.join(REPO, "example/api.schema.json"), [
    read("example/seed.sql"),
    read("test/plans/example.scale.sql"),
  ]);
  for (const groupBy of ["project", "assignee"] as const) {
    const bounded = groupBy === "project";
    t.test(`report by ${groupBy}`, async (t) => {
      await db.gw.query("BEGIN");
      try {
        await db.gw.query(
          "SELECT api.set_ctx($1::jsonb), set_config('search_path', 'api, pg_catalog, pg_temp', true)",
          [JSON.stringify(CTX)],
        );
        await db.gw.query("SET LOCAL plan_cache_mode = force_generic_plan");
        await db.gw.query(
          `PREPARE summary_${groupBy}(text, text, bigint[], boolean) AS ${summarySql(groupBy)}`,
        );
        const call = `EXECUTE summary_${groupBy}('${FROM}', '${TO}', NULL, true)`;
        const gateway = (await db.gw.query(call)).rows;
        const explained = await db.gw.query(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${call}`);
        const gatewayStats = statsOf([explainedPlan(explained.rows[0]["QUERY PLAN"])]);

        // The hand-written statement planned the same way: prepared, generic.
        await db.su.query("BEGIN");
        let expected: unknown[];
        let handStats: ReturnType<typeof statsOf>;
        try {
          await db.su.query("SET LOCAL plan_cache_mode = force_generic_plan");
          await db.su.query(`PREPARE hand_${groupBy}(text, text, bigint) AS ${HAND_WRITTEN[groupBy]}`);
          const handCall = `EXECUTE hand_${groupBy}('${FROM}', '${TO}', ${CTX.companyId})`;
          expected = (await db.su.query(handCall)).rows;
          const handExplained = await db.su.query(
            `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${handCall}`,
          );
          handStats = statsOf([explainedPlan(handExplained.rows[0]["QUERY PLAN"])]);
        } finally {
          await db.su.query("ROLLBACK");
          await db.su.query(`DEALLOCATE hand_${groupBy}`).catch(() => {});
        }

        t.ok(expected.length > 1, "the report has several groups");
        t.same(gateway, expected, "the same rows as the hand-written statement");
        const summary = `${gatewayStats.buffers} buffers / ${gatewayStats.rows} rows against ${handStats.buffers} / ${handStats.rows}`;
        if (!bounded) return void t.comment(`report by ${groupBy}, not bounded: ${summary}`);
        t.same(overBounds(gatewayStats, handStats, db.bigTables), [], `within bounds: ${summary}`, {
          plan: gatewayStats.text.join("\n"),
        });
      } finally {
        await db.gw.query("ROLLBACK");
        // A prepared statement outlives the transaction.
        await db.gw.query(`DEALLOCATE summary_${groupBy}`).catch(() => {});
      }
    });
  }
});
