// Golden files: a folder per case under test/golden/<kind>/, its output compared byte for byte
// with expected.sql. UPDATE_GOLDEN=1 rewrites the files instead, never in CI.

import fs from "node:fs";
import path from "node:path";
import type { Test } from "tap";
import { REPO } from "./templates.ts";

const update = process.env.UPDATE_GOLDEN === "1" && !process.env.CI;

/** The case folders of test/golden/<kind>, sorted. */
export function goldenCases(kind: string): { name: string; dir: string }[] {
  const root = path.join(REPO, "test/golden", kind);
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ name: d.name, dir: path.join(root, d.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `actual` equals the case's expected.sql (or rewrites it under UPDATE_GOLDEN=1). */
export function matchesGolden(t: Test, dir: string, actual: string): void {
  const expectedFile = path.join(dir, "expected.sql");
  if (update) {
    fs.writeFileSync(expectedFile, actual);
    t.pass("expected.sql rewritten");
    return;
  }
  if (!fs.existsSync(expectedFile)) {
    t.fail(`${path.basename(dir)}/expected.sql is missing: run with UPDATE_GOLDEN=1 to write it`);
    return;
  }
  t.equal(actual, fs.readFileSync(expectedFile, "utf8"), "matches expected.sql");
}
