// Collects errors and warnings; the loader sorts and de-duplicates them at the end so the output
// is deterministic whatever order the checks ran in.

import { comparePaths, isWithin } from "./paths.ts";
import type { Diagnostic } from "./types.ts";

export class Diagnostics {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];

  error(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  warn(path: string, message: string): void {
    this.warnings.push({ path, message });
  }
}

/** Sorted by path (indices numerically), then message; exact duplicates removed. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const sorted = [...list].sort(
    (a, b) => comparePaths(a.path, b.path) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
  return sorted.filter((d, i) => {
    const prev = sorted[i - 1];
    return prev === undefined || prev.path !== d.path || prev.message !== d.message;
  });
}

/**
 * Drops findings of the semantic checks that lie inside a place the structure check already
 * rejected: they would only repeat the same problem in other words.
 */
export function withoutShadowed(
  list: readonly Diagnostic[],
  structural: readonly Diagnostic[],
): Diagnostic[] {
  const bases = structural.map((d) => d.path);
  return list.filter((d) => !bases.some((base) => isWithin(d.path, base)));
}
