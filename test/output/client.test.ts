// The generated client (generator/output/client.ts, written to <app>/generated/client.ts): the
// example app's committed file is current, the Restura fixture's matches its golden file, and both
// compile under strict TypeScript with their types. UPDATE_GOLDEN=1 rewrites. What the client
// sends and answers, against a live gateway: clientLive.test.ts.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { clientSource, typesSource } from "../../generator/output/index.ts";
import { typeErrors } from "../harness/compile.ts";
import { GENERATED_CASES, type GeneratedCase, matchesGenerated } from "../harness/generated.ts";

for (const c of GENERATED_CASES) {
  t.test(`${c.name}: the file is what the schema generates`, async (t) => {
    matchesGenerated(t, c, "client.ts", clientSource);
  });

  t.test(`${c.name}: compiles under strict TypeScript with its types, with browser globals`, async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "client-compile-"));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "types.ts"), typesSource(c.model));
    fs.writeFileSync(path.join(dir, "client.ts"), clientSource(c.model));
    t.same(typeErrors([path.join(dir, "client.ts")]), [], "no type errors");
  });
}

t.test("one method per route, named as its types", async (t) => {
  const example = GENERATED_CASES[0] as GeneratedCase;
  const text = fs.readFileSync(path.join(example.dir, "client.ts"), "utf8");
  const model = example.model;
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
