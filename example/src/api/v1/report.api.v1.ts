// Custom routes under /api/v1/report: a summary whose whole body is a ReportSummaryRequest
// (validated by the gateway against the custom type before this runs).

import type { HandlerRequest, HandlerResponse } from "../../../../gateway/custom/types.ts";
// Generated from api.schema.json's customTypes by `make migrate` / `make check`.
import type { ReportSummaryRequest } from "../../../generated/types.ts";

interface Row {
  key: string | null;
  label: string;
  taskCount: number;
  doneCount: number;
  estimateHours: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

// Tasks due in the range, read through the API views as the caller: only the caller's company.
const GROUPS = {
  project: {
    select: `p."id" AS "key", p."name" AS "label"`,
    join: `JOIN "project" p ON p."id" = t."projectId"`,
    group: `p."id", p."name"`,
  },
  assignee: {
    select: `u."id" AS "key", coalesce(u."firstName" || ' ' || u."lastName", 'Unassigned') AS "label"`,
    join: `LEFT JOIN "user" u ON u."id" = t."assigneeId"`,
    group: `u."id", u."firstName", u."lastName"`,
  },
} as const;

/**
 * The summary's one statement ($1 from, $2 to, $3 project ids or NULL, $4 include done tasks).
 * Exported for the plan check (test/plans/handlerQuery.test.ts).
 */
export function summarySql(groupBy: keyof typeof GROUPS): string {
  const g = GROUPS[groupBy];
  return `SELECT ${g.select},
              count(*)::int AS "taskCount",
              (count(*) FILTER (WHERE t."done"))::int AS "doneCount",
              coalesce(sum(t."estimateHours"), 0)::float8 AS "estimateHours"
         FROM "task" t ${g.join}
        WHERE t."dueDate" BETWEEN $1::date AND $2::date
          AND ($3::bigint[] IS NULL OR t."projectId" = ANY ($3::bigint[]))
          AND ($4::boolean OR NOT t."done")
        GROUP BY ${g.group}
        ORDER BY 1 NULLS LAST`;
}

export default class ReportHandlers {
  async postReportSummary(req: HandlerRequest<ReportSummaryRequest>, res: HandlerResponse) {
    const { from, to, groupBy, projectIds, includeDone = true } = req.data;
    const bad: Record<string, string> = {};
    for (const [name, value] of [
      ["from", from],
      ["to", to],
    ] as const) {
      if (!DATE.test(value) || Number.isNaN(Date.parse(value))) bad[name] = "must be a date (YYYY-MM-DD)";
    }
    if (Object.keys(bad).length === 0 && from > to) bad.to = "must not be before from";
    if (Object.keys(bad).length > 0) return res.sendError("VALIDATION_ERROR", undefined, bad);

    // The handler's only statement: opened, run and committed in one round trip.
    const result = await req.db.queryAlone<Row>(summarySql(groupBy), [
      from,
      to,
      projectIds ?? null,
      includeDone,
    ]);
    const rows = result.rows.map((r) => ({ ...r, key: r.key === null ? null : Number(r.key) }));
    const totals = { taskCount: 0, doneCount: 0, estimateHours: 0 };
    for (const r of rows) {
      totals.taskCount += r.taskCount;
      totals.doneCount += r.doneCount;
      totals.estimateHours += r.estimateHours;
    }
    totals.estimateHours = Math.round(totals.estimateHours * 100) / 100;
    res.sendData({ from, to, groupBy, rows, totals });
  }
}
