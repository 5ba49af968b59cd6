// The hand-written server of `make bench`: Fastify + pg, one prepared statement per request
// (bench/sql.ts) whose JSON Postgres builds and Node sends on untouched. It is the ceiling the
// gateway is measured against, so it does the least that gives the same answer: it reads the
// caller from the token without verifying it, and validates only what its SQL needs.
// BENCH_APP=example | restura picks the routes (both apps have a GET /api/v1/user/me).
//
// BENCH_BASELINE=rls runs the same statements under the app's row security, as a server that
// relies on it would: its sessions as api_owner (the role the route functions read as, which the
// policies bind), and ahead of each statement, in the same round trip and transaction, the
// caller's keys the example's policies read, set transaction-locally. Not the server `make bench`
// holds the gateway to (that one checks no permission); a measure of what the app's own policies
// cost over HTTP (docs/performance.md). Its custom route is not served (501): the handler's
// query would need the context too, which this server's plain `pool.query` does not send.

import Fastify, { type FastifyReply } from "fastify";
import pg from "pg";
import { CellQuery, cellStatement, type Step } from "../gateway/cellQuery.ts";
import { setContextTexts } from "../generator/api/context.ts";
import { API_OWNER } from "../generator/api/names.ts";
import { EXAMPLE, planCacheMode, RESTURA } from "./sql.ts";

const JSON_OID = 114;

const UNDER_RLS = process.env.BENCH_BASELINE === "rls";
/** What the example's row policies read of the caller (its schema: `#companyId`, and the role). */
const POLICY_KEYS = ["companyId", "role"];
const CONTEXT_TEXT = `SELECT FROM (SELECT ${setContextTexts(POLICY_KEYS, false)}) AS _ctx`;

/** BENCH_BASELINE=rls: the statement that sets the caller's keys, ahead of the request's own. */
function contextStep(authorization: string | undefined): Step {
  const claims = caller(authorization) as unknown as Record<string, unknown>;
  return { name: "ctx", text: CONTEXT_TEXT, values: POLICY_KEYS.map((key) => String(claims[key] ?? "")) };
}

/** A pool whose sessions plan statements in `mode` (bench/sql.ts planCacheMode). */
function poolPlanning(mode: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    options: `-c plan_cache_mode=${mode}${UNDER_RLS ? ` -c role=${API_OWNER}` : ""}`,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === JSON_OID
          ? (v: string) => v
          : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
    },
  });
  // The cluster stops at the end of the run while idle clients are still connected.
  pool.on("error", () => {});
  return pool;
}

// One pool per plan cache mode, each the gateway's size: a case runs one statement, so only one
// of them is ever busy, and the idle one holds no connections it has not used.
const pools: Record<string, pg.Pool> = {};
const poolFor = (text: string): pg.Pool => {
  const mode = planCacheMode(text);
  pools[mode] ??= poolPlanning(mode);
  return pools[mode];
};

interface Caller {
  userId: number;
  companyId: number;
  role: string;
}

/** The token's claims, decoded but not verified (see the header). */
function caller(authorization: string | undefined): Caller {
  const payload = authorization?.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Caller;
}

/** A named statement's one cell, read as lean as the gateway reads its own (gateway/cellQuery.ts). */
function cell(name: string, text: string, values: unknown[], before?: Step[]): Promise<pg.QueryArrayResult> {
  return new Promise((resolve, reject) => {
    poolFor(text).connect((connectError, client, release) => {
      if (connectError || !client) return reject(connectError);
      const query = new CellQuery(
        cellStatement(
          name,
          text,
          values.map((v) => (v == null ? null : String(v))),
          before ? { before } : undefined,
        ),
      );
      query.callback = (error, result) => {
        release();
        if (error || !result) reject(error);
        else resolve(result);
      };
      client.query(query);
    });
  });
}

/** Runs a named statement and sends its one JSON cell, or 404 when there is no row. */
async function answer(reply: FastifyReply, name: string, text: string, values: unknown[]) {
  const before = UNDER_RLS ? [contextStep(reply.request.headers.authorization)] : undefined;
  const { rows } = await cell(name, text, values, before);
  if (rows.length === 0) return reply.code(404).send({ error: { code: "NOT_FOUND", message: "Not found" } });
  return reply.header("content-type", "application/json; charset=utf-8").send((rows[0] as unknown[])[0]);
}

type Params = { Params: Record<string, string>; Querystring: Record<string, string | undefined> };
const app = Fastify({ logger: false });

