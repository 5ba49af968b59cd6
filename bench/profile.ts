// V8 CPU profiles (`node --cpu-prof`; `make bench` with BENCH_CPU_PROF=<dir> writes one for each
// server), read three ways:
//
//   node --import tsx bench/profile.ts <file> [N]
//     the top N self-time functions (the samples whose top frame is the function);
//   node --import tsx bench/profile.ts <file> --against <other file> [N]
//     self time by function in both, the largest differences first (the gateway's profile against
//     the hand-written server's, at the same load);
//   node --import tsx bench/profile.ts <file> --under <name part> [depth]
//     inclusive time below every frame whose name holds <name part>, the call paths merged, as a
//     tree to `depth` levels (default 4): where a request's synchronous part goes, for instance
//     `--under parserOnHeadersComplete` (docs/performance.md, seventeenth look).
//
// Idle and GC are listed as V8 names them; times in ms over the whole profile.

import { type CpuProfile, frameName, readCpuProfile } from "./cpuProfile.ts";

const [file, ...rest] = process.argv.slice(2);
if (!file)
  throw new Error(
    "usage: bench/profile.ts <file.cpuprofile> [N | --against <file> [N] | --under <name> [depth]]",
  );
const profile = readCpuProfile(file);
const ms = (us: number) => (us / 1000).toFixed(0);

if (rest[0] === "--against") {
  const other = readCpuProfile(rest[1] ?? "");
  const a = selfByFunction(profile);
  const b = selfByFunction(other);
  console.log(`busy ${ms(busy(a))} ms against ${ms(busy(b))} ms`);
  console.log("| self ms | against | difference | function |\n|---:|---:|---:|---|");
  const names = [...new Set([...a.keys(), ...b.keys()])].filter((n) => n !== "(idle)");
  const diff = (n: string) => (a.get(n) ?? 0) - (b.get(n) ?? 0);
  for (const n of names
    .sort((x, y) => Math.abs(diff(y)) - Math.abs(diff(x)))
    .slice(0, Number(rest[2] ?? 40))) {
    console.log(`| ${ms(a.get(n) ?? 0)} | ${ms(b.get(n) ?? 0)} | ${ms(diff(n))} | \`${n}\` |`);
  }
} else if (rest[0] === "--under") {
  const part = rest[1] ?? "";
  const depth = Number(rest[2] ?? 4);
  const matches = profile.nodes.filter((n) => frameName(n).includes(part)).map((n) => n.id);
  // Only the outermost matches: a recursive frame inside another is counted with it.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const matched = new Set(matches);
  const outer = matches.filter((id) => {
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) if (matched.has(p)) return false;
    return true;
  });
  const sum = outer.reduce((s, id) => s + profile.inclusive(id), 0);
  console.log(`${ms(sum)} ms under ${outer.length} frame(s) named like "${part}"`);
  tree(profile, outer, 1, depth, "");
} else {
  const self = selfByFunction(profile);
  console.log(`${(profile.total / 1e6).toFixed(1)} s sampled, ${(busy(self) / 1e6).toFixed(1)} s not idle`);
  console.log("| self ms | % of busy | function |\n|---:|---:|---|");
  const top = [...self].filter(([n]) => n !== "(idle)").sort((x, y) => y[1] - x[1]);
  for (const [n, us] of top.slice(0, Number(rest[0] ?? 25))) {
    console.log(`| ${ms(us)} | ${((100 * us) / busy(self)).toFixed(1)} | \`${n}\` |`);
  }
}

function selfByFunction(p: CpuProfile): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, us] of p.self) {
    const node = p.byId.get(id);
    if (!node) continue;
    const name = frameName(node);
    out.set(name, (out.get(name) ?? 0) + us);
  }
  return out;
}

function busy(self: Map<string, number>): number {
  let us = 0;
  for (const [n, t] of self) if (n !== "(idle)") us += t;
  return us;
}

/** The children of `ids`, merged by name, largest first, down to `depth`; under 1 ms left out. */
function tree(p: CpuProfile, ids: number[], level: number, depth: number, indent: string): void {
  const groups = new Map<string, number[]>();
  for (const id of ids) {
    for (const child of p.byId.get(id)?.children ?? []) {
      const node = p.byId.get(child);
      if (!node) continue;
      const name = frameName(node);
      const group = groups.get(name);
      if (group) group.push(child);
      else groups.set(name, [child]);
    }
  }
  const rows = [...groups].map(([name, cs]) => ({
    name,
    cs,
    us: cs.reduce((s, c) => s + p.inclusive(c), 0),
  }));
  for (const { name, cs, us } of rows.sort((x, y) => y.us - x.us)) {
    if (us < 1000) continue;
    console.log(`${indent}${ms(us).padStart(6)} ${name}`);
    if (level < depth) tree(p, cs, level + 1, depth, `${indent}  `);
  }
}
