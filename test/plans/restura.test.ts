// Plan check, the Restura fixture at the bench's scale (1,000 companies, 10,000 users, 50,000
// orders, 100,000 items): every read route's statements must touch no more than BOUNDS allows
// over the best hand-written statement for the same answer. Also the two routes `make bench`
// adds to the fixture (bench/restura.routes.json): the shapes the gateway once served worst.

import t from "tap";
import { RESTURA_FIXTURE } from "../harness/templates.ts";
import { checkPlans, type PlanCase, planDatabase, read } from "./plan.ts";

const BENCH_ROUTES = JSON.parse(read("bench/restura.routes.json")) as unknown[];

const USER = { role: "user", scopes: ["read:user"], userId: 1234, companyId: 235 };
const ADMIN = { role: "admin", scopes: [], userId: 1000, companyId: 1 };
const ANONYMOUS = { role: null, scopes: [] };

/** Failing today, to be fixed by the read-path rework; see checkPlans. */
const KNOWN_BAD = new Set<string>([]);

const ME = `json_build_object('id', u."id", 'createdOn', u."createdOn", 'modifiedOn', u."modifiedOn",
  'firstName', u."firstName", 'lastName', u."lastName", 'companyId', u."companyId", 'email', u."email",
  'role', u."role", 'permissionLogin', u."permissionLogin", 'lastLoginOn', u."lastLoginOn", 'phone', u."phone",
  'accountStatus', u."accountStatus", 'onboardingStatus', u."onboardingStatus", 'testAge', u."testAge",
  'metadata', u."metadata")`;

const userPage = (where: string, order: string) => `
SELECT json_build_object(
  'data', COALESCE((SELECT json_agg(${ME} ORDER BY ${order})
    FROM (SELECT * FROM "user" u WHERE true ${where} ORDER BY ${order} LIMIT $1 OFFSET $2) u), '[]'),
  'total', (SELECT count(*) FROM "user" u WHERE true ${where}))`;

/** `GET /user/paged` filtered by `column = value`, first page, the route's own order. */
const oneCondition = (column: string, value: string): PlanCase => ({
  name: `GET /api/v1/user/paged filter by ${column}`,
  route: "GET /api/v1/user/paged",
  params: { page: 1, perPage: 20, filter: { column, op: "eq", value } },
  ctx: USER,
  sql: userPage(`AND u."${column}" = ${value}`, `u."id"`),
  values: [20, 0],
});

