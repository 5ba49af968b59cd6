// Per-test-file databases: a fresh copy of a migrated template, or an empty database, dropped
// when the test file ends. The runner (test/run.ts) provides the cluster in TEST_PG_URL.

import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Test } from "tap";
import { createDatabase, dropDatabase } from "../../db/databases.ts";
import type { TemplateName } from "./templates.ts";

export function serverUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error("TEST_PG_URL is not set: run the tests with `make test` (test/run.ts)");
  return url;
}

/** A new database for this test file: a copy of `template`, or empty. Dropped at teardown. */
export async function testDatabase(t: Test, template?: TemplateName): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  const url = await createDatabase(serverUrl(), name, template ? { template } : {});
  t.teardown(() => dropDatabase(serverUrl(), name));
  return url;
}

/** A connected client, closed at teardown. */
export async function connect(t: Test, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  return client;
}
