// Where a statement's instructions go, function by function: reads the callgrind files that
// `BENCH_CALLGRIND_DIR=<dir> make bench-instructions` keeps (bench/countingServer.ts: a backend
// that ran a statement `base` times and one that ran it `base + calls` times) and prints each
// Postgres function's own instructions per call (the second file less the first, over `calls`).
// Given two statements, it prints both side by side with their difference, largest first: the
// comparison that found the last changes of docs/performance.md ("The own pages' batch").
//
//   node --import tsx bench/callgrindDiff.ts <dir>/<case>.gateway [<dir>/<case>.hand] [--calls N] [--top N]
//
// Needs valgrind's callgrind_annotate. `calls` defaults to BENCH_INSTRUCTION_CALLS, else 10, as
// bench/instructions.ts counts.

import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: "string" }, top: { type: "string", default: "40" } },
});
const calls = Number(values.calls ?? process.env.BENCH_INSTRUCTION_CALLS ?? 10);
const top = Number(values.top);
const [first, second] = positionals;
if (!first || positionals.length > 2 || !(calls > 0)) {
  console.error("usage: bench/callgrindDiff.ts <kept statement> [<kept statement>] [--calls N] [--top N]");
  process.exit(2);
}

/** Each function's own (exclusive) instructions in one callgrind file. */
function byFunction(file: string): Map<string, number> {
  const out = spawnSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (out.status !== 0) throw new Error(`callgrind_annotate ${file}: ${out.stderr || out.error}`);
  const counts = new Map<string, number>();
  // `  1,234,567 (12.34%)  file:function [object]`, the percentage absent in some versions.
  for (const line of out.stdout.split("\n")) {
    const m = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?\S*?:(\S+)/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    // callgrind names a function's recursive activations `fn'2`, `fn'3`: one function here.
    const fn = m[2].replace(/'\d+$/, "");
    counts.set(fn, (counts.get(fn) ?? 0) + Number(m[1].replaceAll(",", "")));
  }
  return counts;
}

/** A kept statement's instructions per call by function: `.more` less `.base`, over `calls`. */
function perCall(kept: string): Map<string, number> {
  const base = byFunction(`${kept}.base`);
  const result = new Map<string, number>();
  for (const [fn, n] of byFunction(`${kept}.more`)) result.set(fn, (n - (base.get(fn) ?? 0)) / calls);
  for (const [fn, n] of base) if (!result.has(fn)) result.set(fn, -n / calls);
  return result;
}

const k = (n: number) => `${(n / 1000).toFixed(1)}k`.padStart(9);
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

const a = perCall(first);
if (!second) {
  console.log(`${k(total(a))}  total a call (${first})`);
  for (const [fn, n] of [...a].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${k(n)}  ${fn}`);
} else {
  const b = perCall(second);
  console.log(`${"first".padStart(9)} ${"second".padStart(9)} ${"first-second".padStart(12)}`);
  console.log(`${k(total(a))} ${k(total(b))} ${k(total(a) - total(b)).padStart(12)}  total a call`);
  const names = [...new Set([...a.keys(), ...b.keys()])];
  const diff = (fn: string) => (a.get(fn) ?? 0) - (b.get(fn) ?? 0);
  for (const fn of names.sort((x, y) => Math.abs(diff(y)) - Math.abs(diff(x))).slice(0, top)) {
    console.log(`${k(a.get(fn) ?? 0)} ${k(b.get(fn) ?? 0)} ${k(diff(fn)).padStart(12)}  ${fn}`);
  }
}
