// The hand-written baseline for `make bench`: Fastify + pg, JWT verified per request, and one
// query per request that builds the same JSON in Postgres (tenant isolation written into the
// WHERE instead of row-level security). What a careful engineer would write by hand.

import Fastify from "fastify";
import jwt from "jsonwebtoken";
import pg from "pg";

const JSON_OID = 114;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
  types: {
    getTypeParser: ((oid: number, format?: string) =>
      oid === JSON_OID
        ? (v: string) => v
        : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
  },
});
// The cluster stops at the end of the run while idle clients are still connected.
pool.on("error", () => {});
const secret = process.env.JWT_SECRET as string;

const TASK_BY_ID = `
SELECT json_build_object('data', json_build_object(
  'id', t."id", 'projectId', t."projectId", 'projectName', p."name", 'title', t."title",
  'description', t."description", 'priority', t."priority", 'estimateHours', t."estimateHours",
  'done', t."done", 'dueDate', t."dueDate", 'assigneeId', t."assigneeId", 'createdOn', t."createdOn",
  'assigneeFirstName', a."firstName", 'assigneeLastName', a."lastName", 'createdById', t."createdById",
  'createdByFirstName', c."firstName",
  'tags', (SELECT COALESCE(json_agg(json_build_object('id', g."id", 'name', g."name", 'color', g."color")), '[]')
           FROM "task_tag" tt JOIN "tag" g ON g."id" = tt."tagId" WHERE tt."taskId" = t."id"),
  'comments', (SELECT COALESCE(json_agg(json_build_object('id', m."id", 'body', m."body", 'authorId', m."authorId",
                 'authorFirstName', u."firstName", 'authorLastName', u."lastName", 'createdOn', m."createdOn")
                 ORDER BY m."createdOn"), '[]')
               FROM "comment" m LEFT JOIN "user" u ON u."id" = m."authorId" WHERE m."taskId" = t."id")))
FROM "task" t
JOIN "project" p ON p."id" = t."projectId"
LEFT JOIN "user" a ON a."id" = t."assigneeId"
LEFT JOIN "user" c ON c."id" = t."createdById"
WHERE t."id" = $1 AND t."companyId" = $2`;

const PROJECTS_PAGED = `
WITH page AS (
  SELECT p.*, co."name" AS "companyName", o."firstName" AS "ownerFirstName", o."lastName" AS "ownerLastName",
         count(*) OVER () AS total
  FROM "project" p
  JOIN "company" co ON co."id" = p."companyId"
  LEFT JOIN "user" o ON o."id" = p."ownerId"
  WHERE p."companyId" = $1 AND p."status" = $2
  ORDER BY p."id"
  LIMIT $3 OFFSET $4)
SELECT json_build_object('data', COALESCE(json_agg(json_build_object(
  'id', "id", 'name', "name", 'status', "status", 'budget', "budget", 'startDate', "startDate",
  'dueDate', "dueDate", 'settings', "settings", 'companyName', "companyName",
  'ownerFirstName', "ownerFirstName", 'ownerLastName', "ownerLastName",
  'openTaskCount', (SELECT count(*) FROM "task" t WHERE t."projectId" = page."id" AND t."done" = false),
  'createdOn', "createdOn") ORDER BY "id"), '[]'), 'total', COALESCE(max(total), 0))
FROM page`;

const COMPANY_PUBLIC = `
SELECT json_build_object('data', json_build_object('id', c."id", 'name', c."name", 'slug', c."slug"))
FROM "company" c WHERE c."id" = $1 AND c."isListed" IS TRUE`;

const TASK_JSON = `json_build_object('data', json_build_object(
  'id', t."id", 'projectId', t."projectId", 'projectName', p."name", 'title', t."title",
  'description', t."description", 'priority', t."priority", 'estimateHours', t."estimateHours",
  'done', t."done", 'dueDate', t."dueDate", 'assigneeId', t."assigneeId", 'createdOn', t."createdOn"))`;

const TASK_INSERT = `
WITH t AS (
  INSERT INTO "task" ("companyId", "createdById", "projectId", "title", "priority", "estimateHours")
  SELECT $1, $2, p."id", $4, $5, $6 FROM "project" p WHERE p."id" = $3 AND p."companyId" = $1
  RETURNING *)
SELECT ${TASK_JSON} FROM t JOIN "project" p ON p."id" = t."projectId"`;

