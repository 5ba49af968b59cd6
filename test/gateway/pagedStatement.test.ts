// The gateway's own page statements (gateway/routes/pagedStatement.ts) against the route function,
// on real Postgres: for every PAGED route of the example app and the Restura fixture, every caller
// and a wide set of filters and sorts, both answer the same bytes (or the same error), and the
// gateway's statement is the one that answered (not a silent fallback to the function).

import path from "node:path";
import t from "tap";
import { readAppSchema } from "../../app/load.ts";
import type { AuthResult } from "../../gateway/auth/types.ts";
import { isCellStatement } from "../../gateway/cellQuery.ts";
import type { ApiError } from "../../gateway/errors.ts";
import { createPool } from "../../gateway/pool.ts";
import type { StatementRunner } from "../../gateway/readPool.ts";
import { compileStandardRoute, type RouteRequest } from "../../gateway/routes/standard.ts";
import { buildModel } from "../../generator/model/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { column, id, scratchApp, standardRoute, table } from "../harness/app.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { testGateway, testGatewayForApp } from "../harness/gateway.ts";
import { EXAMPLE_DIR, recordingRunner, routeBothWays } from "./helpers.ts";

type Caller = { role: string; scopes: string[]; globals: Record<string, number> } | null;

const auth = (c: Caller): AuthResult =>
  (c === null
    ? { anonymous: true, reason: "missing" }
    : { user: { role: c.role, scopes: c.scopes, globals: c.globals } }) as AuthResult;

/** A request's query string, parsed as Fastify gives it. */
const query = (qs: string): Record<string, string> => Object.fromEntries(new URLSearchParams(qs));

interface App {
  template: "tpl_example" | "tpl_restura";
  dir: string;
  route: string;
  callers: Caller[];
  /** Requests the gateway's statement answers (valid, on its pages). */
  own: string[];
  /** Requests whose filter value does not cast: the function answers with its message. */
  refused: string[];
}

const EXAMPLE_SCOPES = ["billing:read", "tasks:write"];
const EXAMPLE: App = {
  template: "tpl_example",
  dir: EXAMPLE_DIR,
  route: "GET /api/v1/project",
  callers: [
    { role: "admin", scopes: EXAMPLE_SCOPES, globals: { companyId: 1, userId: 1 } },
    { role: "manager", scopes: [], globals: { companyId: 1, userId: 2 } },
    { role: "member", scopes: ["tasks:write"], globals: { companyId: 1, userId: 3 } },
    { role: "admin", scopes: [], globals: { companyId: 2, userId: 4 } },
    { role: "member", scopes: [], globals: { companyId: 2, userId: 6 } },
  ],
  own: [
    "filter=(status,eq,active)",
    "filter=(status,ne,archived)and(dueDate,notnull)",
    "filter=(status,ne,archived)&sortBy=dueDate",
    "filter=(status,ne,archived)&sortBy=dueDate&sortOrder=DESC&perPage=2&page=2",
    "sortBy=dueDate",
    "sortBy=name&sortOrder=DESC",
    "sortBy=openTaskCount&sortOrder=DESC",
    "sortBy=ownerId_user.lastName",
    "sortBy=companyName",
    "sortBy=createdOn&sortOrder=DESC&perPage=3",
    "sortOrder=NONE",
    "sortBy=name&sortOrder=NONE",
    "filter=(dueDate,gt,2025-01-01)",
    "filter=(startDate,gte,2026-01-05)",
    "filter=(createdOn,lt,2025-01-01)",
    "filter=(id,lte,2)",
    "filter=(id,in,1|3|5)",
    "filter=(name,has,ROBOT)",
    "filter=(name,sw,web)",
    "filter=(name,ew,V2)",
    "filter=(name,has,50%_\\\\x)",
    "filter=(status,in,active|planning)",
    "filter=(dueDate,null)",
    "filter=(ownerFirstName,notnull)",
    "filter=(status,eq,archived)or(status,eq,planning)and(dueDate,null)",
    "filter=((status,eq,archived)or(status,eq,planning))and(dueDate,null)",
    "filter=!(status,eq,archived)",
    'filter=(name,eq,"Website Redesign")',
    "filter=(name,in,Legacy Cleanup|A\\|B|Robot\\, v3)",
    "filter=(project.settings.color,eq,#3366ff)",
    "filter=(project.settings.color,sw,#33)",
    "filter=(project.settings.color,null)",
    "filter=(settings,eq,{})",
    "filter=(companyName,has,a)&sortBy=ownerFirstName",
    'filter=(name,eq,it"s \\ quoted)',
  ],
  refused: ["filter=(id,eq,abc)", "filter=(dueDate,gt,someday)", "filter=(id,in,1|x)"],
};

