// `<app>/generated/`: written by `make migrate`, `make check` and every rebuild of `make dev`,
// from the same model the database and the gateway are built from, so the types cannot drift
// from what the API answers. A file whose content did not change is left alone (its mtime too).

import fs from "node:fs";
import path from "node:path";
import { buildModel } from "../generator/model/index.ts";
import { generatedFiles } from "../generator/output/index.ts";
import type { Schema } from "../generator/schema/types.ts";

export const GENERATED_DIR = "generated";

/** Writes the generated files; returns the paths that changed. */
export function writeGeneratedOutput(appDir: string, schema: Schema): string[] {
  const dir = path.join(appDir, GENERATED_DIR);
  const changed: string[] = [];
  for (const [name, text] of generatedFiles(buildModel(schema))) {
    const file = path.join(dir, name);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) continue;
    fs.mkdirSync(dir, { recursive: true });
    // Written beside and renamed: a reader (an editor, tsc in watch mode) never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
    changed.push(file);
  }
  return changed;
}
