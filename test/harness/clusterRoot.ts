// Where the tests' own Postgres clusters keep their data: in memory (/dev/shm) when it has room,
// else the temporary directory. The suite creates and drops databases and commits thousands of
// times; on CI's virtual disk each waits for its writes to reach the disk. Measured there, 20
// databases created and dropped: 58-263 ms a CREATE DATABASE and 18-80 ms a DROP on disk,
// 17-30 and 6-8 ms in /dev/shm. Nothing a test keeps must outlive the machine.

import fs from "node:fs";
import os from "node:os";

/** Below this much free memory-backed space (a container's 64 MB /dev/shm), the disk. */
const NEEDED_BYTES = 4 * 2 ** 30;

export const CLUSTER_ROOT = memoryRoot() ?? os.tmpdir();

function memoryRoot(): string | undefined {
  const shm = "/dev/shm";
  try {
    const space = fs.statfsSync(shm);
    fs.accessSync(shm, fs.constants.W_OK);
    return space.bavail * space.bsize >= NEEDED_BYTES ? shm : undefined;
  } catch {
    return undefined;
  }
}