const RESTURA: App = {
  template: "tpl_restura",
  dir: path.dirname(RESTURA_FIXTURE),
  route: "GET /api/v1/user/paged",
  callers: [
    { role: "admin", scopes: ["read:user"], globals: { companyId: 1, userId: 1 } },
    { role: "user", scopes: [], globals: { companyId: 1, userId: 2 } },
    { role: "user", scopes: [], globals: { companyId: 2, userId: 3 } },
  ],
  own: [
    "filter=(firstName,has,a)",
    "filter=(companyId,eq,1)",
    "filter=(role,in,admin|user)&sortBy=email&sortOrder=DESC",
    "sortBy=lastName",
    "sortBy=testAge&sortOrder=DESC&perPage=2",
    "sortOrder=NONE",
    "filter=(lastLoginOn,null)",
    "filter=(testAge,gt,20)or(metadata,notnull)",
    "filter=(id,gte,2)&page=2&perPage=1",
  ],
  refused: ["filter=(testAge,eq,old)", "filter=(createdOn,gt,yesterday)"],
};

type Outcome = { status: number; headers: Record<string, string>; body: string } | { error: string };

async function outcome(
  run: () => Promise<{ status: number; headers: Record<string, string>; body: string }>,
) {
  try {
    return (await run()) as Outcome;
  } catch (error) {
    const e = error as ApiError;
    return { error: `${e.code}: ${e.message}` } as Outcome;
  }
}

for (const app of [EXAMPLE, RESTURA]) {
  t.test(`${app.template}: the gateway's page statements answer as the route function`, async (t) => {
    const gw = await testGateway(t, app.template);
    const { functionOnly: fn, asServed: own } = routeBothWays(app.dir, app.route);
    // Which statement answered: the gateway's runs with a context statement before it.
    const ran: string[] = [];
    const db = recordingRunner(gw.pool, (config) =>
      ran.push(isCellStatement(config) && config.before ? "own" : "function"),
    );
    const request = (qs: string, prefer?: string): RouteRequest => ({
      query: query(qs),
      params: {},
      body: undefined,
      ...(prefer ? { headers: { prefer } } : {}),
    });
    for (const caller of [...app.callers, null]) {
      const who = caller ? `${caller.role} of company ${caller.globals.companyId}` : "anonymous";
      for (const qs of app.own) {
        const expected = await outcome(() => fn(db, auth(caller), request(qs)));
        ran.length = 0;
        const got = await outcome(() => own(db, auth(caller), request(qs)));
        t.same(got, expected, `${who}: ${qs}`);
        // A caller the route lets in, on a valid request: the gateway's statement answered alone.
        if ("status" in expected) t.same(ran, ["own"], `${who}: ${qs}: the gateway's statement answered`);
      }
      for (const qs of app.refused) {
        const expected = await outcome(() => fn(db, auth(caller), request(qs)));
        ran.length = 0;
        const got = await outcome(() => own(db, auth(caller), request(qs)));
        t.same(got, expected, `${who}: ${qs}`);
        if ("error" in expected && expected.error.startsWith("BAD_REQUEST: filter value")) {
          t.same(
            ran,
            ["own", "function"],
            `${who}: ${qs}: refused by the cast check, answered by the function`,
          );
        }
      }
    }
    // Prefer: count=exact is the gateway's too, and says so.
    const admin = auth(app.callers[0] as Caller);
    const qs = app.own[0] as string;
    ran.length = 0;
    const counted = await own(db, admin, request(qs, "count=exact"));
    t.equal(counted.headers["preference-applied"], "count=exact");
    t.same(ran, ["own"]);
    t.same(counted, await fn(db, admin, request(qs, "count=exact")));
    // RAND: the same rows and total, in any order.
    const rand = JSON.parse((await own(db, admin, request("sortOrder=RAND&perPage=100"))).body);
    const all = JSON.parse((await fn(db, admin, request("perPage=100"))).body);
    t.equal(rand.total, all.total);
    t.same(
      rand.data.map((r: { id: number }) => r.id).sort(),
      all.data.map((r: { id: number }) => r.id).sort(),
    );
    // Not the gateway's: the default request, a cursor, another total, deep pages.
    const others: [string, string | undefined][] = [
      ["", undefined],
      ["sortOrder=DESC", undefined],
      ["filter=(id,gt,0)&page=11&perPage=10", undefined],
      [qs, "count=planned"],
    ];
    for (const [other, prefer] of others) {
      ran.length = 0;
      await outcome(() => own(db, admin, request(other, prefer)));
      t.same(ran, ["function"], `${other} ${prefer ?? ""}: the route function's`);
    }
  });
}

