// File events of watch mode: the schema file and handler code (`<app>/src/**`). Editors write a
// file in several events (truncate, write, rename), so events are gathered for `debounceMs` and
// then one rebuild runs; events during a rebuild queue exactly one more.

import fs from "node:fs";
import path from "node:path";
import { SCHEMA_FILE_NAMES } from "../../app/load.ts";

export const DEBOUNCE_MS = 150;

/** Whether a path relative to the app directory is something watch mode rebuilds for. */
export function isWatchedPath(relative: string): boolean {
  const normalized = relative.split(path.sep).join("/");
  return (SCHEMA_FILE_NAMES as readonly string[]).includes(normalized) || normalized.startsWith("src/");
}

/** Calls `rebuild` after changes settle, never two at once; returns the stop function. */
export function watchApp(
  appDir: string,
  rebuild: () => Promise<void>,
  debounceMs: number = DEBOUNCE_MS,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = rebuild().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void run();
      }
    });
  };
  // Linux supports recursive fs.watch from Node 20; src/ may not exist yet, so the app dir is watched.
  const watcher = fs.watch(appDir, { recursive: true }, (_event, file) => {
    if (file === null || !isWatchedPath(file.toString())) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
