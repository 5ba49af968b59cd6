// Password hashing off the event loop (docs/handlers.md "Passwords"). bcryptjs is pure
// JavaScript: on the gateway's one thread, 16 parallel logins held every other request (even
// /health) for seconds. Here each hash or comparison runs on a small pool of worker threads
// (hashWorker.mjs, bcryptjs as before, so existing hashes stay valid and no native build is
// needed); the main thread only posts a message and awaits the answer.
//
// Passwords longer than 72 bytes are refused before hashing (`passwordTooLong`): bcrypt reads only
// the first 72, so a longer one would match any password sharing those, and long inputs cost
// time for nothing.

import os from "node:os";
import { Worker } from "node:worker_threads";

/** bcrypt uses the first 72 bytes of a password and ignores the rest. */
export const MAX_PASSWORD_BYTES = 72;

export function passwordTooLong(password: string): boolean {
  return Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

/** What a worker answered: the value and the thread that computed it. */
export interface Answer {
  value: string | boolean;
  threadId: number;
}

interface Slot {
  worker: Worker;
  /** Tasks posted to this worker and not answered yet. */
  pending: Map<number, Pending>;
}

export class HashPool {
  private readonly slots: Slot[] = [];
  private nextId = 0;

  /** `size` worker threads, started at the first task. */
  constructor(readonly size: number) {}

  async hash(password: string, rounds = 10): Promise<string> {
    return (await this.run({ op: "hash", password, rounds })).value as string;
  }

  async compare(password: string, hash: string): Promise<boolean> {
    return (await this.run({ op: "compare", password, hash })).value === true;
  }

  /** Runs one task on the least busy worker; resolves with the worker's answer. */
  run(
    task:
      | { op: "hash"; password: string; rounds: number }
      | { op: "compare"; password: string; hash: string },
  ): Promise<Answer> {
    const slot = this.leastBusy();
    const id = ++this.nextId;
    return new Promise<Answer>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      // A busy worker keeps the process alive until it answers; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage({ id, ...task });
    });
  }

  /** Stops the threads; tasks still pending are rejected. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private leastBusy(): Slot {
    if (this.slots.length < this.size) {
      const idle = this.slots.find((s) => s.pending.size === 0);
      if (idle) return idle;
      return this.start();
    }
    return this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Slot {
    const worker = new Worker(new URL("./hashWorker.mjs", import.meta.url));
    worker.unref();
    const slot: Slot = { worker, pending: new Map() };
    worker.on(
      "message",
      (message: { id: number; value?: string | boolean; threadId?: number; error?: string }) => {
        const task = slot.pending.get(message.id);
        if (!task) return;
        slot.pending.delete(message.id);
        if (slot.pending.size === 0) worker.unref();
        if (message.error !== undefined) task.reject(new Error(`password hashing failed: ${message.error}`));
        else task.resolve({ value: message.value as string | boolean, threadId: message.threadId ?? -1 });
      },
    );
    // A worker that dies fails its own tasks only; the next task starts a fresh one.
    const fail = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      for (const task of slot.pending.values()) task.reject(error);
      slot.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`password hashing thread exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

let shared: HashPool | undefined;

/**
 * The process's pool: one thread per core but one (the event loop keeps a core), at least one,
 * at most four. Shared by every handler, so hashing never takes more than that at once.
 */
export function hashPool(): HashPool {
  shared ??= new HashPool(Math.max(1, Math.min(4, os.availableParallelism() - 1)));
  return shared;
}

/** bcrypt hash of `password` (cost `rounds`), computed off the event loop. */
export function hashPassword(password: string, rounds = 10): Promise<string> {
  return hashPool().hash(password, rounds);
}

/** Whether `password` matches the bcrypt `hash`, computed off the event loop. */
export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return hashPool().compare(password, hash);
}
