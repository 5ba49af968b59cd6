// Every route of the Restura fixture and of the example app compiles, and sample inputs
// validate as a client would expect.

import fs from "node:fs";
import t from "tap";
import { compileRequest, type RequestInput, type RequestValidator } from "../../gateway/request/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { details, params } from "./helpers.ts";

const EXAMPLE = new URL("../../example/api.schema.json", import.meta.url);

function load(file: string | URL): Schema {
  const result = loadSchema(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!result.schema) throw new Error(`schema did not load: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result.schema;
}

/** Compiles every route; `requestType` routes get a stand-in validator through the seam. */
function compileAll(schema: Schema): Map<string, RequestValidator> {
  const out = new Map<string, RequestValidator>();
  for (const group of schema.endpoints) {
    for (const route of group.routes) {
      const validate = compileRequest(route, {
        maxPerPage: 100,
        requestType: (r) => () => ({ ok: true, params: { stub: r.requestType } }),
      });
      out.set(`${route.method} ${group.baseUrl}${route.path}`, validate);
    }
  }
  return out;
}

function routeCount(schema: Schema): number {
  return schema.endpoints.reduce((n, g) => n + g.routes.length, 0);
}

function runner(validators: Map<string, RequestValidator>) {
  return (key: string, input: Partial<RequestInput> = {}) => {
    const validate = validators.get(key);
    if (!validate) throw new Error(`no route ${key}`);
    return validate({ query: {}, params: {}, body: undefined, ...input });
  };
}

t.test("the Restura fixture", async (t) => {
  const schema = load(RESTURA_FIXTURE);
  const validators = compileAll(schema);
  t.equal(validators.size, routeCount(schema), "every route compiles");
  const run = runner(validators);

  t.same(params(run("GET /api/v1/user/paged")), { page: 1, perPage: 10, sortOrder: "ASC" });
  t.same(
    params(
      run("GET /api/v1/user/paged", {
        query: { page: "2", perPage: "50", sortBy: "firstName", sortOrder: "desc" },
      }),
    ),
    { page: 2, perPage: 50, sortBy: "firstName", sortOrder: "DESC" },
  );
  t.same(
    details(run("GET /api/v1/user/paged", { query: { page: "two", perPage: "500", sortOrder: "UP" } })),
    {
      page: "must be an integer",
      perPage: "must be at most 100",
      sortOrder: "must be one of: ASC, DESC, NONE, RAND",
    },
  );

  t.same(
    params(run("GET /api/v1/weather", { query: { token: "t", latitude: "52.52", longitude: "-13.4" } })),
    {
      token: "t",
      latitude: 52.52,
      longitude: -13.4,
    },
  );
  t.same(details(run("GET /api/v1/weather", { query: { latitude: "north" } })), {
    token: "is required",
    latitude: "must be a number",
    longitude: "is required",
  });

  t.same(
    params(
      run("POST /api/v1/user", {
        body: { firstName: "A", lastName: "B", email: "a@b.c", role: "admin", password: "pw" },
      }),
    ),
    { firstName: "A", lastName: "B", email: "a@b.c", role: "admin", password: "pw" },
  );
  t.same(
    details(
      run("POST /api/v1/user", {
        body: { firstName: "A", lastName: "B", email: "a@b.c", role: "root", password: "pw", phone: 5 },
      }),
    ),
    {
      role: "must be one of: admin, user",
      phone: "must be a string",
    },
  );

  t.same(params(run("PATCH /api/v1/user/change-email/commit", { body: { pin: 123456 } })), { pin: 123456 });
  t.same(details(run("PATCH /api/v1/user/change-email/commit", { body: { pin: "123456" } })), {
    pin: "must be a number",
  });

  t.same(
    params(run("PATCH /api/v1/user/me", { body: { phone: null } })),
    { phone: null },
    "phone isNullable",
  );
  t.same(details(run("PATCH /api/v1/user/me", { body: { email: null } })), { email: "must not be null" });

  t.same(params(run("GET /api/v1/user/me")), {});
  t.same(details(run("GET /api/v1/user/me", { query: { id: "1" } })), { id: "unknown parameter" });
  t.same(params(run("POST /api/v1/user/logout")), {}, "a POST without body");
  t.same(details(run("GET /api/v1/user/before")), { date: "is required" });
});

t.test("the example app", async (t) => {
  const schema = load(EXAMPLE);
  const validators = compileAll(schema);
  t.equal(validators.size, routeCount(schema), "every route compiles");
  const run = runner(validators);

  t.same(
    params(run("POST /api/v1/user/login", { body: { email: "x" } })),
    { stub: "LoginRequest" },
    "requestType seam",
  );

  t.same(params(run("GET /api/v1/project/:id", { params: { id: "7" } })), { id: 7 });
  t.same(details(run("GET /api/v1/project/:id", { params: { id: "0" } })), { id: "must be at least 1" });
  t.same(details(run("GET /api/v1/project/:id", { params: { id: "seven" } })), { id: "must be a number" });
  t.same(params(run("DELETE /api/v1/project/:id", { params: { id: "7" } })), { id: 7 });

  t.same(params(run("GET /api/v1/project")), { page: 1, perPage: 10, sortOrder: "ASC" });
  t.same(params(run("GET /api/v1/project", { query: { filter: "(status,eq,active)", perPage: "100" } })), {
    page: 1,
    perPage: 100,
    sortOrder: "ASC",
    filter: "(status,eq,active)",
  });

  t.same(params(run("GET /api/v1/task/by-priority", { query: { priorities: ["high", "urgent"] } })), {
    priorities: ["high", "urgent"],
  });
  t.same(params(run("GET /api/v1/task/by-priority", { query: { "priorities[]": "low" } })), {
    priorities: ["low"],
  });
  t.same(details(run("GET /api/v1/task/by-priority", { query: { priorities: ["a", "b", "c", "d", "e"] } })), {
    priorities: "must have at most 4 items",
  });
  t.same(details(run("GET /api/v1/task/search", { query: { q: "a" } })), {
    q: "must have at least 2 characters",
  });
  t.same(params(run("GET /api/v1/task/search", { query: { q: "'; DROP TABLE task; --" } })), {
    q: "'; DROP TABLE task; --",
  });

  t.same(
    params(
      run("POST /api/v1/project", {
        body: {
          name: "Apollo",
          description: null,
          status: "active",
          budget: 1234.5,
          settings: { color: "blue" },
        },
      }),
    ),
    { name: "Apollo", description: null, status: "active", budget: 1234.5, settings: { color: "blue" } },
  );
  t.same(
    details(run("POST /api/v1/project", { body: { name: "", status: "paused", budget: -1, settings: [] } })),
    {
      name: "must have at least 1 character",
      status: "must be one of: planning, active, on_hold, completed, archived",
      budget: "must be at least 0",
      settings: "must be an object",
    },
  );
  t.same(details(run("POST /api/v1/project", { body: [] })), { unexpectedCode: "BAD_REQUEST" });

  t.same(
    params(run("PATCH /api/v1/task/:id", { params: { id: "3" }, body: { done: true, assigneeId: null } })),
    {
      id: 3,
      done: true,
      assigneeId: null,
    },
  );
  t.same(details(run("PATCH /api/v1/task/:id", { params: { id: "3" }, body: { id: 4, done: "yes" } })), {
    id: "does not match the value in the path",
    done: "must be a boolean",
  });

  t.same(
    params(
      run("PATCH /api/v1/user/:id", {
        params: { id: "9" },
        body: { grantedScopes: ["tasks:write", "billing:read"] },
      }),
    ),
    {
      id: 9,
      grantedScopes: ["tasks:write", "billing:read"],
    },
  );
  t.same(
    details(
      run("PATCH /api/v1/user/:id", { params: { id: "9" }, body: { grantedScopes: ["auth:internal"] } }),
    ),
    { grantedScopes: "item 0 must be one of: billing:read, tasks:write" },
  );
  t.same(
    details(
      run("PATCH /api/v1/user/:id", { params: { id: "9" }, body: { grantedScopes: "a", isActive: 1 } }),
    ),
    {
      grantedScopes: "must be an array of strings",
      isActive: "must be a boolean",
    },
  );

  t.same(
    params(run("POST /api/v1/task/:id/attachments", { params: { id: "3" }, body: { note: "scan" } })),
    {
      id: 3,
      note: "scan",
    },
    "upload route: fields as text",
  );
});
