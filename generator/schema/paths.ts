// Diagnostic paths: `endpoints[0].routes[3].where[1].columnName`. Property names that are not plain
// identifiers are written as `["odd key"]`; the document root is the empty string.

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Appends one property name or array index to a path. */
export function at(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** An ajv instancePath (JSON Pointer, `/endpoints/0/routes/3`) as a diagnostic path. */
export function pointerToPath(pointer: string): string {
  if (pointer === "") return "";
  let path = "";
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    path = at(path, /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key);
  }
  return path;
}

/** True when `path` is `base` itself or lies inside it. */
export function isWithin(path: string, base: string): boolean {
  if (base === "") return true;
  if (!path.startsWith(base)) return false;
  const next = path.charAt(base.length);
  return next === "" || next === "." || next === "[";
}

type Segment = string | number;

/** Splits a path back into its segments (for sorting). */
export function segments(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[]+)/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(JSON.parse(m[2]) as string);
    else if (m[3] !== undefined) out.push(m[3]);
  }
  return out;
}

/** Orders paths segment by segment: indices numerically, names by code unit, parents first. */
export function comparePaths(a: string, b: string): number {
  const sa = segments(a);
  const sb = segments(b);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i] as Segment;
    const y = sb[i] as Segment;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return sa.length - sb.length;
}
