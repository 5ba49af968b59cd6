// The generated client (generator/output/client.ts, written to <app>/generated/client.ts): the
// example app's committed file is current, the Restura fixture's matches its golden file, and both
// compile under strict TypeScript with their types. UPDATE_GOLDEN=1 rewrites. What the client
// sends and answers, against a live gateway: clientLive.test.ts.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { clientSource, typesSource } from "../../generator/output/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { typeErrors } from "../harness/compile.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { REPO } from "../harness/templates.ts";

const update = process.env.UPDATE_GOLDEN === "1" && !process.env.CI;
const load = (file: string): Schema => {
  const result = loadSchema(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!result.schema) throw new Error(JSON.stringify(result.errors));
  return result.schema;
};

const cases = [
  {
    name: "example",
    schema: load(path.join(REPO, "example/api.schema.json")),
    file: path.join(REPO, "example/generated/client.ts"),
  },
  {
    name: "restura",
    schema: load(RESTURA_FIXTURE),
    file: path.join(REPO, "test/golden/output/restura-example/client.ts"),
  },
];

for (const c of cases) {
  t.test(`${c.name}: the file is what the schema generates`, async (t) => {
    const text = clientSource(buildModel(c.schema));
    if (update) fs.writeFileSync(c.file, text);
    t.equal(
      fs.readFileSync(c.file, "utf8"),
      text,
      `${path.relative(REPO, c.file)} is current (make check rewrites it)`,
    );
    t.equal(clientSource(buildModel(c.schema)), text, "deterministic");
  });

  t.test(`${c.name}: compiles under strict TypeScript with its types, with browser globals`, async (t) => {
    const model = buildModel(c.schema);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-compile-"));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "types.ts"), typesSource(model));
    fs.writeFileSync(path.join(dir, "client.ts"), clientSource(model));
    t.same(typeErrors([path.join(dir, "client.ts")]), [], "no type errors");
  });
}

t.test("one method per route, named as its types", async (t) => {
  const text = fs.readFileSync(cases[0]?.file as string, "utf8");
  const model = buildModel(cases[0]?.schema as Schema);
  for (const route of model.routes) {
    t.ok(text.includes(`send(${JSON.stringify(route.method)}, ${JSON.stringify(route.path)}`), route.key);
  }
  t.match(
    text,
    /getProject: \(input\?: Input<T\.GetProjectRequest>/,
    "nothing required: the input is optional",
  );
  t.match(text, /getProjectById: \(input: Input<T\.GetProjectByIdRequest>/, "a path parameter: required");
  t.match(text, /postTask: \(input: Input<T\.PostTaskRequest>/, "a required body field: required");
  t.match(
    text,
    /postTaskByIdAttachments: \(input: UploadInput<T\.PostTaskByIdAttachmentsRequest, \{ files: Blob\[\] \}>/,
    "a MULTIPLE upload takes files",
  );
  t.match(text, /postUserMeAvatar: \(input: UploadInput<T\.PostUserMeAvatarRequest, \{ file: Blob \}>/);
  t.match(text, /export type ErrorCode = "BAD_REQUEST" \| "UNAUTHORIZED"/, "the registry's codes");
});
