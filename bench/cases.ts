// What `make bench` measures: for each app, requests of every route shape, each answered by the
// gateway and by the hand-written server (bench/baseline.ts) with the same JSON. Data: the plan
// check's seeds (test/plans/*.scale.sql), so the bench and the plan check see the same tables.

import fs from "node:fs";
import path from "node:path";
import type { CellStatement } from "../gateway/cellQuery.ts";
import { type SentRequest, sentRequest } from "../gateway/routes/sentRequest.ts";
import type { Model } from "../generator/model/index.ts";
import { RESTURA_FIXTURE } from "../test/harness/templates.ts";
import { EXAMPLE, RESTURA } from "./sql.ts";

export const REPO = path.resolve(import.meta.dirname, "..");

export interface Claims {
  role: string;
  scopes: string[];
  userId: number;
  companyId: number;
}

export interface Case {
  app: AppName;
  /** The route shape, as the report lists it. */
  name: string;
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  /** Request headers besides the token (e.g. `Prefer: count=planned`). */
  headers?: Record<string, string>;
  /** Paths cycled through by the load (writes spread over many rows, not one hot row). */
  paths?: string[];
  /** Callers cycled through with the paths (a route on "my" row: one row per caller). */
  callers?: Claims[];
  /** Keys of `data` that differ between two correct answers (new ids, timestamps). */
  volatile?: string[];
  /**
   * DELETE: each run gets its own rows, so a run is a fixed number of requests, not a duration.
   * `deletePaths(run)` gives run `run`'s paths (run 0, 1: the answer check).
   */
  deletes?: { perRun: number; paths: (run: number) => string[] };
  /** pgbench's pair: the route function call (as the gateway sends it) and the hand-written SQL. */
  ceiling?: { route: string; params: unknown; sql: string; values: unknown[] };
}

export type AppName = "example" | "restura";

export interface BenchApp {
  name: AppName;
  /** Writes the app directory the gateway serves. */
  prepare(dir: string): void;
  /** SQL run as superuser after migrating, in order. */
  seeds(): string[];
  caller: Claims;
}

const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");

const EXAMPLE_ADMIN: Claims = {
  role: "admin",
  scopes: ["billing:read", "tasks:write"],
  userId: 1,
  companyId: 1,
};
// Company 50's admin (a user of the scale seed) deletes the tasks of a pool made for it.
const DELETER: Claims = { role: "admin", scopes: ["tasks:write"], userId: 1049, companyId: 50 };
const DELETE_POOL_START = 500_000;

// Tasks of company 1 in the scale seed: ids t with (t / 10) % 50 = 0.
const COMPANY_1_TASKS = Array.from({ length: 20_000 }, (_, i) => 1000 + i).filter(
  (t) => Math.floor(t / 10) % 50 === 0,
);

export function examplePool(rows: number): string {
  return `INSERT INTO "public"."task" ("id", "companyId", "projectId", "createdById", "title", "priority", "done")
    SELECT ${DELETE_POOL_START} + g, 50, 1049, 1049, 'To delete ' || g, 'low', false
    FROM generate_series(0, ${rows - 1}) AS g;
    ANALYZE "public"."task";`;
}

export const APPS: Record<AppName, BenchApp> = {
  example: {
    name: "example",
    caller: EXAMPLE_ADMIN,
    prepare(dir) {
      for (const entry of ["api.schema.json", "migrations"]) {
        fs.cpSync(path.join(REPO, "example", entry), path.join(dir, entry), { recursive: true });
      }
      // The handlers, linked rather than copied: Node resolves a module by its real path, so their
      // imports of the repository (../../../../gateway/custom/..., ../generated/...) still reach
      // it, and every handler loads as in the example itself.
      fs.symlinkSync(path.join(REPO, "example", "src"), path.join(dir, "src"), "dir");
      // The handlers import packages (jsonwebtoken, bcryptjs): resolve them from the repository.
      fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
    },
    seeds: () => [read("example/seed.sql"), read("test/plans/example.scale.sql")],
  },
  restura: {
    name: "restura",
    caller: { role: "user", scopes: ["read:user"], userId: 1234, companyId: 235 },
    // The fixture's schema with two routes of the shapes it lacks (bench/restura.routes.json).
    prepare(dir) {
      const schema = JSON.parse(fs.readFileSync(RESTURA_FIXTURE, "utf8"));
      schema.endpoints[0].routes.push(...JSON.parse(read("bench/restura.routes.json")));
      fs.writeFileSync(path.join(dir, "restura.schema.json"), JSON.stringify(schema, null, 2));
    },
    seeds: () => [read("test/routes/restura.seed.sql"), read("test/plans/restura.scale.sql")],
  },
};