const cases: PlanCase[] = [
  {
    name: "GET /api/v1/user/me",
    route: "GET /api/v1/user/me",
    params: {},
    ctx: USER,
    sql: `SELECT json_build_object('data', ${ME}) FROM "user" u WHERE u."id" = $1`,
    values: [1234],
  },
  {
    name: "GET /api/v1/user/my-user",
    route: "GET /api/v1/user/my-user",
    params: {},
    ctx: ADMIN,
    sql: `SELECT json_build_object('data', ${ME}) FROM "user" u WHERE u."id" = $1`,
    values: [1000],
  },
  {
    name: "GET /api/v1/user/all",
    route: "GET /api/v1/user/all",
    params: {},
    warmCalls: 0,
    ctx: ANONYMOUS,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id",
            'createdOn', u."createdOn", 'modifiedOn', u."modifiedOn", 'firstName', u."firstName",
            'lastName', u."lastName", 'companyId', u."companyId", 'password', u."password", 'email', u."email",
            'role', u."role", 'permissionLogin', u."permissionLogin", 'lastLoginOn', u."lastLoginOn",
            'phone', u."phone", 'loginDisabledOn', u."loginDisabledOn", 'passwordResetGuid', u."passwordResetGuid",
            'verifyEmailPin', u."verifyEmailPin", 'verifyEmailPinExpiresOn', u."verifyEmailPinExpiresOn",
            'accountStatus', u."accountStatus", 'passwordResetExpiresOn', u."passwordResetExpiresOn",
            'onboardingStatus', u."onboardingStatus", 'pendingEmail', u."pendingEmail", 'testAge', u."testAge",
            'metadata', u."metadata") ORDER BY u."id"), '[]'))
          FROM "user" u WHERE u."firstName" NOT ILIKE '%bill%'`,
  },
  {
    name: "GET /api/v1/order/all",
    route: "GET /api/v1/order/all",
    params: {},
    warmCalls: 0,
    ctx: ANONYMOUS,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', o."id",
            'userFirstName', u."firstName", 'userLastName', u."lastName", 'companyName', c."name")
            ORDER BY o."id"), '[]'))
          FROM "order" o JOIN "user" u ON u."id" = o."userId" JOIN "company" c ON c."id" = u."companyId"`,
  },
  {
    name: "GET /api/v1/user/before",
    route: "GET /api/v1/user/before",
    params: { date: "2024-01-15T00:00:00Z" },
    ctx: USER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id",
            'firstName', u."firstName", 'lastName', u."lastName", 'companyName', c."name") ORDER BY u."id"), '[]'))
          FROM "user" u JOIN "company" c ON c."id" = u."companyId" AND u."createdOn" < $1`,
    values: ["2024-01-15T00:00:00Z"],
  },
  {
    name: "GET /api/v1/user/all/orders",
    route: "GET /api/v1/user/all/orders",
    params: {},
    ctx: USER,
    // The count is the schema author's raw SQL, kept as written: the check measures what the
    // gateway adds around an author's SQL, not how the author could have written it.
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('firstName', u."firstName",
            'lastName', u."lastName",
            'orderCount', (SELECT COUNT(*) FROM "order" WHERE "order"."userId" = u."id")) ORDER BY u."id"), '[]'))
          FROM "user" u WHERE EXISTS (SELECT 1 FROM "order" WHERE "order"."userId" = u."id")`,
    warmCalls: 0,
  },
  {
    name: "GET /api/v1/user/with-orders",
    route: "GET /api/v1/user/with-orders",
    params: {},
    warmCalls: 0,
    ctx: USER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id",
            'firstName', u."firstName", 'lastName', u."lastName", 'order', COALESCE(o.list, '[]')) ORDER BY u."id"), '[]'))
          FROM "user" u LEFT JOIN (SELECT o."userId", json_agg(json_build_object('id', o."id",
              'createdOn', o."createdOn", 'modifiedOn', o."modifiedOn") ORDER BY o."id") AS list
            FROM "order" o GROUP BY o."userId") o ON o."userId" = u."id"`,
  },
  {
    name: "GET /api/v1/item/all",
    route: "GET /api/v1/item/all",
    params: {},
    warmCalls: 0,
    ctx: ANONYMOUS,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', i."id",
            'createdOn', i."createdOn", 'modifiedOn', i."modifiedOn", 'orderAmountCents', o."amountCents")
            ORDER BY i."id"), '[]'))
          FROM "item" i LEFT JOIN "order" o ON o."id" = i."orderId"`,
  },
  {
    name: "GET /api/v1/user/paged page 1",
    route: "GET /api/v1/user/paged",
    params: { page: 1, perPage: 20 },
    ctx: USER,
    sql: userPage("", `u."id"`),
    values: [20, 0],
  },
  {
    name: "GET /api/v1/user/paged page 400",
    route: "GET /api/v1/user/paged",
    params: { page: 400, perPage: 20 },
    ctx: USER,
    sql: userPage("", `u."id"`),
    values: [20, 7980],
  },
  {
    name: "GET /api/v1/user/paged filter and sort",
    route: "GET /api/v1/user/paged",
    params: {
      page: 2,
      perPage: 20,
      filter: { column: "lastName", op: "sw", value: "Last12" },
      sortBy: "createdOn",
      sortOrder: "DESC",
    },
    ctx: USER,
    sql: userPage(`AND u."lastName" ILIKE 'Last12%'`, `u."createdOn" DESC, u."id" DESC`),
    values: [20, 20],
  },
  // One condition and the route's own order: the condition must reach its index (a statement
  // that cannot use one reads all 10,000 users to return a company's ten).
  oneCondition("companyId", "235"),
  oneCondition("id", "235"),
  {
    name: "GET /api/v1/bench/company/:companyId/users (two-level subquery)",
    route: "GET /api/v1/bench/company/:companyId/users",
    params: { companyId: 235 },
    ctx: USER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', u."id",
            'firstName', u."firstName", 'lastName', u."lastName",
            'orders', (SELECT COALESCE(json_agg(json_build_object('id', o."id", 'amountCents', o."amountCents",
                'createdOn', o."createdOn",
                'items', (SELECT COALESCE(json_agg(json_build_object('id', i."id", 'createdOn', i."createdOn")
                    ORDER BY i."id"), '[]') FROM "item" i WHERE i."orderId" = o."id")) ORDER BY o."id"), '[]')
              FROM "order" o WHERE o."userId" = u."id")) ORDER BY u."id"), '[]'))
          FROM "user" u WHERE u."companyId" = $1`,
    values: [235],
  },
  {
    name: "GET /api/v1/bench/company/:companyId/orders (two joins)",
    route: "GET /api/v1/bench/company/:companyId/orders",
    params: { companyId: 235 },
    ctx: USER,
    sql: `SELECT json_build_object('data', COALESCE(json_agg(json_build_object('id', o."id",
            'amountCents', o."amountCents", 'createdOn', o."createdOn", 'userFirstName', u."firstName",
            'userLastName', u."lastName", 'companyName', c."name") ORDER BY o."id"), '[]'))
          FROM "user" u JOIN "order" o ON o."userId" = u."id" JOIN "company" c ON c."id" = u."companyId"
          WHERE u."companyId" = $1`,
    values: [235],
  },
];

t.test("Restura fixture: route plans against hand-written plans", async (t) => {
  const db = await planDatabase(
    t,
    "tpl_restura",
    RESTURA_FIXTURE,
    [read("test/routes/restura.seed.sql"), read("test/plans/restura.scale.sql")],
    BENCH_ROUTES,
  );
  checkPlans(t, db, cases, KNOWN_BAD);
});
