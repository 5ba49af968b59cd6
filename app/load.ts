// Reads an application directory's schema file. The loader itself (generator/schema) is pure;
// this is the I/O edge that finds the file and turns parse errors into diagnostics.

import fs from "node:fs";
import path from "node:path";
import { describeDiagnostic, loadSchema } from "../generator/schema/index.ts";
import type { LoadResult } from "../generator/schema/types.ts";
import { AppError } from "./errors.ts";

export const SCHEMA_FILE_NAMES = ["api.schema.json", "restura.schema.json"] as const;

export interface AppSchema extends LoadResult {
  file: string;
}

export function schemaFileOf(appDir: string): string {
  for (const name of SCHEMA_FILE_NAMES) {
    const file = path.join(appDir, name);
    if (fs.existsSync(file)) return file;
  }
  throw new AppError(`no schema file in ${appDir}: expected ${SCHEMA_FILE_NAMES.join(" or ")}`);
}

export function readAppSchema(appDir: string): AppSchema {
  const file = schemaFileOf(appDir);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    return {
      file,
      errors: [{ path: "", message: `not valid JSON: ${(error as Error).message}` }],
      warnings: [],
    };
  }
  // Our own format is held to the stricter rules; Restura files load unchanged (docs/schema.md).
  return { file, ...loadSchema(json, { strict: path.basename(file) === "api.schema.json" }) };
}

export function formatDiagnostics(
  file: string,
  kind: "error" | "warning",
  list: LoadResult["errors"],
  routes?: LoadResult["routes"],
): string[] {
  return list.map((d) => `${file}: ${kind}: ${describeDiagnostic(d, routes)}`);
}