// The function's checks after the route rule hold on the gateway's path too: a caller who fails a
// table rule, or sees none of a route's columns, gets the function's 403, not the view's empty or
// masked page (the gateway evaluates them first: generator/routes/permissions.ts Checks.passes).
t.test("a table rule and 'every column hidden' refuse as the function does", async (t) => {
  const paged = (path: string, tableName: string, response: string[]) =>
    standardRoute("GET", path, tableName, response, { type: "PAGED", roles: ["admin", "member"] });
  const schema = {
    database: [
      table("doc", [id(), column("title", "TEXT")], { scopes: ["docs:read"] }),
      table("note", [id(), column("hidden", "TEXT", { roles: ["admin"] })]),
    ],
    endpoints: [
      {
        name: "v1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          paged("/doc", "doc", ["id", "title"]),
          paged("/note", "note", ["hidden"]),
          // Raw SQL naming the table itself: the function (api_owner) may read it, api_gateway not.
          {
            ...paged("/note/counted", "note", ["id"]),
            response: [
              { name: "id", selector: "note.id" },
              { name: "notes", selector: '(SELECT count(*) FROM "public"."note")', type: "number" },
            ],
          },
        ],
      },
    ],
    customTypes: [],
    globalParams: [],
    roles: ["admin", "member"],
    scopes: ["docs:read"],
  };
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "doc" ("title") VALUES ('a'), ('b'); INSERT INTO "note" ("hidden") VALUES ('x');`,
  );
  const model = buildModel(readAppSchema(app.dir).schema as Schema);
  const ran: string[] = [];
  const db: StatementRunner = {
    query(config) {
      ran.push(isCellStatement(config) && config.before ? "own" : "function");
      return gw.pool.query(config);
    },
  };
  const warned: string[] = [];
  const runs = new Map<string, ReturnType<typeof compileStandardRoute>>();
  const call = async (route: string, caller: Caller) => {
    const modelRoute = model.routes.find((r) => r.key === route);
    if (!modelRoute) throw new Error(`no route ${route}`);
    const run =
      runs.get(route) ??
      compileStandardRoute(modelRoute, {
        maxPerPage: 100,
        globalParams: [],
        model,
        warn: (details) => warned.push(String(details.route)),
      });
    runs.set(route, run);
    ran.length = 0;
    const got = await outcome(() =>
      run(db, auth(caller), { query: query("sortOrder=NONE"), params: {}, body: undefined }),
    );
    return { got, ran: [...ran] };
  };
  const reader = { role: "member", scopes: ["docs:read"], globals: {} };
  const member = { role: "member", scopes: [], globals: {} };
  const admin = { role: "admin", scopes: [], globals: {} };
  const docs = await call("GET /api/v1/doc", reader);
  t.same(docs.ran, ["own"], "a caller with the table's scope: the gateway's page");
  t.match(JSON.parse((docs.got as { body: string }).body), { total: 2 });
  t.same(await call("GET /api/v1/doc", member), {
    got: { error: "FORBIDDEN: You do not have permission to access this table" },
    ran: ["function"],
  });
  const notes = await call("GET /api/v1/note", admin);
  t.same(notes.ran, ["own"], "a caller who sees the column: the gateway's page");
  t.same(await call("GET /api/v1/note", member), {
    got: { error: "FORBIDDEN: You do not have permission to access any columns in this table" },
    ran: ["function"],
  });
  // Raw SQL api_gateway may not run: the function answers, and keeps the route, said once.
  const counted = await call("GET /api/v1/note/counted", admin);
  t.same(counted.ran, ["own", "function"], "refused on the gateway's path (42501), answered by the function");
  t.match(JSON.parse((counted.got as { body: string }).body), { data: [{ id: 1, notes: 1 }], total: 1 });
  t.same(
    (await call("GET /api/v1/note/counted", admin)).ran,
    ["function"],
    "the route stays with the function",
  );
  t.same(warned, ["GET /api/v1/note/counted"], "told once");
});

// The context statement stores what the page reads (settingsToSet, as route functions decide):
// a policy's global when the route holds no raw SQL, never the whole context then. Left out, the
// policy would match no row and the page would come back empty.
t.test("the context statement stores the keys the page's row policies read", async (t) => {
  const schema = {
    database: [
      table("item", [id(), column("companyId", "BIGINT"), column("title", "TEXT")], {
        policies: [
          {
            name: "same_company",
            roles: [],
            scopes: [],
            where: [{ tableName: "item", columnName: "companyId", operator: "=", value: "#companyId" }],
          },
        ],
      }),
    ],
    endpoints: [
      {
        name: "v1",
        description: "",
        baseUrl: "/api/v1",
        routes: [
          standardRoute("GET", "/item", "item", ["id", "title"], { type: "PAGED", roles: [] }),
          // A where that reads the request: its page text reads $1.
          standardRoute("GET", "/item/titled", "item", ["id", "title"], {
            type: "PAGED",
            roles: [],
            request: [
              { name: "title", required: true, validator: [{ type: "TYPE_CHECK", value: "string" }] },
            ],
            where: [{ tableName: "item", columnName: "title", operator: "!=", value: "$title" }],
          }),
        ],
      },
    ],
    customTypes: [],
    globalParams: ["companyId", "userId"],
    roles: ["member"],
    scopes: [],
  };
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "item" ("companyId", "title") VALUES (1, 'a'), (1, 'b'), (2, 'c');`,
  );
  const model = buildModel(readAppSchema(app.dir).schema as Schema);
  const modelRoute = model.routes.find((r) => r.key === "GET /api/v1/item");
  if (!modelRoute) throw new Error("no route GET /api/v1/item");
  const options = { maxPerPage: 100, globalParams: schema.globalParams };
  const fn = compileStandardRoute(modelRoute, options);
  const own = compileStandardRoute(modelRoute, { ...options, model });
  const sent: string[][] = [];
  const db: StatementRunner = {
    query(config) {
      if (isCellStatement(config) && config.before) sent.push(config.before.map((s) => s.text));
      return gw.pool.query(config);
    },
  };
  const caller = auth({ role: "member", scopes: [], globals: { companyId: 1, userId: 7 } });
  for (const qs of ["sortBy=title&sortOrder=DESC", "filter=(title,ne,zzz)"]) {
    const request = { query: query(qs), params: {}, body: undefined };
    const got = await own(db, caller, request);
    t.same(got, await fn(db, caller, request), qs);
    t.match(JSON.parse(got.body), { total: 2 }, `${qs}: company 1's rows`);
  }
  t.equal(sent.length, 2, "both answered by the gateway's statement");
  const context = sent[0]?.[0] ?? "";
  t.match(context, "'api.ctx.companyId'", "the policy's global is stored");
  t.notMatch(context, "'api.ctx.userId'", "a global nothing reads is not");
  t.notMatch(context, "'api.ctx',", "nor the whole context");

  // Each setting bound as text, as the gateway reads it from the caller (memberText.ts); a value
  // whose text jsonb could write otherwise (a number JavaScript writes with an exponent) takes the
  // form that reads them from the context's jsonb, and the answer is the function's either way.
  const contexts: { text: string; values: unknown[] }[] = [];
  const recordContext = recordingRunner(gw.pool, (config) => {
    const step = isCellStatement(config) ? config.before?.[0] : undefined;
    if (step) contexts.push({ text: step.text, values: step.values });
  });
  const sorted = { query: query("sortBy=title"), params: {}, body: undefined };
  t.same(await own(recordContext, caller, sorted), await fn(db, caller, sorted), "bound: as the function");
  t.notMatch(contexts[0]?.text, "::jsonb", "the settings bound as text");
  t.same(contexts[0]?.values, ["member", "[]", "1"], "role, scopes and the company, as text");
  const huge = auth({ role: "member", scopes: [], globals: { companyId: 1e21, userId: 7 } });
  contexts.length = 0;
  t.same(
    await outcome(() => own(recordContext, huge, sorted)),
    await outcome(() => fn(db, huge, sorted)),
    "a company JavaScript writes as 1e+21: as the function",
  );
  t.match(contexts[0]?.text, "$1::jsonb", "read from the context's jsonb");

  // The request ($1) and the caller ($2) are bound where the page's text reads them, NULL where
  // it does not (gateway/routes/unreadValues.ts): the titled route's where reads the request.
  const bound: unknown[][] = [];
  const recording = recordingRunner(gw.pool, (config) => bound.push(config.values ?? []));
  const titledRoute = model.routes.find((r) => r.key === "GET /api/v1/item/titled");
  if (!titledRoute) throw new Error("no route GET /api/v1/item/titled");
  const titledFn = compileStandardRoute(titledRoute, options);
  const titled = compileStandardRoute(titledRoute, { ...options, model });
  for (const [route, fnRoute, qs, reads] of [
    [own, fn, "sortBy=title", false],
    [titled, titledFn, "sortBy=title&title=a", true],
  ] as const) {
    bound.length = 0;
    const request = { query: query(qs), params: {}, body: undefined };
    const got = await route(recording, caller, request);
    t.same(got, await fnRoute(db, caller, request), `${qs}: as the function`);
    const [requestValue, callerValue] = bound[0] ?? [];
    t.equal(callerValue, null, `${qs}: the caller, unread, bound as NULL`);
    if (reads) t.match(JSON.parse(String(requestValue)), { title: "a" }, `${qs}: the request bound`);
    else t.equal(requestValue, null, `${qs}: the request, unread, bound as NULL`);
  }
  t.match(
    JSON.parse(
      (await titled(db, caller, { query: query("title=a&sortBy=title"), params: {}, body: undefined })).body,
    ),
    { total: 1 },
    "the where read the bound request",
  );
});

