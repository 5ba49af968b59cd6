// Plan check, example app: every read route's statements, on 20,000 tasks in 50 companies, must
// touch no more than BOUNDS allows over the best hand-written statement for the same answer.

import path from "node:path";
import t from "tap";
import { EXAMPLE } from "../../bench/sql.ts";
import { checkPlans, type PlanCase, planDatabase, REPO, read } from "./plan.ts";

const ADMIN = { role: "admin", scopes: ["billing:read", "tasks:write"], companyId: 1, userId: 1 };
const MANAGER = { role: "manager", scopes: ["tasks:write"], companyId: 1, userId: 1050 };
// A member of company 1 from the scale seed (tasks assigned to them); the member role hides
// budget, lastLoginOn, grantedScopes and billingEmail, which the hand-written SQL leaves out.
const MEMBER = { role: "member", scopes: ["tasks:write"], companyId: 1, userId: 1050 };

/** Failing today, to be fixed by the read-path rework; see checkPlans. */
const KNOWN_BAD = new Set<string>([]);

const TASK_ROW = `json_build_object('id', t."id", 'projectId', t."projectId", 'projectName', p."name",
  'title', t."title", 'priority', t."priority", 'estimateHours', t."estimateHours", 'done', t."done",
  'dueDate', t."dueDate", 'assigneeId', t."assigneeId")`;

const PROJECT_ROW = `json_build_object('id', p."id", 'name', p."name", 'status', p."status",
  'startDate', p."startDate", 'dueDate', p."dueDate", 'settings', p."settings", 'companyName', c."name",
  'ownerFirstName', o."firstName", 'ownerLastName', o."lastName",
  'openTaskCount', (SELECT count(*) FROM "task" t WHERE t."projectId" = p."id" AND t."companyId" = $1 AND NOT t."done"),
  'createdOn', p."createdOn")`;

const projectPage = (where: string, order: string) => `
SELECT json_build_object(
  'data', COALESCE((SELECT json_agg(${PROJECT_ROW} ORDER BY ${order})
    FROM (SELECT * FROM "project" p WHERE p."companyId" = $1 ${where} ORDER BY ${order} LIMIT $2 OFFSET $3) p
    JOIN "company" c ON c."id" = p."companyId"
    LEFT JOIN "user" o ON o."id" = p."ownerId" AND o."companyId" = $1), '[]'),
  'total', (SELECT count(*) FROM "project" p WHERE p."companyId" = $1 ${where}))`;

