// The model stage (generator/model): facts resolved once from the validated schema, on the
// example app and the Restura fixture. Every later stage reads these, so each rule here is the
// one place it is decided.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { REPO } from "../harness/templates.ts";

const raw = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
const load = (input: unknown): Schema => {
  const result = loadSchema(input);
  if (!result.schema) throw new Error(JSON.stringify(result.errors));
  return result.schema;
};
const exampleFile = path.join(REPO, "example/api.schema.json");
const example = load(raw(exampleFile));
const restura = load(raw(RESTURA_FIXTURE));
const names = (list: readonly { name: string }[] | undefined) => list?.map((c) => c.name);

t.test("built once per schema and shared", async (t) => {
  t.equal(buildModel(example), buildModel(example));
  t.not(buildModel(example), buildModel(load(raw(exampleFile))), "another schema object, another model");
});

t.test("tables: key, readable and notify columns, what policies read", async (t) => {
  const m = buildModel(example);
  t.same(names(m.notifyTables), ["project", "task", "comment"], "the tables with notify, in schema order");
  const task = m.table("task");
  t.same(names(task.primaryKey), ["id"]);
  t.same(names(m.table("task_tag").primaryKey), ["taskId", "tagId"], "a composite key, in key order");
  t.same(names(m.table("comment").notify), ["id", "taskId", "authorId", "body"], "a notify list");
  t.equal(task.notify?.length, task.readable.length, 'notify "ALL": every readable column');
  t.same(task.policyGlobals, ["companyId"], "the globals the task policies mention");
  t.same(names(task.policyColumns as []), ["companyId"]);
  t.equal(m.table("comment").policyColumns, "all", "a raw SQL policy may read any column");
  t.same(m.table("invoice").access, { roles: [], scopes: ["billing:read"] }, "the table rule");
  t.equal(task.access, undefined, "no rule: undefined");
  t.throws(() => m.table("nope"), /does not exist/);
});

t.test("private columns are never readable nor carried by events, even with notify ALL", async (t) => {
  const input = raw(exampleFile) as { database: { name: string; notify?: unknown }[] };
  const user = input.database.find((x) => x.name === "user") as { notify?: unknown };
  user.notify = "ALL";
  const m = buildModel(load(input));
  const table = m.table("user");
  t.ok(table.column("passwordHash")?.private, "passwordHash is private");
  t.notOk(names(table.readable)?.includes("passwordHash"), "not readable");
  t.notOk(names(table.notify)?.includes("passwordHash"), "not in the events");
  t.equal(table.notify?.length, table.columns.length - 1, "every other column is");
});

t.test("routes: full path, where parameters come from, rules and globals", async (t) => {
  const m = buildModel(example);
  const route = (key: string) => {
    const found = m.routes.find((r) => r.key === key);
    if (!found) throw new Error(`no route ${key}`);
    return found;
  };
  const me = route("GET /api/v1/user/me");
  t.same(me.globals, ["userId"], "reads #userId: needs a caller");
  t.equal(me.paramsIn, "query");
  t.equal(me.table?.name, "user");
  t.same(route("POST /api/v1/task").globals, ["companyId", "userId"], "assignments' globals");
  t.same(route("POST /api/v1/task").access, {
    roles: ["admin", "manager", "member"],
    scopes: ["tasks:write"],
  });
  t.equal(route("POST /api/v1/task").paramsIn, "body");
  t.same(route("DELETE /api/v1/comment/:id").pathParams, ["id"]);
  t.equal(route("DELETE /api/v1/comment/:id").paramsIn, "query", "DELETE reads the query string");
  t.same(route("GET /api/v1/task/by-priority").mentionedParams, ["priorities"]);
  t.equal(route("GET /api/v1/company/public/:id").access, undefined, "anyone may call it");
  const login = route("POST /api/v1/user/login");
  t.equal(login.kind, "CUSTOM_ONE");
  t.equal(login.table, undefined, "custom routes have no base table");
  t.same(login.globals, [], "nor globals the model could see");
  t.equal(m.routeOf(me.route), me, "looked up by the schema's route object");
  t.throws(() => m.routeOf({ ...me.route }), /not a route of this schema/);
});

t.test("the Restura fixture resolves unchanged", async (t) => {
  const m = buildModel(restura);
  t.equal(m.tables.length, 4);
  t.equal(m.routes.length, 27);
  t.same(names(m.notifyTables), ["order", "company", "user"]);
  t.same(
    m.routes.filter((r) => r.globals.includes("userId")).map((r) => r.key),
    ["GET /api/v1/user/me", "PATCH /api/v1/user/me", "GET /api/v1/user/my-user"],
  );
  t.same(
    m.routes.filter((r) => r.kind === "PAGED").map((r) => r.key),
    ["GET /api/v1/user/paged"],
  );
});
