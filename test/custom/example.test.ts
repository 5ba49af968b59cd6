// The example app's custom routes over HTTP (docs/handlers.md, issue 5): the full login -> protected
// route -> refresh flow, both request forms validated (a requestType body and declared
// parameters), uploads (SINGLE and MULTIPLE: good, too large, too many, wrong field, content
// checked by its bytes), and the caller's database handle honouring row policies.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { JWT_SECRET, type TestGateway, testGateway } from "../harness/gateway.ts";
import { multipart, PNG, uploadSetting } from "./helpers.ts";

const { uploadDir, uploadTmpDir } = uploadSetting(t, JWT_SECRET);

const MIA = { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 };
const MARK = { role: "manager", scopes: ["tasks:write"], userId: 2, companyId: 1 };
const GUS = { role: "manager", scopes: ["billing:read", "tasks:write"], userId: 5, companyId: 2 };

async function post(gw: TestGateway, url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await gw.request({ method: "POST", url, payload: payload as Record<string, unknown>, headers });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

function tmpFiles(): string[] {
  return fs.readdirSync(uploadTmpDir);
}

t.test("login -> protected route -> refresh -> protected route", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const login = await post(gw, "/api/v1/user/login", {
    username: "mia.member@acme.test",
    password: "password123",
  });
  t.equal(login.status, 200, JSON.stringify(login.body));
  const auth = login.body.data;
  t.same(Object.keys(auth).sort(), ["refreshToken", "refreshTokenExp", "token", "tokenExp"]);
  t.ok(Date.parse(auth.tokenExp) > Date.now(), "tokenExp is a future ISO date");
  t.ok(Date.parse(auth.refreshTokenExp) > Date.parse(auth.tokenExp));
  const lastLogin = await gw.su.query(`SELECT "lastLoginOn" FROM "user" WHERE id = 3`);
  t.ok(lastLogin.rows[0].lastLoginOn, "lastLoginOn set");

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const me = await gw.request({ method: "GET", url: "/api/v1/user/me", headers: bearer(auth.token) });
  t.equal(me.statusCode, 200);
  t.equal(JSON.parse(me.body).data.email, "mia.member@acme.test");

  const session = await gw.request({
    method: "GET",
    url: "/api/v1/user/me/session",
    headers: bearer(auth.token),
  });
  t.equal(session.statusCode, 200);
  t.same(JSON.parse(session.body).data, {
    userId: 3,
    companyId: 1,
    role: "member",
    scopes: ["tasks:write"],
    tokenExp: auth.tokenExp,
  });

  // The refresh token is not an access token, and the access token does not refresh.
  const misuse = await gw.request({
    method: "GET",
    url: "/api/v1/user/me",
    headers: bearer(auth.refreshToken),
  });
  t.equal(misuse.statusCode, 401);
  const wrongKind = await post(gw, "/api/v1/user/refresh-token", { refreshToken: auth.token });
  t.equal(wrongKind.status, 401);
  t.equal(wrongKind.body.error.message, "Invalid or expired refresh token");

  const refreshed = await post(gw, "/api/v1/user/refresh-token", { refreshToken: auth.refreshToken });
  t.equal(refreshed.status, 200);
  const again = await gw.request({
    method: "GET",
    url: "/api/v1/user/me",
    headers: bearer(refreshed.body.data.token),
  });
  t.equal(again.statusCode, 200);

  // A deactivated user's refresh token no longer works.
  await gw.su.query(`UPDATE "user" SET "isActive" = false WHERE id = 3`);
  const inactive = await post(gw, "/api/v1/user/refresh-token", { refreshToken: auth.refreshToken });
  t.equal(inactive.status, 403);
});

