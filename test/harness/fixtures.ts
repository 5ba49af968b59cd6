// Test fixtures kept in the repository (test/fixtures/), so a clone runs its tests on its own.

import path from "node:path";

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../fixtures");
/** Restura's example application schema, unchanged (see its NOTICE.md). */
export const RESTURA_FIXTURE = path.join(FIXTURES_DIR, "restura-example/restura.schema.json");
