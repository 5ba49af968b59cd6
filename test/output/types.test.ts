// Generated TypeScript types (generator/output/types.ts, written to <app>/generated/types.ts):
// the example app's committed file is current, the Restura fixture's matches its golden file,
// both compile under strict TypeScript, and the types say what the gateway answers (a LEFT join
// nullable, a column behind a rule optional, a subquery an array). UPDATE_GOLDEN=1 rewrites.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import ts from "typescript";
import { writeGeneratedOutput } from "../../app/generated.ts";
import { buildModel } from "../../generator/model/index.ts";
import { generatedFiles, typesSource } from "../../generator/output/index.ts";
import { GENERATED_CASES, type GeneratedCase, matchesGenerated } from "../harness/generated.ts";

const cases = GENERATED_CASES.map((c) => ({ ...c, file: path.join(c.dir, "types.ts") }));
const example = (GENERATED_CASES[0] as GeneratedCase).model.schema;

for (const c of GENERATED_CASES) {
  t.test(`${c.name}: the file is what the schema generates`, async (t) => {
    matchesGenerated(t, c, "types.ts", typesSource);
  });
}

t.test("both compile under strict TypeScript", async (t) => {
  const program = ts.createProgram(
    cases.map((c) => c.file),
    { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, types: [] },
  );
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  t.same(problems, [], "no type errors");
});

t.test("the types say what the gateway answers", async (t) => {
  const text = fs.readFileSync(cases[0]?.file as string, "utf8");
  const block = (name: string) => {
    const start = text.indexOf(`export type ${name} = {`);
    t.ok(start >= 0, `${name} is declared`);
    return text.slice(start, text.indexOf("\n};", start));
  };
  const project = block("GetProjectItem");
  t.match(
    project,
    /\n {2}budget\?: number \| null;/,
    "budget has a column rule: optional, never null for that",
  );
  t.match(project, /\n {2}ownerFirstName: string \| null;/, "a LEFT-joined column may be null");
  t.match(project, /\n {2}status: "planning" \| "active"/, "an ENUM is its values");
  t.match(project, /\n {2}createdOn: string;/, "a timestamp is a string");
  t.match(
    text,
    /export type GetProjectResponse = \{ data: GetProjectItem\[\]; total: number; next\?: string \| null \};/,
  );
  t.match(text, /export type GetUserMeResponse = \{ data: GetUserMeItem \};/, "ONE: one object");
  t.match(text, /export type DeleteTaskByIdResponse = \{ data: true \};/, "DELETE: true");
  t.match(
    text,
    /export type PostReportSummaryItem = ReportSummary;/,
    "a custom route answers its responseType",
  );
  t.notMatch(text, /passwordHash/, "a private column appears nowhere");
  const userRow = text.slice(
    text.indexOf("export interface UserRow {"),
    text.indexOf("}", text.indexOf("export interface UserRow {")),
  );
  t.match(userRow, /email: string;/, "the row type has the readable columns");
  t.match(text, /"GET \/api\/v1\/user\/me": \{ request: GetUserMeRequest; response: GetUserMeResponse \};/);
});

t.test(
  "writeGeneratedOutput writes every generated file into <app>/generated/, and leaves an unchanged file alone",
  async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-generated-"));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    const written = writeGeneratedOutput(dir, example);
    const names = [...generatedFiles(buildModel(example)).keys()];
    t.ok(names.includes("types.ts") && names.includes("client.ts"), "the types and the client");
    t.same(
      written,
      names.map((name) => path.join(dir, "generated", name)),
    );
    t.equal(fs.readFileSync(path.join(dir, "generated/types.ts"), "utf8"), typesSource(buildModel(example)));
    t.same(writeGeneratedOutput(dir, example), [], "nothing to write the second time");
  },
);
