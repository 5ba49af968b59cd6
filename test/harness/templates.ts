// Template databases, migrated once per test run and copied per test file.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { RESTURA_FIXTURE } from "./fixtures.ts";

export const REPO = path.resolve(import.meta.dirname, "../..");
export { RESTURA_FIXTURE };

/** Each template: a name and an app directory to migrate into it. */
export const TEMPLATES = {
  tpl_example: () => copyApp(path.join(REPO, "example")),
  tpl_restura: () => appFromSchema(RESTURA_FIXTURE, "restura.schema.json"),
} as const;
export type TemplateName = keyof typeof TEMPLATES;

export async function buildTemplates(serverUrl: string): Promise<TemplateName[]> {
  const names = Object.keys(TEMPLATES) as TemplateName[];
  for (const name of names) {
    const appDir = TEMPLATES[name]();
    const url = await createDatabase(serverUrl, name);
    await migrateApp({ appDir, url });
    fs.rmSync(appDir, { recursive: true, force: true });
  }
  return names;
}

/** A scratch copy of an app directory (schema, migrations, seed), so tests never write to the repo. */
export function copyApp(appDir: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-app-"));
  for (const entry of ["api.schema.json", "restura.schema.json", "migrations", "seed.sql", "src"]) {
    const from = path.join(appDir, entry);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, entry), { recursive: true });
  }
  return dir;
}

/** A scratch app directory holding just a schema file. */
export function appFromSchema(schemaFile: string, fileName = "api.schema.json"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-app-"));
  fs.copyFileSync(schemaFile, path.join(dir, fileName));
  return dir;
}