// Timestamps in UTC, as the function's `SET timezone` renders them, on a connection whose session
// starts in another zone: the page is `utc` (the batch sets the session's zone first where it is
// not UTC, cellQuery.ts), not a setting of its context statement.
t.test("a page on a session in another time zone renders timestamps as the function", async (t) => {
  const gw = await testGateway(t, EXAMPLE.template);
  const database = (await gw.su.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db;
  await gw.su.query(`ALTER DATABASE "${database}" SET timezone = 'Asia/Kathmandu'`);
  t.teardown(() => gw.su.query(`ALTER DATABASE "${database}" RESET timezone`));
  const url = (gw.pool as unknown as { options: { connectionString: string } }).options.connectionString;
  const pool = createPool(url, 1);
  t.teardown(() => pool.end());
  const zone = async () =>
    (await pool.query<{ z: string }>("SELECT current_setting('TimeZone') AS z")).rows[0]?.z;
  t.equal(await zone(), "Asia/Kathmandu", "the session starts in the database's zone");
  const { functionOnly: fn, asServed: own } = routeBothWays(EXAMPLE.dir, EXAMPLE.route);
  const ran: string[] = [];
  const db = recordingRunner(pool, (config) =>
    ran.push(isCellStatement(config) && config.before ? "own" : "function"),
  );
  const admin = auth(EXAMPLE.callers[0] as Caller);
  const request: RouteRequest = { query: query("sortBy=createdOn&perPage=3"), params: {}, body: undefined };
  const expected = await fn(db, admin, request);
  t.match(expected.body, /"createdOn" : "[^"]+\+00:00"/, "the function: UTC");
  ran.length = 0;
  t.same(await own(db, admin, request), expected, "the gateway's page: the same");
  t.same(ran, ["own"], "answered by the gateway's page");
  t.equal(await zone(), "UTC", "the session was set to UTC");
});

// The total is counted without the joins that decide no row when the filter names none of them
// (pagedText.ts countedTotal): Postgres would leave them out of the plan, but their views and
// tables would still be checked and locked on every execution. A filter on a joined column keeps
// its join in the count, which would otherwise name a table it does not read.
t.test("the page's total joins only what its filter reads", async (t) => {
  const gw = await testGateway(t, EXAMPLE.template);
  const { functionOnly: fn, asServed: own } = routeBothWays(EXAMPLE.dir, EXAMPLE.route);
  const texts: string[] = [];
  const db = recordingRunner(gw.pool, (config) => texts.push(config.text));
  const admin = auth(EXAMPLE.callers[0] as Caller);
  const total = (text: string) => text.slice(text.lastIndexOf("'total'"));
  for (const [qs, joined] of [
    ["filter=(status,eq,active)", false],
    ["filter=(ownerFirstName,notnull)", true],
  ] as const) {
    const request: RouteRequest = { query: query(qs), params: {}, body: undefined };
    texts.length = 0;
    t.same(await own(db, admin, request), await fn(gw.pool, admin, request), `${qs}: as the function`);
    t.equal(
      total(texts[0] ?? "").includes('"api"."user" AS "ownerId_user"'),
      joined,
      `${qs}: the owner join`,
    );
  }
});
