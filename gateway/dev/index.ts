// Watch mode (`make dev APP=dir`, docs/operations.md "Watch mode"): serve the app, and on every
// saved schema or handler file build the next version and swap it in without a restart. A broken
// version is reported and the last good one keeps serving.

import type { AddressInfo } from "node:net";
import { AppError } from "../../app/errors.ts";
import { Dispatcher } from "./dispatcher.ts";
import { buildVersion, type VersionDeps } from "./version.ts";
import { watchApp } from "./watch.ts";

export { isWatchedPath } from "./watch.ts";

export interface DevServer {
  port: number;
  /** Versions swapped in so far (the first included). */
  readonly swaps: number;
  /** Rebuilds that failed and left the previous version serving. */
  readonly failures: number;
  /** Waits for the rebuild running now (and the one queued behind it), if any. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface DevOptions extends VersionDeps {
  port: number;
  host: string;
  debounceMs?: number;
}

/** Builds the first version (its errors stop start-up), listens, and watches the app. */
export async function startDevServer(options: DevOptions): Promise<DevServer> {
  const { log } = options;
  const dispatcher = new Dispatcher();
  let swaps = 0;
  let failures = 0;
  let pending: Promise<void> = Promise.resolve();

  const rebuild = async (): Promise<boolean> => {
    const started = Date.now();
    const built = await buildVersion(options);
    if (built.ok) {
      try {
        await dispatcher.swap(built.version);
        swaps += 1;
        log(`swapped in version ${swaps} (${Date.now() - started} ms)`);
        return true;
      } catch (error) {
        // A gateway that fails to start (a plugin, a route clash) is a broken version too.
        await built.version.retire().catch(() => {});
        return report([(error as Error).message]);
      }
    }
    return report(built.errors);
  };
  let lastErrors: string[] = [];
  const report = (errors: string[]): false => {
    failures += 1;
    lastErrors = errors;
    log(`not swapped: the previous version keeps serving. ${errors.length} error(s):`);
    for (const line of errors) log(`  ${line}`);
    return false;
  };

  if (!(await rebuild())) {
    throw new AppError(`the app has errors; fix them and start again:\n  ${lastErrors.join("\n  ")}`);
  }
  await new Promise<void>((resolve, reject) => {
    dispatcher.server.once("error", reject);
    dispatcher.server.listen(options.port, options.host, () => resolve());
  });
  const stopWatching = watchApp(
    options.appDir,
    () => {
      pending = rebuild().then(() => {});
      return pending;
    },
    options.debounceMs,
  );
  return {
    port: (dispatcher.server.address() as AddressInfo).port,
    get swaps() {
      return swaps;
    },
    get failures() {
      return failures;
    },
    settled: () => pending,
    close: async () => {
      stopWatching();
      await pending;
      await dispatcher.close();
    },
  };
}
