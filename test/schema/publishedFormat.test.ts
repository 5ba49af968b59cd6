// The JSON Schema editors use (generator/schema/api-schema.json, referenced by `$schema` in
// api.schema.json files) is the very document the loader's structure check compiles
// (format.ts): the file must equal it byte for byte, so the two cannot drift.
// UPDATE_GOLDEN=1 rewrites the file (never in CI).

import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import t from "tap";
import { FILE_FORMAT } from "../../generator/schema/format.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { REPO } from "../harness/templates.ts";

const PUBLISHED = path.join(REPO, "generator/schema/api-schema.json");
const text = `${JSON.stringify(FILE_FORMAT, null, 2)}\n`;

t.test("the published document is the loader's", async (t) => {
  if (process.env.UPDATE_GOLDEN === "1" && !process.env.CI) fs.writeFileSync(PUBLISHED, text);
  t.equal(fs.readFileSync(PUBLISHED, "utf8"), text, "api-schema.json equals format.ts's FILE_FORMAT");
});

const published = JSON.parse(fs.readFileSync(PUBLISHED, "utf8")) as Record<string, unknown>;
// A plain validator, as an editor or another tool would use it: no options of ours.
const validate = new Ajv({ allErrors: true, strict: false }).compile(published);
const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;

t.test("the example and the Restura fixture are valid, and the example points at the document", async (t) => {
  const example = read(path.join(REPO, "example/api.schema.json"));
  t.ok(validate(example), "example/api.schema.json");
  t.equal(
    path.resolve(REPO, "example", String(example.$schema)),
    PUBLISHED,
    "its $schema is the published file",
  );
  t.ok(validate(read(RESTURA_FIXTURE)), "the Restura fixture");
});

t.test("a mistake is reported by the document and by the loader alike", async (t) => {
  const example = read(path.join(REPO, "example/api.schema.json"));
  // biome-ignore lint/suspicious/noExplicitAny: mutating a parsed JSON document by path
  const cases: [string, (s: Record<string, any>) => void, string][] = [
    ["unknown key", (s) => (s.database[0].columnz = []), "database[0].columnz"],
    ["wrong enum", (s) => (s.endpoints[0].routes[0].method = "FETCH"), "endpoints[0].routes[0].method"],
    ["wrong type", (s) => (s.database[0].columns[0].isNullable = "no"), "database[0].columns[0].isNullable"],
    ["missing required", (s) => delete s.database[0].columns[0].type, "database[0].columns[0].type"],
  ];
  for (const [name, mutate, where] of cases) {
    const broken = structuredClone(example);
    mutate(broken);
    t.notOk(validate(broken), `${name}: the published document refuses it`);
    const loaded = loadSchema(broken);
    t.ok(
      loaded.errors.some((e) => e.path === where),
      `${name}: the loader reports ${where}`,
    );
  }
});

t.test("editors get help: descriptions on the keys and the column types to complete", async (t) => {
  const defs = published.definitions as Record<
    string,
    { properties: Record<string, Record<string, unknown>> }
  >;
  for (const def of ["table", "column", "standardRoute", "customRoute"]) {
    const props = defs[def]?.properties ?? {};
    const undescribed = Object.entries(props).filter(([, p]) => typeof p.description !== "string");
    t.same(
      undescribed.map(([k]) => k),
      [],
      `${def}: every key is described`,
    );
  }
  t.ok(
    ((defs.column?.properties.type?.examples ?? []) as string[]).includes("TIMESTAMPTZ"),
    "column types to complete",
  );
});
