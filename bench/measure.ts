// Process figures for `make bench`, read from /proc (Linux): CPU time of a process or of every
// process of our own Postgres cluster, and a process's resident memory. Elsewhere they are absent
// and the report says so.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export const hasProc = fs.existsSync("/proc/self/stat");

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds a process has used so far (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND : 0;
}

/** Resident memory in MB. */
export function rssMb(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The postmaster of the cluster in `dataDir` and its children (backends, workers). */
export function clusterPids(dataDir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return [];
  }
  const pids = [postmaster];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    // The parent pid is field 4 of stat, 2 after the name.
    if (f && Number(f[1]) === postmaster) pids.push(Number(entry));
  }
  return pids;
}

/**
 * CPU seconds of the whole cluster: the postmaster with the backends it has reaped (their time
 * moves into its cutime and cstime when they exit, so a backend that exits between two samples
 * keeps its share: a pool closing idle connections once made the difference negative), and the
 * children still running.
 */
export function clusterCpuSeconds(dataDir: string): number {
  const [postmaster, ...children] = clusterPids(dataDir);
  if (postmaster === undefined) return 0;
  return withReapedChildren(postmaster) + children.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}

/**
 * CPU seconds the machine has spent busy so far (/proc/stat: user, nice, system, irq, softirq;
 * interrupt time is counted too because the kernel may also charge it to the running process).
 */
export function machineCpuSeconds(): number {
  try {
    const [, user, nice, system, , , irq, softirq] =
      fs.readFileSync("/proc/stat", "utf8").split("\n")[0]?.split(/\s+/) ?? [];
    return (Number(user) + Number(nice) + Number(system) + Number(irq) + Number(softirq)) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of this process and of its children that have ended (the gateway, the baseline,
 * pgbench, the cluster once stopped, with the backends its postmaster reaped).
 */
export function ownTreeCpuSeconds(): number {
  return withReapedChildren(process.pid);
}

/** A process's CPU seconds with those of the children it has waited for (0 once it is gone). */
function withReapedChildren(pid: number): number {
  const f = statFields(pid);
  // utime, stime, cutime, cstime: fields 14-17 of stat, 11-14 after the name.
  return f ? (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND : 0;
}