t.test("login failures: wrong password, unknown email, inactive user", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const wrong = await post(gw, "/api/v1/user/login", { username: "mia.member@acme.test", password: "nope" });
  t.same(wrong, {
    status: 401,
    body: { error: { code: "UNAUTHORIZED", message: "Invalid email or password" } },
  });
  const unknown = await post(gw, "/api/v1/user/login", {
    username: "nobody@acme.test",
    password: "password123",
  });
  t.same(unknown, wrong, "an unknown email looks the same as a wrong password");
  const inactive = await post(gw, "/api/v1/user/login", {
    username: "oscar.former@acme.test",
    password: "password123",
  });
  t.equal(inactive.status, 403);
});

t.test("requestType: the whole body validated against the custom type", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const missing = await post(gw, "/api/v1/user/login", { username: "mia.member@acme.test" });
  t.same(missing.body, {
    error: {
      code: "VALIDATION_ERROR",
      message: "Request validation failed",
      details: { password: "is required" },
    },
  });
  const extra = await post(gw, "/api/v1/user/login", { username: "a@b.c", password: "x", admin: true });
  t.same(extra.body.error.details, { admin: "unknown parameter" });
  const typed = await post(gw, "/api/v1/user/login", { username: 42, password: "x" });
  t.same(typed.body.error.details, { username: "must be a string" });
  const notObject = await post(gw, "/api/v1/user/login", [1, 2]);
  t.equal(notObject.status, 422);

  const report = (body: unknown, as = MARK) =>
    gw.request({
      method: "POST",
      url: "/api/v1/report/summary",
      payload: body as Record<string, unknown>,
      as,
    });
  const bad = await report({ from: "2020-01-01", to: "2030-12-31", groupBy: "month", projectIds: [1, "x"] });
  t.equal(bad.statusCode, 422);
  t.same(JSON.parse(bad.body).error.details, {
    groupBy: "must be one of: project, assignee",
    "projectIds[1]": "must be a number",
  });
  const member = await report({ from: "2020-01-01", to: "2030-12-31", groupBy: "project" }, MIA);
  t.equal(member.statusCode, 403, "route roles hold for custom routes");
  const anonymous = await gw.request({ method: "POST", url: "/api/v1/report/summary", payload: {} });
  t.equal(anonymous.statusCode, 401, "the route check runs before validation");
});

t.test("declared parameters on a custom route (refresh-token)", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const short = await post(gw, "/api/v1/user/refresh-token", { refreshToken: "short" });
  t.equal(short.status, 422);
  t.match(short.body.error.details, { refreshToken: /at least 20/ });
  const unknown = await post(gw, "/api/v1/user/refresh-token", { refreshToken: "x".repeat(30), other: 1 });
  t.same(unknown.body.error.details, { other: "unknown parameter" });
  const junk = await post(gw, "/api/v1/user/refresh-token", { refreshToken: "x".repeat(30) });
  t.equal(junk.status, 401);
});

