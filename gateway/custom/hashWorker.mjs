// One password-hashing thread of the pool in hashPool.ts: bcryptjs's synchronous functions, run
// here so the gateway's event loop never computes a hash. Messages: {id, op: "hash", password,
// rounds} or {id, op: "compare", password, hash}; answers {id, value, threadId} or {id, error}.
// Plain JavaScript: a worker thread does not get the TypeScript loader the main thread runs with.

import { parentPort, threadId } from "node:worker_threads";
import bcrypt from "bcryptjs";

parentPort?.on("message", (task) => {
  try {
    const value =
      task.op === "compare"
        ? bcrypt.compareSync(task.password, task.hash ?? "")
        : bcrypt.hashSync(task.password, task.rounds ?? 10);
    parentPort?.postMessage({ id: task.id, value, threadId });
  } catch (error) {
    parentPort?.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
