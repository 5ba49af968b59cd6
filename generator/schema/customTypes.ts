// Names declared by the customTypes TypeScript sources. Not a TypeScript parser: a regular
// expression finds `interface Name`, `type Name =` and `enum Name` declarations (exported or not,
// generics allowed), which is enough to check the names that routes refer to.

const DECLARATION =
  /(?:^|[\s;{}])(?:export\s+)?(?:declare\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)\s*(?:<[^>]*>\s*)?(?:=|\{|extends\b)/g;

export function customTypeNames(sources: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources) {
    const code = source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
    for (const m of code.matchAll(DECLARATION)) names.add(m[1] as string);
  }
  return names;
}

/** Response types that need no declaration. */
export const BUILTIN_RESPONSE_TYPES = ["boolean", "string", "number"] as const;