if (process.env.BENCH_APP === "restura") {
  app.get("/api/v1/user/me", (req, reply) =>
    answer(reply, "me", RESTURA.me, [caller(req.headers.authorization).userId]),
  );
  app.get<Params>("/api/v1/user/paged", (req, reply) => {
    const perPage = Number(req.query.perPage ?? 10);
    const offset = (Number(req.query.page ?? 1) - 1) * perPage;
    if (req.query.after !== undefined) {
      // Keyset: the cursor's one key (id order), decoded without the gateway's checks.
      const after = JSON.parse(Buffer.from(req.query.after, "base64url").toString("utf8")) as { k: number[] };
      const planned = /count=planned/.test(String(req.headers.prefer ?? ""));
      return planned
        ? answer(reply, "users-after-planned", RESTURA.usersAfterPlanned, [perPage, after.k[0]])
        : answer(reply, "users-after", RESTURA.usersAfter, [perPage, after.k[0]]);
    }
    // The one filter shape the bench sends: (lastName,sw,<prefix>), newest first.
    const prefix = /^\(lastName,sw,([A-Za-z0-9]+)\)$/.exec(req.query.filter ?? "")?.[1];
    return prefix === undefined
      ? offset >= 100
        ? answer(reply, "users-page-deep", RESTURA.usersPageDeep, [perPage, offset])
        : answer(reply, "users-page", RESTURA.usersPage, [perPage, offset])
      : answer(reply, "users-filtered", RESTURA.usersByLastNameNewest, [perPage, offset, `${prefix}%`]);
  });
  app.get<Params>("/api/v1/bench/company/:companyId/users", (req, reply) =>
    answer(reply, "company-users", RESTURA.companyUsersOrdersItems, [Number(req.params.companyId)]),
  );
  app.get<Params>("/api/v1/bench/company/:companyId/orders", (req, reply) =>
    answer(reply, "company-orders", RESTURA.companyOrders, [Number(req.params.companyId)]),
  );
  app.patch<{ Body: { firstName: string } }>("/api/v1/user/me", (req, reply) =>
    answer(reply, "patch-me", RESTURA.patchMe, [
      caller(req.headers.authorization).userId,
      req.body.firstName,
    ]),
  );
} else {
  app.get<Params>("/api/v1/company/public/:id", (req, reply) =>
    answer(reply, "company", EXAMPLE.companyPublic, [Number(req.params.id)]),
  );
  app.get<Params>("/api/v1/task/:id", (req, reply) =>
    answer(reply, "task", EXAMPLE.taskById, [
      Number(req.params.id),
      caller(req.headers.authorization).companyId,
    ]),
  );
  app.get<Params>("/api/v1/project", (req, reply) => {
    const { companyId } = caller(req.headers.authorization);
    const perPage = Number(req.query.perPage ?? 10);
    const offset = (Number(req.query.page ?? 1) - 1) * perPage;
    // The filter shape the bench sends, (status,eq,<status>), in the route's order or by name
    // descending.
    const status = /^\(status,eq,([a-z_]+)\)$/.exec(req.query.filter ?? "")?.[1];
    if (status === undefined)
      return answer(reply, "projects", EXAMPLE.projectsPage, [companyId, perPage, offset]);
    const values = [companyId, perPage, offset, status];
    return req.query.sortBy === "name"
      ? answer(reply, "projects-status", EXAMPLE.projectsByStatusNameDesc, values)
      : answer(reply, "projects-status-id", EXAMPLE.projectsByStatus, values);
  });
  interface TaskBody {
    projectId: number;
    title: string;
    priority?: string;
    estimateHours?: number;
    done: boolean;
  }
  app.post<{ Body: TaskBody }>("/api/v1/task", (req, reply) => {
    const { companyId, userId } = caller(req.headers.authorization);
    const b = req.body;
    return answer(reply, "task-insert", EXAMPLE.taskInsert, [
      companyId,
      userId,
      b.projectId,
      b.title,
      b.priority ?? "medium",
      b.estimateHours ?? null,
    ]);
  });
  app.patch<{ Params: Record<string, string>; Body: TaskBody }>("/api/v1/task/:id", (req, reply) =>
    answer(reply, "task-update", EXAMPLE.taskUpdate, [
      Number(req.params.id),
      caller(req.headers.authorization).companyId,
      req.body.title,
      req.body.done,
    ]),
  );
  app.delete<Params>("/api/v1/task/:id", (req, reply) =>
    answer(reply, "task-delete", EXAMPLE.taskDelete, [
      Number(req.params.id),
      caller(req.headers.authorization).companyId,
    ]),
  );
  interface Row {
    key: string | null;
    label: string;
    taskCount: number;
    doneCount: number;
    estimateHours: number;
  }
  // The custom route: the same one query as the handler, and the same totals added in Node.
  app.post<{ Body: { from: string; to: string } }>("/api/v1/report/summary", async (req, reply) => {
    if (UNDER_RLS)
      return reply.code(501).send({ error: { code: "NOT_IMPLEMENTED", message: "BENCH_BASELINE=rls" } });
    const { from, to } = req.body;
    const { companyId } = caller(req.headers.authorization);
    const result = await poolFor(EXAMPLE.reportByProject).query<Row>({
      name: "report",
      text: EXAMPLE.reportByProject,
      values: [from, to, companyId],
    });
    const rows = result.rows.map((r) => ({ ...r, key: r.key === null ? null : Number(r.key) }));
    const totals = { taskCount: 0, doneCount: 0, estimateHours: 0 };
    for (const r of rows) {
      totals.taskCount += r.taskCount;
      totals.doneCount += r.doneCount;
      totals.estimateHours += r.estimateHours;
    }
    totals.estimateHours = Math.round(totals.estimateHours * 100) / 100;
    return reply.send({ data: { from, to, groupBy: "project", rows, totals } });
  });
}

await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.send?.("ready");
process.on("SIGTERM", async () => {
  await app.close();
  await Promise.all(Object.values(pools).map((p) => p.end()));
  process.exit(0);
});
