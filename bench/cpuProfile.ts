// A V8 CPU profile (`node --cpu-prof`) read for bench/profile.ts: each call-tree node's self time
// (the samples whose top frame it is), its inclusive time (its subtree's), and a name per frame.

import fs from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds of samples whose top frame is the node. */
  self: Map<number, number>;
  /** Microseconds of the node's subtree. */
  inclusive(id: number): number;
  byId: Map<number, ProfileNode>;
  /** Every sample's microseconds, idle included. */
  total: number;
}

export function readCpuProfile(file: string): CpuProfile {
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const self = new Map<number, number>();
  let total = 0;
  raw.samples.forEach((id, i) => {
    const us = raw.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + us);
    total += us;
  });
  const byId = new Map(raw.nodes.map((n) => [n.id, n]));
  const memo = new Map<number, number>();
  const inclusive = (id: number): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    let us = self.get(id) ?? 0;
    for (const child of byId.get(id)?.children ?? []) us += inclusive(child);
    memo.set(id, us);
    return us;
  };
  return { nodes: raw.nodes, self, inclusive, byId, total };
}

/** `name file:line` of a node (tsx puts a module on one line: then the column tells closures apart). */
export function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const where = url ? `${shorten(url)}:${lineNumber + 1}${lineNumber === 0 ? `:${columnNumber}` : ""}` : "";
  return `${functionName || "(anonymous)"} ${where}`.trim();
}

function shorten(url: string): string {
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("node_modules/");
  if (nm >= 0) return p.slice(nm + "node_modules/".length);
  return path.relative(path.resolve(import.meta.dirname, ".."), p);
}
