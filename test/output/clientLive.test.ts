// The generated client against a live gateway (docs/generated-output.md "client.ts"): a small
// program written against example/generated/client.ts is type-checked under strict TypeScript,
// then run as its own process against the example app served on a real port: login, a PAGED read
// with a filter, a query-string array, a write read back, an upload, and typed errors. A wrong
// call must not compile, so the types are shown to bite.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import t from "tap";
import { PNG, uploadSetting } from "../custom/helpers.ts";
import { typeErrors, USER_COMPILER_OPTIONS } from "../harness/compile.ts";
import { JWT_SECRET, testGateway } from "../harness/gateway.ts";
import { REPO } from "../harness/templates.ts";

const run = promisify(execFile);
const CLIENT = path.join(REPO, "example/generated/client.ts");
const { uploadTmpDir } = uploadSetting(t, JWT_SECRET);

const PROGRAM = `
import { ApiError, createClient } from ${JSON.stringify(CLIENT)};

const api = createClient({ baseUrl: process.env.BASE_URL as string });
const out: Record<string, unknown> = {};

// Mark, manager of company 1 (example/seed.sql; every seeded password is password123).
const login = await api.postUserLogin({ body: { username: "mark.manager@acme.test", password: "password123" } });
api.setToken(login.data.token);
out.tokenExp = login.data.tokenExp;

const page = await api.getProject({ query: { filter: "(status,eq,active)", perPage: 10 } });
out.page = { total: page.total, ids: page.data.map((p) => p.id), statuses: page.data.map((p) => p.status) };

const chosen = await api.getTaskByPriority({ query: { priorities: ["low", "high"] } });
out.priorities = [...new Set(chosen.data.map((task) => task.priority))].sort();

const created = await api.postTask({ body: { projectId: 1, title: "Written by the typed client", priority: "high" } });
const back = await api.getTaskById({ path: { id: created.data.id } });
out.task = { id: created.data.id, title: back.data.title, priority: back.data.priority, project: back.data.projectName };

const files = [new File([Buffer.from(process.env.PNG_BASE64 as string, "base64")], "pixel.png", { type: "image/png" })];
const attached = await api.postTaskByIdAttachments({ path: { id: created.data.id }, files });
out.attachments = attached.data.map((a) => a.contentType);

for (const [name, call] of [
  ["notFound", () => api.getProjectById({ path: { id: 999999 } })],
  ["invalid", () => api.postTask({ body: { projectId: 1, title: "x".repeat(500) } })],
  ["forbidden", () => api.getInvoice()],
] as const) {
  try {
    await call();
    out[name] = "answered";
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    out[name] = { status: error.status, code: error.code, message: error.message, details: error.details, requestId: error.requestId };
  }
}
api.setToken(undefined);
try {
  await api.getUserMe();
} catch (error) {
  if (error instanceof ApiError) out.anonymous = { status: error.status, code: error.code };
}
console.log(JSON.stringify(out));
`;

/** A call the types must refuse: a number where a string goes, a required body field missing. */
const WRONG = `
import { createClient } from ${JSON.stringify(CLIENT)};
const api = createClient({ baseUrl: "http://localhost" });
await api.postTask({ body: { projectId: "1", title: "a" } });
await api.postTask({ body: { projectId: 1 } });
await api.getProjectById({});
`;

t.test("a program against the generated client, run against the live gateway", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-program-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const program = path.join(dir, "program.mts");
  const wrong = path.join(dir, "wrong.mts");
  fs.writeFileSync(program, PROGRAM);
  fs.writeFileSync(wrong, WRONG);
  // The program runs under Node: its globals (process, Buffer) come from @types/node.
  const node = { types: ["node"], typeRoots: [path.join(REPO, "node_modules/@types")] };
  const compile = (file: string) => typeErrors([file], { ...USER_COMPILER_OPTIONS, ...node });
  t.same(compile(program), [], "the program type-checks under strict TypeScript");
  const refused = compile(wrong);
  t.ok(
    refused.some((e) => /'string' is not assignable to type 'number'/.test(e)),
    "a string for a number id",
  );
  t.ok(
    refused.some((e) => /'title' is missing/.test(e)),
    "a required body field left out",
  );
  t.ok(
    refused.some((e) => /'path' is missing/.test(e)),
    "a path parameter left out",
  );

  const gw = await testGateway(t, "tpl_example", { uploadTmpDir });
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const address = gw.app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const { stdout } = await run(process.execPath, ["--import", "tsx", program], {
    cwd: REPO,
    env: { ...process.env, BASE_URL: `http://127.0.0.1:${address.port}`, PNG_BASE64: PNG.toString("base64") },
  });
  const out = JSON.parse(stdout.trim().split("\n").at(-1) as string);

  t.match(out.tokenExp, /^\d{4}-\d\d-\d\dT/, "login answered the typed AuthResponse");
  const { rows } = await gw.su.query(
    `SELECT id FROM project WHERE "companyId" = 1 AND status = 'active' ORDER BY id`,
  );
  t.same(
    out.page,
    {
      total: rows.length,
      ids: rows.map((r) => Number(r.id)),
      statuses: rows.map(() => "active"),
    },
    "the PAGED filter reached the database: company 1's active projects, and their total",
  );
  t.ok(rows.length > 0, "the filter matches something");
  const priorities = await gw.su.query(
    `SELECT DISTINCT priority::text FROM task
      WHERE "companyId" = 1 AND priority IN ('low', 'high') AND NOT done ORDER BY 1`,
  );
  t.ok(priorities.rows.length === 2, "company 1 has open tasks of both priorities");
  t.same(
    out.priorities,
    priorities.rows.map((r) => r.priority),
    "an array in the query string, as repeated keys",
  );

  const task = await gw.su.query(`SELECT title, priority, "createdById" FROM task WHERE id = $1`, [
    out.task.id,
  ]);
  t.same(
    task.rows,
    [{ title: "Written by the typed client", priority: "high", createdById: 2 }],
    "the write landed, as Mark",
  );
  t.same(
    { title: out.task.title, priority: out.task.priority, project: out.task.project },
    { title: "Written by the typed client", priority: "high", project: "Warehouse Robot v2" },
    "and reads back",
  );
  t.same(out.attachments, ["image/png"], "an upload, as multipart/form-data");

  t.match(
    out.notFound,
    { status: 404, code: "NOT_FOUND", requestId: /\S/ },
    "404: a typed ApiError with the request id",
  );
  t.match(
    out.invalid,
    { status: 422, code: "VALIDATION_ERROR", details: { title: /at most/ } },
    "422 with details",
  );
  t.match(out.forbidden, { status: 403, code: "FORBIDDEN" }, "403: invoices need billing:read");
  t.same(out.anonymous, { status: 401, code: "UNAUTHORIZED" }, "no token after setToken(undefined)");
});