t.test("report summary reads through req.db as the caller: row policies hold", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  const all = { from: "1900-01-01", to: "2999-12-31", groupBy: "project" };
  const acme = await gw.request({ method: "POST", url: "/api/v1/report/summary", payload: all, as: MARK });
  t.equal(acme.statusCode, 200, acme.body);
  const acmeRows = JSON.parse(acme.body).data.rows as { key: number; taskCount: number }[];
  const expected = await gw.su.query(
    `SELECT "projectId"::int AS key, count(*)::int AS n FROM task WHERE "companyId" = 1 AND "dueDate" IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  t.same(
    acmeRows.map((r) => [r.key, r.taskCount]),
    expected.rows.map((r) => [r.key, r.n]),
  );
  // Asking for another company's projects by id finds nothing.
  const probe = await gw.request({
    method: "POST",
    url: "/api/v1/report/summary",
    payload: { ...all, projectIds: [4, 5] },
    as: MARK,
  });
  t.same(JSON.parse(probe.body).data.rows, []);
  const globex = await gw.request({ method: "POST", url: "/api/v1/report/summary", payload: all, as: GUS });
  const keys = (JSON.parse(globex.body).data.rows as { key: number }[]).map((r) => r.key);
  t.ok(
    keys.length > 0 && keys.every((k) => k === 4 || k === 5),
    `Globex sees its own projects only: ${keys}`,
  );

  const byAssignee = await gw.request({
    method: "POST",
    url: "/api/v1/report/summary",
    payload: { ...all, groupBy: "assignee", includeDone: false },
    as: MARK,
  });
  const rows = JSON.parse(byAssignee.body).data.rows as {
    key: number | null;
    label: string;
    doneCount: number;
  }[];
  t.ok(rows.some((r) => r.key === null && r.label === "Unassigned"));
  t.ok(rows.every((r) => r.doneCount === 0));
  const badDates = await gw.request({
    method: "POST",
    url: "/api/v1/report/summary",
    payload: { from: "2024-02-10", to: "2024-01-01", groupBy: "project" },
    as: MARK,
  });
  t.same(JSON.parse(badDates.body).error.details, { to: "must not be before from" });
});

t.test("SINGLE upload: the avatar", async (t) => {
  const gw = await testGateway(t, "tpl_example", { uploadMaxBytes: 1000, uploadTmpDir });
  const before = tmpFiles();
  const good = multipart([{ name: "file", filename: "me.png", contentType: "image/png", data: PNG }]);
  const res = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...good, as: MIA });
  t.equal(res.statusCode, 200, res.body);
  t.same(JSON.parse(res.body), { data: true });
  const url = (await gw.su.query(`SELECT "avatarUrl" FROM "user" WHERE id = 3`)).rows[0].avatarUrl as string;
  t.match(url, /^\/uploads\/avatars\/3-[0-9a-f]{16}\.png$/);
  t.same(fs.readFileSync(path.join(uploadDir, url.replace("/uploads/", ""))), PNG, "stored as sent");
  t.same(tmpFiles(), before, "the temporary files are removed after the request");

  const big = multipart([
    { name: "file", filename: "big.png", contentType: "image/png", data: Buffer.alloc(1001) },
  ]);
  const tooLarge = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...big, as: MIA });
  t.equal(tooLarge.statusCode, 413);
  t.same(JSON.parse(tooLarge.body).error, {
    code: "PAYLOAD_TOO_LARGE",
    message: "A file is larger than the limit of 1000 bytes",
  });

  const two = multipart([
    { name: "file", filename: "a.png", contentType: "image/png", data: PNG },
    { name: "file", filename: "b.png", contentType: "image/png", data: PNG },
  ]);
  const tooMany = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...two, as: MIA });
  t.equal(tooMany.statusCode, 413);
  t.match(JSON.parse(tooMany.body).error.message, /Too many files: at most 1/);

  const wrongField = multipart([{ name: "files", filename: "a.png", contentType: "image/png", data: PNG }]);
  const wrong = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...wrongField, as: MIA });
  t.equal(wrong.statusCode, 400);
  t.same(JSON.parse(wrong.body).error.details, { files: 'unexpected file field (expected "file")' });

  const none = multipart([{ name: "note", data: "no file" }]);
  const noFile = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...none, as: MIA });
  t.equal(noFile.statusCode, 422);
  t.same(JSON.parse(noFile.body).error.details, { file: "is required" });

  const json = await gw.request({
    method: "POST",
    url: "/api/v1/user/me/avatar",
    payload: { file: "x" },
    as: MIA,
  });
  t.equal(json.statusCode, 400, "not multipart");

  const text = multipart([{ name: "file", filename: "a.txt", contentType: "text/plain", data: "hi" }]);
  const notImage = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...text, as: MIA });
  t.equal(notImage.statusCode, 422, "the handler's own check");

  const anonymous = await gw.request({ method: "POST", url: "/api/v1/user/me/avatar", ...good });
  t.equal(anonymous.statusCode, 401);
  t.same(tmpFiles(), before, "no temporary file is left behind by refused uploads");
});

t.test("MULTIPLE upload: task attachments, with a form field and row policies", async (t) => {
  const gw = await testGateway(t, "tpl_example", { uploadMaxFiles: 3, uploadTmpDir });
  const files = (n: number, extra: { name: string; data: string }[] = []) =>
    multipart([
      ...Array.from({ length: n }, (_, i) => ({
        name: "files",
        filename: `notes ${i}.txt`,
        contentType: "text/plain",
        data: `file ${i}`,
      })),
      ...extra,
    ]);
  const good = await gw.request({
    method: "POST",
    url: "/api/v1/task/1/attachments",
    ...files(2, [{ name: "note", data: "minutes" }]),
    as: MIA,
  });
  t.equal(good.statusCode, 200, good.body);
  const data = JSON.parse(good.body).data as { fileName: string; sizeBytes: number; url: string }[];
  t.same(
    data.map((d) => [d.fileName, d.sizeBytes]),
    [
      ["notes 0.txt", 6],
      ["notes 1.txt", 6],
    ],
  );
  t.match(data[0]?.url, /^\/uploads\/tasks\/1\/[0-9a-f]{12}-notes_0\.txt$/);

  const tooMany = await gw.request({
    method: "POST",
    url: "/api/v1/task/1/attachments",
    ...files(4),
    as: MIA,
  });
  t.equal(tooMany.statusCode, 413);
  t.match(JSON.parse(tooMany.body).error.message, /at most 3/);

  const wrongField = multipart([{ name: "file", filename: "a.txt", data: "x" }]);
  const wrong = await gw.request({
    method: "POST",
    url: "/api/v1/task/1/attachments",
    ...wrongField,
    as: MIA,
  });
  t.equal(wrong.statusCode, 400);

  const longNote = await gw.request({
    method: "POST",
    url: "/api/v1/task/1/attachments",
    ...files(1, [{ name: "note", data: "x".repeat(501) }]),
    as: MIA,
  });
  t.equal(longNote.statusCode, 422, "form fields are validated as the route's parameters");
  t.match(JSON.parse(longNote.body).error.details, { note: /at most 500/ });
  const badId = await gw.request({
    method: "POST",
    url: "/api/v1/task/abc/attachments",
    ...files(1),
    as: MIA,
  });
  t.equal(badId.statusCode, 422);

  // Task 9 is Globex's: through req.db (row policies) Mia cannot see it.
  const other = await gw.request({ method: "POST", url: "/api/v1/task/9/attachments", ...files(1), as: MIA });
  t.equal(other.statusCode, 404);
  t.same(JSON.parse(other.body).error, { code: "NOT_FOUND", message: "Task not found" });
  t.notOk(fs.existsSync(path.join(uploadDir, "tasks/9")), "nothing stored");

  const noScope = await gw.request({
    method: "POST",
    url: "/api/v1/task/1/attachments",
    ...files(1),
    as: { ...MIA, scopes: [] },
  });
  t.equal(noScope.statusCode, 403);
});

t.test("uploads are recognised by their bytes, not by the declared content type", async (t) => {
  const gw = await testGateway(t, "tpl_example", { uploadTmpDir });
  const GIF = Buffer.concat([Buffer.from("GIF89a", "latin1"), Buffer.alloc(32, 2)]);
  const PDF = Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "latin1");
  const HTML = "<html><script>alert(document.cookie)</script></html>";
  const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]);
  const avatarOf = async () =>
    (await gw.su.query(`SELECT "avatarUrl" FROM "user" WHERE id = 3`)).rows[0].avatarUrl as string | null;
  const avatars = () => {
    const dir = path.join(uploadDir, "avatars");
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  };

  const avatar = (filename: string, contentType: string, data: string | Buffer) =>
    gw.request({
      method: "POST",
      url: "/api/v1/user/me/avatar",
      ...multipart([{ name: "file", filename, contentType, data }]),
      as: MIA,
    });
  const beforeUrl = await avatarOf();
  const beforeFiles = avatars();
  const refused = [
    // An HTML page declared as a PNG: what the declared-type check let through.
    [
      avatar("me.png", "image/png", HTML),
      "must be one of: image/png, image/jpeg, image/gif, image/webp (checked by content)",
    ],
    [
      avatar("me.png", "image/png", ELF),
      "must be one of: image/png, image/jpeg, image/gif, image/webp (checked by content)",
    ],
    // A real image, but not the one declared.
    [avatar("me.png", "image/png", GIF), "its content is image/gif, which is not the declared content type"],
    [
      avatar("me.gif", "application/octet-stream", GIF),
      "its content is image/gif, which is not the declared content type",
    ],
  ] as const;
  for (const [pending, message] of refused) {
    const res = await pending;
    t.equal(res.statusCode, 422, res.body);
    t.same(JSON.parse(res.body).error, {
      code: "VALIDATION_ERROR",
      message: "Request validation failed",
      details: { file: message },
    });
  }
  t.equal(await avatarOf(), beforeUrl, "avatarUrl unchanged");
  t.same(avatars(), beforeFiles, "nothing stored");

  const gif = await avatar("me.png", "image/gif", GIF);
  t.equal(gif.statusCode, 200, gif.body);
  t.match(
    await avatarOf(),
    /^\/uploads\/avatars\/3-[0-9a-f]{16}\.gif$/,
    "stored under the extension of its content",
  );
  const jpg = await avatar("me.jpg", "image/jpg; name=x", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
  t.equal(jpg.statusCode, 200, "image/jpg and parameters are read as image/jpeg");

  const attach = (parts: { filename: string; contentType: string; data: string | Buffer }[]) =>
    gw.request({
      method: "POST",
      url: "/api/v1/task/1/attachments",
      ...multipart(parts.map((p) => ({ name: "files", ...p }))),
      as: MIA,
    });
  const taskDir = path.join(uploadDir, "tasks/1");
  const stored = () => (fs.existsSync(taskDir) ? fs.readdirSync(taskDir).sort() : []);
  const beforeAttachments = stored();
  const mixed = await attach([
    { filename: "notes.txt", contentType: "text/plain", data: "fine" },
    { filename: "photo.png", contentType: "image/png", data: HTML },
    { filename: "tool.txt", contentType: "text/plain", data: ELF },
  ]);
  t.equal(mixed.statusCode, 422);
  t.same(JSON.parse(mixed.body).error.details, {
    "files[1]": "its content is text/plain, which is not the declared content type",
    "files[2]":
      "must be one of: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain (checked by content)",
  });
  const mislabelled = await attach([{ filename: "doc.txt", contentType: "text/plain", data: PDF }]);
  t.same(JSON.parse(mislabelled.body).error.details, {
    "files[0]": "its content is application/pdf, which is not the declared content type",
  });
  t.same(stored(), beforeAttachments, "a refused upload stores none of its files");

  const good = await attach([
    { filename: "spec.pdf", contentType: "application/pdf", data: PDF },
    { filename: "page.html", contentType: "text/plain; charset=utf-8", data: HTML },
    { filename: "logo.gif", contentType: "image/gif", data: GIF },
  ]);
  t.equal(good.statusCode, 200, good.body);
  const data = JSON.parse(good.body).data as { fileName: string; contentType: string; url: string }[];
  t.same(
    data.map((d) => [d.fileName, d.contentType]),
    [
      ["spec.pdf", "application/pdf"],
      ["page.html", "text/plain"],
      ["logo.gif", "image/gif"],
    ],
  );
  t.match(data[0]?.url, /^\/uploads\/tasks\/1\/[0-9a-f]{12}-spec\.pdf$/);
  t.match(
    data[1]?.url,
    /^\/uploads\/tasks\/1\/[0-9a-f]{12}-page\.txt$/,
    "text is stored as .txt whatever its name",
  );
  t.match(data[2]?.url, /^\/uploads\/tasks\/1\/[0-9a-f]{12}-logo\.gif$/);
});
