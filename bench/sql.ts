// The hand-written statements of `make bench`: the best SQL we can write for each case, on the
// tables (no views, no row security: tenant isolation is written into the WHERE), one statement
// per request, the whole JSON body built in Postgres. bench/baseline.ts serves them over HTTP and
// bench/pgbench.ts runs them bare for the database ceiling.

export const EXAMPLE = {
  companyPublic: `
SELECT json_build_object('data', json_build_object('id', c."id", 'name', c."name", 'slug', c."slug"))
FROM "company" c WHERE c."id" = $1 AND c."isListed"`,

  // $1 task id, $2 the caller's company.
  taskById: `
SELECT json_build_object('data', json_build_object('id', t."id", 'projectId', t."projectId",
  'projectName', p."name", 'title', t."title", 'description', t."description", 'priority', t."priority",
  'estimateHours', t."estimateHours", 'done', t."done", 'dueDate', t."dueDate",
  'assigneeId', t."assigneeId", 'createdOn', t."createdOn", 'assigneeFirstName', a."firstName",
  'assigneeLastName', a."lastName", 'createdById', t."createdById", 'createdByFirstName', b."firstName",
  'tags', ${orderedArray(
    `json_build_object('id', g."id", 'name', g."name", 'color', g."color")`,
    `"task_tag" tt JOIN "tag" g ON g."id" = tt."tagId" AND g."companyId" = $2 WHERE tt."taskId" = t."id"`,
    `tt."tagId"`,
  )},
  'comments', ${orderedArray(
    `json_build_object('id', m."id", 'body', m."body", 'authorId', m."authorId",
      'authorFirstName', u."firstName", 'authorLastName', u."lastName", 'createdOn', m."createdOn")`,
    `"comment" m LEFT JOIN "user" u ON u."id" = m."authorId" AND u."companyId" = $2 WHERE m."taskId" = t."id"`,
    `m."createdOn", m."id"`,
  )}))
FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $2
LEFT JOIN "user" a ON a."id" = t."assigneeId" AND a."companyId" = $2
LEFT JOIN "user" b ON b."id" = t."createdById" AND b."companyId" = $2
WHERE t."id" = $1 AND t."companyId" = $2`,

  // $1 company, $2 perPage, $3 offset; the admin sees budget.
  projectsPage: projectPage("", `p."id"`),
  // $4 status; sorted by name descending.
  projectsByStatus: projectPage(`AND p."status" = $4`, `p."id"`),
  projectsByStatusNameDesc: projectPage(`AND p."status" = $4`, `p."name" DESC, p."id" DESC`),

  // $1 company, $2 user, $3 project, $4 title, $5 priority, $6 estimate.
  taskInsert: `
WITH t AS (
  INSERT INTO "task" ("companyId", "createdById", "projectId", "title", "priority", "estimateHours")
  SELECT $1, $2, p."id", $4, $5, $6 FROM "project" p WHERE p."id" = $3 AND p."companyId" = $1
  RETURNING *)
SELECT ${taskJson()} FROM t JOIN "project" p ON p."id" = t."projectId"`,

  // $1 task, $2 company, $3 title, $4 done.
  taskUpdate: `
WITH t AS (
  UPDATE "task" SET "title" = $3, "done" = $4 WHERE "id" = $1 AND "companyId" = $2 RETURNING *)
SELECT ${taskJson()} FROM t JOIN "project" p ON p."id" = t."projectId"`,

  // $1 task, $2 company.
  taskDelete: `
WITH t AS (DELETE FROM "task" WHERE "id" = $1 AND "companyId" = $2 RETURNING 1)
SELECT json_build_object('data', true) FROM t`,

  // The custom route's one query (example/src/api/v1/report.api.v1.ts, groupBy project), on the
  // tables: $1 from, $2 to, $3 company. The handler adds the totals in Node; so does the baseline.
  reportByProject: `
SELECT p."id" AS "key", p."name" AS "label", count(*)::int AS "taskCount",
       (count(*) FILTER (WHERE t."done"))::int AS "doneCount",
       coalesce(sum(t."estimateHours"), 0)::float8 AS "estimateHours"
FROM "task" t JOIN "project" p ON p."id" = t."projectId" AND p."companyId" = $3
WHERE t."companyId" = $3 AND t."dueDate" BETWEEN $1::date AND $2::date
GROUP BY p."id", p."name"
ORDER BY 1 NULLS LAST`,
};