const deletePaths = (perRun: number) => (run: number) =>
  Array.from(
    { length: run < 2 ? 1 : perRun },
    // Runs 0 and 1 (the answer check) take one row each; load runs take perRun after them.
    (_, i) => `/api/v1/task/${DELETE_POOL_START + (run < 2 ? run : 2 + (run - 2) * perRun + i)}`,
  );

/** The cursor after user 7,980 in id order: the keyset twin of page 400 (rows 7,981-8,000). */
const DEEP_CURSOR = Buffer.from(JSON.stringify({ s: "", o: "ASC", k: [7980] })).toString("base64url");

export function cases(deletesPerRun: number): Case[] {
  return [
    {
      app: "example",
      name: "ONE by key, small row (GET /company/public/:id)",
      path: "/api/v1/company/public/1",
      ceiling: {
        route: "GET /api/v1/company/public/:id",
        params: { id: 1 },
        sql: EXAMPLE.companyPublic,
        values: [1],
      },
    },
    {
      app: "example",
      name: "ONE with 3 joins and 2 subqueries (GET /task/:id)",
      path: "/api/v1/task/1000",
      ceiling: {
        route: "GET /api/v1/task/:id",
        params: { id: 1000 },
        sql: EXAMPLE.taskById,
        values: [1000, 1],
      },
    },
    {
      app: "example",
      name: "PAGED page 1, 2 joins + subquery (GET /project)",
      path: "/api/v1/project?page=1&perPage=10",
      ceiling: {
        route: "GET /api/v1/project",
        params: { page: 1, perPage: 10 },
        sql: EXAMPLE.projectsPage,
        values: [1, 10, 0],
      },
    },
    {
      app: "example",
      name: "PAGED filter, own order (GET /project?filter=(status,eq,active))",
      path: "/api/v1/project?filter=(status,eq,active)&perPage=5&page=2",
      ceiling: {
        route: "GET /api/v1/project",
        params: { page: 2, perPage: 5, filter: { column: "status", op: "eq", value: "active" } },
        sql: EXAMPLE.projectsByStatus,
        values: [1, 5, 5, "active"],
      },
    },
    {
      app: "example",
      name: "PAGED filter + sort (GET /project?filter=(status,eq,active)&sortBy=name&sortOrder=DESC)",
      path: "/api/v1/project?filter=(status,eq,active)&sortBy=name&sortOrder=DESC&perPage=5&page=2",
      ceiling: {
        route: "GET /api/v1/project",
        params: {
          page: 2,
          perPage: 5,
          filter: { column: "status", op: "eq", value: "active" },
          sortBy: "name",
          sortOrder: "DESC",
        },
        sql: EXAMPLE.projectsByStatusNameDesc,
        values: [1, 5, 5, "active"],
      },
    },
    // Before the writes: POST adds thousands of company 1's tasks, which this report would then
    // scan, so its figure would depend on how many requests POST managed.
    {
      app: "example",
      name: "custom route, one query through req.db (POST /report/summary)",
      method: "POST",
      path: "/api/v1/report/summary",
      body: { from: "2025-01-01", to: "2025-03-31", groupBy: "project" },
    },
    {
      app: "example",
      name: "POST (POST /task, assignments, join in the answer)",
      method: "POST",
      path: "/api/v1/task",
      body: { projectId: 1000, title: "Bench task", priority: "high", estimateHours: 3.5 },
      volatile: ["id", "createdOn"],
    },
    {
      app: "example",
      name: "PATCH (PATCH /task/:id, join in the answer)",
      method: "PATCH",
      path: `/api/v1/task/${COMPANY_1_TASKS[0]}`,
      paths: COMPANY_1_TASKS.map((id) => `/api/v1/task/${id}`),
      body: { title: "Renamed in bench", done: true },
    },
    {
      app: "example",
      name: "DELETE (DELETE /task/:id)",
      method: "DELETE",
      path: `/api/v1/task/${DELETE_POOL_START}`,
      callers: [DELETER],
      deletes: { perRun: deletesPerRun, paths: deletePaths(deletesPerRun) },
    },
    {
      app: "restura",
      name: "ONE by key (GET /user/me)",
      path: "/api/v1/user/me",
      ceiling: { route: "GET /api/v1/user/me", params: {}, sql: RESTURA.me, values: [1234] },
    },
    {
      app: "restura",
      name: "PAGED page 1 of 10,000 users (GET /user/paged)",
      path: "/api/v1/user/paged?page=1&perPage=20",
      ceiling: {
        route: "GET /api/v1/user/paged",
        params: { page: 1, perPage: 20 },
        sql: RESTURA.usersPage,
        values: [20, 0],
      },
    },
    {
      app: "restura",
      name: "PAGED page 400 (GET /user/paged?page=400)",
      path: "/api/v1/user/paged?page=400&perPage=20",
      ceiling: {
        route: "GET /api/v1/user/paged",
        params: { page: 400, perPage: 20 },
        sql: RESTURA.usersPageDeep,
        values: [20, 7980],
      },
    },
    {
      app: "restura",
      name: "PAGED page 400 by cursor (GET /user/paged?after=<cursor of row 7,980>)",
      path: `/api/v1/user/paged?perPage=20&after=${DEEP_CURSOR}`,
      ceiling: {
        route: "GET /api/v1/user/paged",
        params: { page: 1, perPage: 20, sortOrder: "ASC", after: DEEP_CURSOR },
        sql: RESTURA.usersAfter,
        values: [20, 7980],
      },
    },
    {
      app: "restura",
      name: "PAGED page 400 by cursor, planned total (Prefer: count=planned)",
      path: `/api/v1/user/paged?perPage=20&after=${DEEP_CURSOR}`,
      headers: { prefer: "count=planned" },
      ceiling: {
        route: "GET /api/v1/user/paged",
        params: { page: 1, perPage: 20, sortOrder: "ASC", after: DEEP_CURSOR, $count: "planned" },
        sql: RESTURA.usersAfterPlanned,
        values: [20, 7980],
      },
    },
    {
      app: "restura",
      name: "PAGED filter + sort (GET /user/paged?filter=(lastName,sw,Last12)&sortBy=createdOn&sortOrder=DESC)",
      path: "/api/v1/user/paged?page=2&perPage=20&filter=(lastName,sw,Last12)&sortBy=createdOn&sortOrder=DESC",
      ceiling: {
        route: "GET /api/v1/user/paged",
        params: {
          page: 2,
          perPage: 20,
          filter: { column: "lastName", op: "sw", value: "Last12" },
          sortBy: "createdOn",
          sortOrder: "DESC",
        },
        sql: RESTURA.usersByLastNameNewest,
        values: [20, 20, "Last12%"],
      },
    },
    {
      app: "restura",
      name: "ARRAY with a two-level subquery: a company's users, orders, items",
      path: "/api/v1/bench/company/235/users",
      ceiling: {
        route: "GET /api/v1/bench/company/:companyId/users",
        params: { companyId: 235 },
        sql: RESTURA.companyUsersOrdersItems,
        values: [235],
      },
    },
    {
      app: "restura",
      name: "ARRAY with two joins, selected by a foreign key: a company's orders",
      path: "/api/v1/bench/company/235/orders",
      ceiling: {
        route: "GET /api/v1/bench/company/:companyId/orders",
        params: { companyId: 235 },
        sql: RESTURA.companyOrders,
        values: [235],
      },
    },
    {
      app: "restura",
      name: "PATCH (PATCH /user/me, 1,000 callers)",
      method: "PATCH",
      path: "/api/v1/user/me",
      body: { firstName: "Renamed" },
      callers: Array.from({ length: 1000 }, (_, i) => ({
        role: "user",
        scopes: [],
        userId: 1000 + i,
        companyId: 1 + ((1000 + i) % 1000),
      })),
    },
  ];
}