const cases: PlanCase[] = [
  {
    name: "GET /api/v1/company/public/:id",
    route: "GET /api/v1/company/public/:id",
    params: { id: 1 },
    ctx: { role: null, scopes: [] },
    sql: `SELECT json_build_object('data', json_build_object('id', c."id", 'name', c."name", 'slug', c."slug"))
          FROM "company" c WHERE c."id" = $1 AND c."isListed"`,
    values: [1],
  },
  {
    name: "GET /api/v1/user/me",
    route: "GET /api/v1/user/me",
    params: {},
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', json_build_object('id', u."id", 'email', u."email",
            'firstName', u."firstName", 'lastName', u."lastName", 'role', u."role", 'avatarUrl', u."avatarUrl",
            'preferences', u."preferences", 'lastLoginOn', u."lastLoginOn", 'companyId', u."companyId",
            'companyName', c."name", 'createdOn', u."createdOn"))
          FROM "user" u JOIN "company" c ON c."id" = u."companyId" WHERE u."id" = $1 AND u."companyId" = $2`,
    values: [1, 1],
  },
  {
    name: "GET /api/v1/company/me",
    route: "GET /api/v1/company/me",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', json_build_object('id', c."id", 'name', c."name", 'slug', c."slug",
            'plan', c."plan", 'isListed', c."isListed", 'settings', c."settings",
            'userCount', (SELECT count(*) FROM "user" u WHERE u."companyId" = c."id"),
            'projectCount', (SELECT count(*) FROM "project" p WHERE p."companyId" = c."id"),
            'createdOn', c."createdOn"))
          FROM "company" c WHERE c."id" = $1`,
    values: [1],
  },
  {
    name: "GET /api/v1/user",
    route: "GET /api/v1/user",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id", 'email', u."email",
            'firstName', u."firstName", 'lastName', u."lastName", 'role', u."role", 'isActive', u."isActive",
            'avatarUrl', u."avatarUrl") ORDER BY u."lastName", u."id"), '[]'))
          FROM "user" u WHERE u."companyId" = $1`,
    values: [1],
  },
  {
    name: "GET /api/v1/user/search",
    route: "GET /api/v1/user/search",
    params: { q: "Ad" },
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id", 'email', u."email",
            'firstName', u."firstName", 'lastName', u."lastName", 'role', u."role") ORDER BY u."lastName", u."id"), '[]'))
          FROM "user" u
          WHERE u."companyId" = $1 AND (u."email" ILIKE $2 OR u."firstName" ILIKE $2 OR u."lastName" ILIKE $2)`,
    values: [1, "Ad%"],
  },
  {
    name: "GET /api/v1/project page 1",
    route: "GET /api/v1/project",
    params: {},
    ctx: MEMBER,
    sql: projectPage("", `p."id"`),
    values: [1, 10, 0],
  },
  {
    name: "GET /api/v1/project page 4",
    route: "GET /api/v1/project",
    params: { page: 4, perPage: 10 },
    ctx: MEMBER,
    sql: projectPage("", `p."id"`),
    values: [1, 10, 30],
  },
  {
    name: "GET /api/v1/project filter and sort",
    route: "GET /api/v1/project",
    params: {
      page: 2,
      perPage: 5,
      filter: { column: "status", op: "eq", value: "active" },
      sortBy: "name",
      sortOrder: "DESC",
    },
    ctx: MEMBER,
    sql: projectPage(`AND p."status" = 'active'`, `p."name" DESC, p."id" DESC`),
    values: [1, 5, 5],
  },
  {
    // One condition and the route's own order: an index on the condition's column must be usable
    // (a statement that cannot use one read every project of the company to return a few).
    name: "GET /api/v1/project filter by id",
    route: "GET /api/v1/project",
    params: { filter: { column: "id", op: "eq", value: "1050" } },
    ctx: MEMBER,
    sql: projectPage(`AND p."id" = 1050`, `p."id"`),
    values: [1, 10, 0],
  },
  {
    name: "GET /api/v1/project/:id",
    route: "GET /api/v1/project/:id",
    params: { id: 1000 },
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', json_build_object('id', p."id", 'name', p."name",
            'description', p."description", 'status', p."status", 'budget', p."budget", 'settings', p."settings",
            'startDate', p."startDate", 'dueDate', p."dueDate", 'createdOn', p."createdOn",
            'companyId', p."companyId", 'companyName', c."name", 'ownerId', p."ownerId",
            'ownerFirstName', o."firstName", 'ownerLastName', o."lastName",
            'openTaskCount', (SELECT count(*) FROM "task" t WHERE t."projectId" = p."id" AND t."companyId" = $2 AND NOT t."done"),
            'tasks', (SELECT COALESCE(json_agg(json_build_object('id', t."id", 'title', t."title",
                'priority', t."priority", 'estimateHours', t."estimateHours", 'done', t."done",
                'dueDate', t."dueDate", 'assigneeId', t."assigneeId", 'assigneeFirstName', a."firstName",
                'commentCount', (SELECT count(*) FROM "comment" m WHERE m."taskId" = t."id"),
                'comments', (SELECT COALESCE(json_agg(json_build_object('id', m."id", 'authorId', m."authorId",
                    'body', m."body", 'createdOn', m."createdOn") ORDER BY m."createdOn", m."id"), '[]')
                  FROM "comment" m WHERE m."taskId" = t."id"))
                ORDER BY t."dueDate", t."id"), '[]')
              FROM "task" t LEFT JOIN "user" a ON a."id" = t."assigneeId" AND a."companyId" = $2
              WHERE t."projectId" = p."id" AND t."companyId" = $2)))
          FROM "project" p JOIN "company" c ON c."id" = p."companyId"
          LEFT JOIN "user" o ON o."id" = p."ownerId" AND o."companyId" = $2
          WHERE p."id" = $1 AND p."companyId" = $2`,
    values: [1000, 1],
  },
  {
    name: "GET /api/v1/task/mine",
    route: "GET /api/v1/task/mine",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."assigneeId" = $2 AND t."companyId" = $1`,
    values: [1, 1050],
  },
  {
    name: "GET /api/v1/task/assigned-to-me",
    route: "GET /api/v1/task/assigned-to-me",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', t."id",
            'projectId', t."projectId", 'title', t."title", 'done', t."done", 'dueDate', t."dueDate")
            ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t WHERE t."assigneeId" = $2 AND t."companyId" = $1`,
    values: [1, 1050],
  },
  {
    name: "GET /api/v1/task/search",
    route: "GET /api/v1/task/search",
    params: { q: "Task 105" },
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."createdOn" DESC, t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND (t."title" ILIKE $2 OR t."description" ILIKE $2)`,
    values: [1, "%Task 105%"],
  },
  {
    name: "GET /api/v1/task/by-priority",
    route: "GET /api/v1/task/by-priority",
    params: { priorities: ["high", "urgent"] },
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND t."priority" = ANY($2) AND NOT t."done"`,
    values: [1, ["high", "urgent"]],
  },
  {
    name: "GET /api/v1/task/unassigned",
    route: "GET /api/v1/task/unassigned",
    params: {},
    ctx: MANAGER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND t."assigneeId" IS NULL AND NOT t."done"
            AND p."status" NOT IN ('completed', 'archived')`,
    values: [1],
  },
  {
    name: "GET /api/v1/task/overdue",
    route: "GET /api/v1/task/overdue",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND t."dueDate" < CURRENT_DATE AND NOT t."done"`,
    values: [1],
  },
  {
    name: "GET /api/v1/task/large",
    route: "GET /api/v1/task/large",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(${TASK_ROW} ORDER BY t."estimateHours" DESC, t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND t."estimateHours" >= 16 AND t."done" IS NOT TRUE`,
    values: [1],
  },
  {
    name: "GET /api/v1/task/late-for-project",
    route: "GET /api/v1/task/late-for-project",
    params: {},
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', t."id",
            'projectId', t."projectId", 'projectName', p."name", 'title', t."title", 'priority', t."priority",
            'estimateHours', t."estimateHours", 'done', t."done", 'dueDate', t."dueDate",
            'assigneeId', t."assigneeId", 'projectDueDate', p."dueDate") ORDER BY t."dueDate", t."id"), '[]'))
          FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $1
          WHERE t."companyId" = $1 AND t."dueDate" > p."dueDate"`,
    values: [1],
  },
  {
    name: "GET /api/v1/task/stats",
    route: "GET /api/v1/task/stats",
    params: {},
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('projectId', s."projectId",
            'taskCount', s.n, 'openCount', s.open, 'urgentOpenCount', s.urgent) ORDER BY s."projectId"), '[]'))
          FROM (SELECT t."projectId", count(*) AS n, count(*) FILTER (WHERE NOT t."done") AS open,
                  count(*) FILTER (WHERE NOT t."done" AND t."priority" = 'urgent') AS urgent
                FROM "task" t WHERE t."companyId" = $1 GROUP BY t."projectId") s`,
    values: [1],
  },
  {
    name: "GET /api/v1/task/:id",
    route: "GET /api/v1/task/:id",
    params: { id: 1000 },
    ctx: MEMBER,
    // The same statement `make bench` times for this route.
    sql: EXAMPLE.taskById,
    values: [1000, 1],
  },
  {
    name: "GET /api/v1/tag",
    route: "GET /api/v1/tag",
    params: {},
    ctx: MEMBER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', g."id", 'name', g."name",
            'color', g."color", 'taskCount', (SELECT count(*) FROM "task_tag" tt WHERE tt."tagId" = g."id"))
            ORDER BY g."name", g."id"), '[]'))
          FROM "tag" g WHERE g."companyId" = $1`,
    values: [1],
  },
  {
    name: "GET /api/v1/invoice",
    route: "GET /api/v1/invoice",
    params: {},
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', i."id", 'number', i."number",
            'amount', i."amount", 'currency', i."currency", 'status', i."status", 'issuedOn', i."issuedOn",
            'paidOn', i."paidOn", 'lineItems', i."lineItems", 'companyName', c."name")
            ORDER BY i."issuedOn" DESC, i."id"), '[]'))
          FROM "invoice" i JOIN "company" c ON c."id" = i."companyId"
          WHERE i."companyId" = $1 AND i."status" <> 'void'`,
    values: [1],
  },
];

t.test("example app: route plans against hand-written plans", async (t) => {
  const db = await planDatabase(t, "tpl_example", path.join(REPO, "example/api.schema.json"), [
    read("example/seed.sql"),
    read("test/plans/example.scale.sql"),
  ]);
  checkPlans(t, db, cases, KNOWN_BAD);
});