const TASK_UPDATE = `
WITH t AS (
  UPDATE "task" SET "title" = $3, "done" = $4 WHERE "id" = $1 AND "companyId" = $2 RETURNING *)
SELECT ${TASK_JSON} FROM t JOIN "project" p ON p."id" = t."projectId"`;

function claims(authorization: string | undefined): { companyId: number } | undefined {
  const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
  if (!token) return undefined;
  try {
    return jwt.verify(token, secret, { algorithms: ["HS256"] }) as { companyId: number };
  } catch {
    return undefined;
  }
}

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>("/api/v1/task/:id", async (req, reply) => {
  const user = claims(req.headers.authorization);
  if (!user)
    return reply.code(401).send({ error: { code: "UNAUTHORIZED", message: "Authentication required" } });
  const id = Number(req.params.id);
  if (!Number.isInteger(id) || id < 1) return reply.code(422).send({ error: { code: "VALIDATION_ERROR" } });
  const { rows } = await pool.query({
    name: "task",
    text: TASK_BY_ID,
    values: [id, user.companyId],
    rowMode: "array",
  });
  if (rows.length === 0) return reply.code(404).send({ error: { code: "NOT_FOUND", message: "Not found" } });
  return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
});
app.get<{ Params: { id: string } }>("/api/v1/company/public/:id", async (req, reply) => {
  const id = Number(req.params.id);
  if (!Number.isInteger(id) || id < 1) return reply.code(422).send({ error: { code: "VALIDATION_ERROR" } });
  const { rows } = await pool.query({
    name: "company",
    text: COMPANY_PUBLIC,
    values: [id],
    rowMode: "array",
  });
  if (rows.length === 0) return reply.code(404).send({ error: { code: "NOT_FOUND", message: "Not found" } });
  return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
});
app.get<{ Querystring: { page?: string; perPage?: string; filter?: string } }>(
  "/api/v1/project",
  async (req, reply) => {
    const user = claims(req.headers.authorization);
    if (!user)
      return reply.code(401).send({ error: { code: "UNAUTHORIZED", message: "Authentication required" } });
    const status = /^\(status,(?:eq,)?([a-z_]+)\)$/.exec(req.query.filter ?? "")?.[1] ?? "active";
    const perPage = Number(req.query.perPage ?? 10);
    const page = Number(req.query.page ?? 1);
    const { rows } = await pool.query({
      name: "projects",
      text: PROJECTS_PAGED,
      values: [user.companyId, status, perPage, (page - 1) * perPage],
      rowMode: "array",
    });
    return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
  },
);
interface TaskBody {
  projectId?: number;
  title?: string;
  priority?: string;
  estimateHours?: number;
  done?: boolean;
}
app.post<{ Body: TaskBody }>("/api/v1/task", async (req, reply) => {
  const user = claims(req.headers.authorization) as { companyId: number; userId: number } | undefined;
  if (!user)
    return reply.code(401).send({ error: { code: "UNAUTHORIZED", message: "Authentication required" } });
  const b = req.body;
  if (!Number.isInteger(b.projectId) || typeof b.title !== "string" || b.title.length > 200) {
    return reply.code(422).send({ error: { code: "VALIDATION_ERROR" } });
  }
  const { rows } = await pool.query({
    name: "task-insert",
    text: TASK_INSERT,
    values: [
      user.companyId,
      user.userId,
      b.projectId,
      b.title,
      b.priority ?? "medium",
      b.estimateHours ?? null,
    ],
    rowMode: "array",
  });
  if (rows.length === 0) return reply.code(403).send({ error: { code: "FORBIDDEN" } });
  return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
});
app.patch<{ Params: { id: string }; Body: TaskBody }>("/api/v1/task/:id", async (req, reply) => {
  const user = claims(req.headers.authorization);
  if (!user)
    return reply.code(401).send({ error: { code: "UNAUTHORIZED", message: "Authentication required" } });
  const id = Number(req.params.id);
  const b = req.body;
  if (!Number.isInteger(id) || typeof b.title !== "string" || typeof b.done !== "boolean") {
    return reply.code(422).send({ error: { code: "VALIDATION_ERROR" } });
  }
  const { rows } = await pool.query({
    name: "task-update",
    text: TASK_UPDATE,
    values: [id, user.companyId, b.title, b.done],
    rowMode: "array",
  });
  if (rows.length === 0) return reply.code(404).send({ error: { code: "NOT_FOUND", message: "Not found" } });
  return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
});
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.send?.("ready");
process.on("SIGTERM", async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
