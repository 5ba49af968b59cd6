// Defensive readers for unknown JSON: the structure check has already reported anything of the
// wrong type, so these only need to fall back to a harmless value and never throw.

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
/** Absent stays absent; a present value of the wrong type becomes "" (present, but names nothing). */
export const optStr = (v: unknown): string | undefined =>
  v === undefined ? undefined : typeof v === "string" ? v : "";
export const bool = (v: unknown): boolean => v === true;
export const optBool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strs = (v: unknown): string[] => arr(v).map(str);

/** Copies the defined entries only, so optional properties are absent rather than `undefined`. */
export function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

/** Upper case with runs of white space collapsed: `double  precision` -> `DOUBLE PRECISION`. */
export const upperWords = (s: string): string => s.trim().replace(/\s+/g, " ").toUpperCase();
