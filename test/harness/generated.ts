// The apps whose generated files (generator/output: <app>/generated/) are checked byte for byte:
// the example app's committed files, and the Restura fixture's golden copies. UPDATE_GOLDEN=1
// rewrites them, never in CI.

import fs from "node:fs";
import path from "node:path";
import type { Test } from "tap";
import { buildModel, type Model } from "../../generator/model/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import { RESTURA_FIXTURE } from "./fixtures.ts";
import { REPO } from "./templates.ts";

export interface GeneratedCase {
  name: "example" | "restura";
  model: Model;
  /** Where that app's generated files are kept. */
  dir: string;
}

function modelOf(file: string): Model {
  const result = loadSchema(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!result.schema) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  return buildModel(result.schema);
}

export const GENERATED_CASES: GeneratedCase[] = [
  {
    name: "example",
    model: modelOf(path.join(REPO, "example/api.schema.json")),
    dir: path.join(REPO, "example/generated"),
  },
  {
    name: "restura",
    model: modelOf(RESTURA_FIXTURE),
    dir: path.join(REPO, "test/golden/output/restura-example"),
  },
];

/** `<dir>/<name>` holds what `generate` makes of the case's model, and `generate` is deterministic. */
export function matchesGenerated(
  t: Test,
  c: GeneratedCase,
  name: string,
  generate: (model: Model) => string,
): void {
  const file = path.join(c.dir, name);
  const text = generate(c.model);
  if (process.env.UPDATE_GOLDEN === "1" && !process.env.CI) fs.writeFileSync(file, text);
  t.equal(
    fs.readFileSync(file, "utf8"),
    text,
    `${path.relative(REPO, file)} is current (make check rewrites it)`,
  );
  t.equal(generate(c.model), text, "deterministic");
}
