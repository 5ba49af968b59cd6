// Template databases, migrated once per test run and copied per test file.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDatabase, withClient } from "../../db/databases.ts";
import { migrateApp } from "../../db/migrate.ts";
import { RESTURA_FIXTURE } from "./fixtures.ts";
import { GATEWAY_TEST_PASSWORD, SERVICE_TEST_PASSWORD } from "./gatewayRole.ts";

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

/** A cluster made ready for the tests: the templates, and the roles' passwords they log in with. */
export async function prepareCluster(serverUrl: string): Promise<TemplateName[]> {
  const names = await buildTemplates(serverUrl);
  // Gateway tests connect as api_gateway; its password is set once here, because changing it
  // later (as `make serve` does at start-up) would break other test files' connections.
  await withClient(serverUrl, async (c) => {
    await c.query(`ALTER ROLE api_gateway WITH LOGIN PASSWORD '${GATEWAY_TEST_PASSWORD}'`);
    await c.query(`ALTER ROLE api_service WITH LOGIN PASSWORD '${SERVICE_TEST_PASSWORD}'`);
  });
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