/**
 * A JSON array of `object` over the rows of `from` in `order`, `[]` when there are none. The rows
 * are sorted in a subquery and aggregated in that order, as the route functions do: an ORDER BY
 * inside json_agg measured twice the Postgres CPU on the Restura orders (603 against 282 µs a call).
 */
function orderedArray(object: string, from: string, order: string): string {
  return `COALESCE((SELECT json_agg(_j) FROM (SELECT ${object} AS _j FROM ${from} ORDER BY ${order}) _s), '[]')`;
}

function taskJson(): string {
  return `json_build_object('data', json_build_object(
  'id', t."id", 'projectId', t."projectId", 'projectName', p."name", 'title', t."title",
  'description', t."description", 'priority', t."priority", 'estimateHours', t."estimateHours",
  'done', t."done", 'dueDate', t."dueDate", 'assigneeId', t."assigneeId", 'createdOn', t."createdOn"))`;
}

function projectPage(where: string, order: string): string {
  return `
SELECT json_build_object(
  'data', ${orderedArray(
    `json_build_object('id', p."id", 'name', p."name", 'status', p."status",
      'budget', p."budget", 'startDate', p."startDate", 'dueDate', p."dueDate", 'settings', p."settings",
      'companyName', c."name", 'ownerFirstName', o."firstName", 'ownerLastName', o."lastName",
      'openTaskCount', (SELECT count(*) FROM "task" t WHERE t."projectId" = p."id" AND t."companyId" = $1 AND NOT t."done"),
      'createdOn', p."createdOn")`,
    `(SELECT * FROM "project" p WHERE p."companyId" = $1 ${where} ORDER BY ${order} LIMIT $2 OFFSET $3) p
    JOIN "company" c ON c."id" = p."companyId"
    LEFT JOIN "user" o ON o."id" = p."ownerId" AND o."companyId" = $1`,
    order,
  )},
  'total', (SELECT count(*) FROM "project" p WHERE p."companyId" = $1 ${where}))`;
}

const ME = `json_build_object('id', u."id", 'createdOn', u."createdOn", 'modifiedOn', u."modifiedOn",
  'firstName', u."firstName", 'lastName', u."lastName", 'companyId', u."companyId", 'email', u."email",
  'role', u."role", 'permissionLogin', u."permissionLogin", 'lastLoginOn', u."lastLoginOn", 'phone', u."phone",
  'accountStatus', u."accountStatus", 'onboardingStatus', u."onboardingStatus", 'testAge', u."testAge",
  'metadata', u."metadata")`;

function userPage(where: string, order: string): string {
  return `
SELECT json_build_object(
  'data', ${orderedArray(ME, `(SELECT * FROM "user" u WHERE true ${where} ORDER BY ${order} LIMIT $1 OFFSET $2) u`, order)},
  'total', (SELECT count(*) FROM "user" u WHERE true ${where}))`;
}

/** A deep page: its ids first (an index-only scan skips the OFFSET rows), then their rows. */
function deepUserPage(order: string): string {
  return `
SELECT json_build_object(
  'data', ${orderedArray(
    ME,
    `(SELECT u."id" FROM "user" u ORDER BY ${order} LIMIT $1 OFFSET $2) k JOIN "user" u ON u."id" = k."id"`,
    order,
  )},
  'total', (SELECT count(*) FROM "user" u))`;
}

