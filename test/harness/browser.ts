// Headless Chromium for the tests that check a page as a user sees it (the API reference at
// /docs, the example's live page). Debian's `chromium` package, driven by playwright-core, which
// never downloads a browser: test/run.ts installs the package when it is missing. The flags keep
// it off the network this machine does not have (without them it stalls at start-up), and every
// page gets a fresh profile directory, removed afterwards.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Runs `fn` with a fresh page of a fresh browser; everything is closed when the test ends. */
export async function withBrowserPage<T>(t: Teardown, fn: (page: Page) => Promise<T>): Promise<T> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: make test installs Debian's chromium package (apt-get install -y chromium)`,
    );
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "api-test-chromium-"));
  // launchPersistentContext is playwright's way to pass --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  t.teardown(async () => {
    await context.close().catch(() => undefined);
    // A helper process may still be writing its cache for a moment: retry, and never fail the test.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {}
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return fn(page);
}
