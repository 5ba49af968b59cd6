// docs/query-language.md, run: every `curl` line of the page is run by bash with curl against a
// real gateway on a socket (the example app, seeded), with API, TOKEN (Mia, member of company 1)
// and MANAGER (Mark, its manager) set as the page says, and its answer is compared with the
// `# =>` line under it. A curl line without one fails the test, so no example goes unchecked.
//
// Expectations: `200, ids [1, 2], total 3` (data's ids in order; `ids in any order [...]`),
// `400 BAD_REQUEST: <message>`, `422 VALIDATION_ERROR: <details as JSON>`.

import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import t from "tap";
import { testGateway, token } from "../harness/gateway.ts";
import { REPO, USERS } from "./helpers.ts";

const run = promisify(execFile);
const DOC = fs.readFileSync(path.join(REPO, "docs/query-language.md"), "utf8");

interface Example {
  line: number;
  command: string;
  expect: string;
}

/** The page's curl lines and the `# =>` line after each. */
function examples(): Example[] {
  const lines = DOC.split("\n");
  const out: Example[] = [];
  lines.forEach((text, i) => {
    if (!text.startsWith("curl ")) return;
    const next = lines[i + 1] ?? "";
    if (!next.startsWith("# => "))
      throw new Error(`docs/query-language.md:${i + 1}: a curl line without "# =>"`);
    out.push({ line: i + 1, command: text, expect: next.slice("# => ".length) });
  });
  return out;
}

t.test("docs/query-language.md: every example answers as documented", async (t) => {
  const list = examples();
  t.ok(list.length >= 40, `${list.length} examples`);
  const gw = await testGateway(t, "tpl_example");
  const address = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    API: `${address}/api/v1`,
    TOKEN: token({ ...USERS.member1, scopes: ["tasks:write"] }),
    MANAGER: token({ ...USERS.manager1, scopes: ["tasks:write"] }),
  };
  for (const example of list) {
    t.test(`line ${example.line}: ${example.command.slice(8, 110)}`, async (t) => {
      // The status on a last line of its own; the command is run as written otherwise. --norc:
      // bash reads ~/.bashrc when its stdin is a socket (Node's pipes are), as if started by a
      // remote shell, and a machine's .bashrc can take half a second (pyenv init): 56 examples
      // then outlasted the file's timeout on a loaded CI machine.
      const { stdout } = await run("bash", ["--norc", "-c", `${example.command} -w '\\n%{http_code}'`], {
        env,
      });
      const cut = stdout.lastIndexOf("\n");
      const status = Number(stdout.slice(cut + 1));
      const body = JSON.parse(stdout.slice(0, cut)) as {
        data?: { id: number }[];
        total?: number;
        error?: { code: string; message: string; details?: Record<string, string> };
      };
      const ok = /^200, ids (in any order )?\[([\d, ]*)\](?:, total (\d+))?$/.exec(example.expect);
      if (ok) {
        t.equal(status, 200, "200");
        const expected = ok[2] === "" ? [] : (ok[2] as string).split(", ").map(Number);
        const ids = (body.data ?? []).map((r) => r.id);
        t.same(ok[1] ? [...ids].sort((a, b) => a - b) : ids, expected, "ids");
        if (ok[3] !== undefined) t.equal(body.total, Number(ok[3]), "total");
        return;
      }
      const failed = /^(\d{3}) ([A-Z_]+): (.*)$/.exec(example.expect);
      if (!failed)
        throw new Error(`line ${example.line + 1}: cannot read the expectation "${example.expect}"`);
      const [, code, name, rest] = failed as unknown as [string, string, string, string];
      t.equal(status, Number(code), code);
      if (name === "VALIDATION_ERROR") {
        t.same(body.error?.details, JSON.parse(rest), "details");
        t.equal(body.error?.code, name);
      } else {
        t.same(body, { error: { code: name, message: rest } }, "envelope");
      }
    });
  }
});

t.test("the examples of the page's prose", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const as = { ...USERS.member1, scopes: ["tasks:write"] };
  const get = async (url: string) => {
    const res = await gw.request({ method: "GET", url, as });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const ids = async (filter: string) => {
    const res = await get(`/api/v1/project?filter=${encodeURIComponent(filter)}`);
    t.equal(res.status, 200, filter);
    return (res.body.data as { id: number }[]).map((r) => r.id);
  };
  t.same(await get("/api/v1/tag?filter=(name,eq,x)"), {
    status: 422,
    body: {
      error: {
        code: "VALIDATION_ERROR",
        message: "Request validation failed",
        details: { filter: "unknown parameter" },
      },
    },
  });
  const twice = await get("/api/v1/project?page=1&page=2");
  t.same([twice.status, twice.body.error.details], [422, { page: "must be a single value" }], "sent twice");
  t.same(await ids("(dueDate,ne,2024-06-30)"), [1], "ne leaves NULLs out");
  t.same(await ids("(dueDate,ne,2024-06-30)or(dueDate,null)"), [1, 2]);
  t.same(await ids("(name, eq, Website Redesign )"), [2], "bare values lose surrounding blanks");
  t.same(await ids("(name,eq,' Website Redesign')"), [], "quoted values keep them");
  t.same(await ids("(id,sw,1)"), [1], "has/sw/ew on a non-text column: its text");
  t.same(await ids("(name,)"), [], "an empty value");
  t.same(await ids("(status,eq,active)OR(status,eq,planning)"), [1, 2], "keywords in any case");
  t.same(await ids("!!(status,eq,active)"), [1]);
  t.same(await ids("(name,eq,a+b)"), [], "a plus");
  const plus = await get("/api/v1/project?filter=(name,eq,Website+Redesign)");
  t.same(
    plus.body.data.map((r: { id: number }) => r.id),
    [2],
    "a bare + in the query string decodes to a space",
  );
  const before = gw.statements();
  for (const url of ["/api/v1/project?filter=(budget,gt,1)", "/api/v1/project?sortBy=nope&sortOrder=RAND"]) {
    t.equal((await get(url)).status, 400, url);
  }
  t.equal(gw.statements(), before, "column errors are the gateway's: no statement reaches the database");
  t.same(
    (await get("/api/v1/project?sortBy=nmae&sortOrder=NONE")).body.error.message,
    'invalid sortBy: column "nmae" cannot be sorted: unknown column (did you mean "name"?)',
    "sortBy is checked whatever the sortOrder",
  );
  const emptySort = await get("/api/v1/project?sortBy=&sortOrder=DESC");
  t.same(
    emptySort.body.data.map((r: { id: number }) => r.id),
    [3, 2, 1],
    "an empty sortBy is none",
  );
  const syntax = async (filter: string) =>
    (await get(`/api/v1/project?filter=${encodeURIComponent(filter)}`)).body;
  const message = (text: string) => ({ error: { code: "BAD_REQUEST", message: `invalid filter: ${text}` } });
  t.same(await syntax(" "), message("empty filter at position 0"));
  t.same(await syntax("status=active"), message('unexpected "status" at position 0 (expected "(" or "!")'));
  t.same(await syntax("(a,1))"), message('unbalanced parenthesis: unexpected ")" at position 5'));
  t.same(
    await syntax('(status,"eq",active)'),
    message(
      "expected an operator at position 8 (one of eq, ne, gt, gte, lt, lte, has, sw, ew, in, null, notnull)",
    ),
  );
  t.same(
    await syntax("(name,eq,a\\"),
    message('unexpected end of filter at position 11 (expected a character after "\\")'),
  );
});