export const RESTURA = {
  // $1 user.
  me: `SELECT json_build_object('data', ${ME}) FROM "user" u WHERE u."id" = $1`,
  // $1 perPage, $2 offset.
  usersPage: userPage("", `u."id"`),
  usersPageDeep: deepUserPage(`u."id"`),
  // Keyset page: $1 perPage, $2 the last id of the page before (the cursor's key), next cursor
  // made as the route function makes it; the total counted, or the planner's (reltuples).
  usersAfter: usersAfter(`(SELECT count(*) FROM "user")`),
  usersAfterPlanned: usersAfter(
    `(SELECT reltuples::bigint FROM pg_class WHERE oid = '"user"'::regclass), 'totalMode', 'planned'`,
  ),
  // $3 lastName prefix as a LIKE pattern; newest first.
  usersByLastNameNewest: userPage(`AND u."lastName" ILIKE $3`, `u."createdOn" DESC, u."id" DESC`),
  // $1 company: its users, each with their orders, each order with its items.
  companyUsersOrdersItems: `
SELECT json_build_object('data', ${orderedArray(
    `json_build_object('id', u."id", 'firstName', u."firstName", 'lastName', u."lastName",
  'orders', ${orderedArray(
    `json_build_object('id', o."id", 'amountCents', o."amountCents", 'createdOn', o."createdOn",
      'items', ${orderedArray(`json_build_object('id', i."id", 'createdOn', i."createdOn")`, `"item" i WHERE i."orderId" = o."id"`, `i."id"`)})`,
    `"order" o WHERE o."userId" = u."id"`,
    `o."id"`,
  )})`,
    `"user" u WHERE u."companyId" = $1`,
    `u."id"`,
  )})`,
  // $1 company: its orders with the user's name and the company's.
  companyOrders: `
SELECT json_build_object('data', ${orderedArray(
    `json_build_object('id', o."id", 'amountCents', o."amountCents", 'createdOn', o."createdOn",
  'userFirstName', u."firstName", 'userLastName', u."lastName", 'companyName', c."name")`,
    `"user" u JOIN "order" o ON o."userId" = u."id" JOIN "company" c ON c."id" = u."companyId" WHERE u."companyId" = $1`,
    `o."id"`,
  )})`,
  // $1 user, $2 first name.
  patchMe: `
UPDATE "user" u SET "firstName" = $2 WHERE u."id" = $1
RETURNING json_build_object('data', json_build_object('id', u."id", 'firstName', u."firstName",
  'lastName', u."lastName", 'email', u."email", 'phone', u."phone"))`,
};

/** The page after a cursor; its rows reach the aggregate in the subquery's order (see orderedArray). */
function usersAfter(total: string): string {
  return `
SELECT json_build_object(
  'data', COALESCE(json_agg(${ME}), '[]'),
  'next', CASE WHEN count(*) = $1 THEN translate(encode(convert_to(json_build_object('s', '', 'o', 'ASC',
    'k', json_build_array(max(u."id")))::text, 'UTF8'), 'base64'), '+/=' || chr(10), '-_') END,
  'total', ${total})
FROM (SELECT * FROM "user" u WHERE u."id" > $2 ORDER BY u."id" LIMIT $1) u`;
}

/**
 * The statements Postgres should plan for their values on every call (plan_cache_mode auto); every
 * other statement runs its generic plan (force_generic_plan), as the route functions do. Measured
 * on each statement with pgbench, best of the two: the example's first project page made a new
 * plan on every call under auto (2,018 calls a second against 5,130 generic), while the deep user
 * page needs its OFFSET to plan the id-only scan (1,433-1,598 under auto against 701-718 generic).
 */
export const PLANNED_PER_CALL: ReadonlySet<string> = new Set([RESTURA.usersPageDeep]);

/** The plan cache mode a hand-written statement runs under (see PLANNED_PER_CALL). */
export const planCacheMode = (text: string): string =>
  PLANNED_PER_CALL.has(text) ? "auto" : "force_generic_plan";
