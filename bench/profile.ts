// Top self-time functions of a V8 CPU profile (`node --cpu-prof`; `make bench` with
// BENCH_CPU_PROF=<dir> writes one for the gateway): `node --import tsx bench/profile.ts <file> [N]`.
// Self time is the samples whose top frame is the function; idle and GC are listed as V8 names them.

import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = "25"] = process.argv.slice(2);
if (!file) throw new Error("usage: bench/profile.ts <file.cpuprofile> [N]");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const us = profile.timeDeltas[i] ?? 0;
  if (!node) return;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${shorten(url)}:${lineNumber + 1}` : "";
  const key = `${functionName || "(anonymous)"} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + us);
  total += us;
});
const busy = total - (self.get("(idle)") ?? 0);
console.log(`${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s not idle`);
console.log("| self ms | % of busy | function |\n|---:|---:|---|");
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  if (key === "(idle)") continue;
  console.log(`| ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)} | \`${key}\` |`);
}

function shorten(url: string): string {
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("node_modules/");
  if (nm >= 0) return p.slice(nm + "node_modules/".length);
  return path.relative(path.resolve(import.meta.dirname, ".."), p);
}
