// Scratch application directories for tests that write schemas and migrations.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Test } from "tap";

export interface ScratchApp {
  dir: string;
  /** Replaces the app's schema file. */
  write(schema: unknown): void;
  /** Migration file names, in order. */
  migrations(): string[];
  read(file: string): string;
}

export function scratchApp(t: Test, schema?: unknown): ScratchApp {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-app-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const app: ScratchApp = {
    dir,
    write: (s) => fs.writeFileSync(path.join(dir, "api.schema.json"), JSON.stringify(s, null, 2)),
    migrations: () => {
      const m = path.join(dir, "migrations");
      return fs.existsSync(m)
        ? fs
            .readdirSync(m)
            .filter((f) => f.endsWith(".sql"))
            .sort()
        : [];
    },
    read: (file) => fs.readFileSync(path.join(dir, file), "utf8"),
  };
  if (schema !== undefined) app.write(schema);
  return app;
}

/**
 * A scratch copy of the example app with `schema` (the example's, modified by the test), its
 * migrations, and stub handlers for its own custom routes: the real handlers need the repo's
 * node_modules, which a directory under the OS's temp folder cannot resolve. Returns the app and
 * its handler folder (`src/api/v1`), for the test's own probe handlers.
 */
export function exampleAppWithStubs(
  t: Test,
  schema: unknown,
  exampleDir: string,
): ScratchApp & { handlers: string } {
  const app = scratchApp(t, schema);
  fs.cpSync(path.join(exampleDir, "migrations"), path.join(app.dir, "migrations"), { recursive: true });
  const handlers = path.join(app.dir, "src/api/v1");
  fs.mkdirSync(handlers, { recursive: true });
  const stub = (methods: string[]) =>
    `export default class Stub {\n${methods.map((m) => `  ${m}(req, res) { res.sendData(true); }`).join("\n")}\n}\n`;
  fs.writeFileSync(
    path.join(handlers, "user.api.v1.ts"),
    stub(["postUserLogin", "postUserRefreshToken", "getUserMeSession", "postUserMeAvatar"]),
  );
  fs.writeFileSync(path.join(handlers, "task.api.v1.ts"), stub(["postTaskAttachments"]));
  fs.writeFileSync(path.join(handlers, "report.api.v1.ts"), stub(["postReportSummary"]));
  return { ...app, handlers };
}

/** A minimal valid schema with the given tables (route-less). */
export function schemaWith(database: unknown[]): Record<string, unknown> {
  return { database, endpoints: [], customTypes: [], globalParams: [], roles: [], scopes: [] };
}

/** A schema column as JSON, loosely typed so tests can write invalid or partial ones. */
export type ColumnJson = { name: string } & Record<string, unknown>;

export function column(name: string, type: string, extra: Record<string, unknown> = {}): ColumnJson {
  return { name, type, isNullable: false, roles: [], scopes: [], ...extra };
}

export function table(name: string, columns: ColumnJson[], extra: Record<string, unknown> = {}) {
  return {
    name,
    columns,
    indexes: [],
    foreignKeys: [],
    checkConstraints: [],
    roles: [],
    scopes: [],
    ...extra,
  };
}

export const id = () => column("id", "BIGSERIAL", { isPrimary: true, hasAutoIncrement: true });

/** A unique index as a schema's `indexes` entry, named as the schema tools name them. */
export const uniqueIndex = (table: string, columns: string[]) => ({
  name: `${table}_${columns.join("_")}_unique_index`,
  columns,
  isUnique: true,
  isPrimaryKey: false,
  order: "ASC",
});

/** A standard route on `table` as schema JSON (ONE unless `extra` says), answering `response`: column names of the table. */
export const standardRoute = (
  method: string,
  path: string,
  table: string,
  response: string[],
  extra: Record<string, unknown> = {},
) => ({
  name: `${method} ${path}`,
  description: "",
  method,
  path,
  type: "ONE",
  table,
  roles: [],
  scopes: [],
  request: [],
  joins: [],
  where: [],
  assignments: [],
  response: response.map((c) => ({ name: c, selector: `${table}.${c}` })),
  ...extra,
});
