// Uploads over a real socket (not inject: the transport matters here): a multipart body streamed by
// Node's own fetch with FormData, a file larger than the limit cut off with 413, and the
// temporary files gone afterwards.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { JWT_SECRET, testGateway, token } from "../harness/gateway.ts";
import { PNG, uploadSetting } from "./helpers.ts";

const { uploadDir, uploadTmpDir } = uploadSetting(t, JWT_SECRET);

const MIA = { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 };

t.test("an avatar upload over HTTP on a real socket", async (t) => {
  const gw = await testGateway(t, "tpl_example", { uploadMaxBytes: 64 * 1024, uploadTmpDir });
  const address = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const upload = (data: Buffer) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(data)], { type: "image/png" }), "me.png");
    return fetch(`${address}/api/v1/user/me/avatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${token(MIA)}` },
      body: form,
    });
  };

  const ok = await upload(PNG);
  t.equal(ok.status, 200);
  t.same(await ok.json(), { data: true });
  const url = (await gw.su.query(`SELECT "avatarUrl" FROM "user" WHERE id = 3`)).rows[0].avatarUrl as string;
  t.same(fs.readFileSync(path.join(uploadDir, url.replace("/uploads/", ""))), PNG, "stored byte for byte");

  const big = Buffer.concat([PNG, Buffer.alloc(256 * 1024)]);
  const tooLarge = await upload(big);
  t.equal(tooLarge.status, 413);
  t.equal(((await tooLarge.json()) as { error: { code: string } }).error.code, "PAYLOAD_TOO_LARGE");
  t.same(fs.readdirSync(uploadTmpDir), [], "no temporary file is left behind");
});