/** What the gateway sends for a ceiling's request (gateway/routes/sentRequest.ts). */
function sent(model: Model, ceiling: NonNullable<Case["ceiling"]>): SentRequest | undefined {
  const modelRoute = model.routes.find((r) => r.key === ceiling.route);
  return modelRoute ? sentRequest(model, modelRoute) : undefined;
}

/**
 * The route function's parameters for a case, as JSON, as the gateway sends them: a cursor in the
 * route's own order decoded under `$after` (gateway/routes/cursor.ts).
 */
export function functionParams(model: Model, ceiling: NonNullable<Case["ceiling"]>): string {
  const params = ceiling.params as Record<string, unknown>;
  return JSON.stringify(sent(model, ceiling)?.params(params) ?? params);
}

/**
 * The gateway's own statement for a ceiling's request, when it answers the request itself: a page
 * batch (gateway/routes/pagedStatement.ts) or a read (gateway/routes/readStatement.ts), for the
 * caller `ctx` (claims: role, scopes, globals).
 */
export function ownStatement(
  model: Model,
  ceiling: NonNullable<Case["ceiling"]>,
  ctx: Record<string, unknown>,
): CellStatement | undefined {
  return sent(model, ceiling)?.own(ceiling.params as Record<string, unknown>, ctx);
}
