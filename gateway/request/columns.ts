// Write routes: the body's values checked against the columns they are written to, before any
// SQL (docs/schema.md "Write rules", issue 4): text length, integer ranges, DECIMAL digits, dates and
// timestamps, booleans, ENUM values. And an assigned column is the server's: a body sending it is
// a VALIDATION_ERROR (the declared parameter exists, but the assignment always wins; 422, not 403,
// because it is the request's shape that is wrong, not the caller's rights).
// Each problem goes into `details` under the parameter's name, as the declared validators' do.

import type { ModelColumn, ParamWrite } from "../../generator/model/index.ts";
import type { StandardRoute } from "../../generator/schema/types.ts";
import type { ErrorDetails } from "../errors.ts";

export const ASSIGNED = "is set by the server and cannot be sent";

type Check = (value: unknown) => string | undefined;

const INTEGER_BOUNDS = {
  smallint: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
} as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/;

/**
 * A day that exists, as Postgres reads `YYYY-MM-DD`: no year 0 (1 BC comes before AD 1: Postgres
 * refuses 0000), years below 100 as written (Date.UTC would read 50 as 1950).
 */
function validDate(y: string, m: string, d: string): boolean {
  if (Number(y) === 0) return false;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

/** The check a column's type imposes on a JSON value; undefined when Postgres's cast is enough. */
export function columnCheck(column: ModelColumn): Check | undefined {
  const type = column.pgType;
  const values = column.enumValues;
  if (values) {
    return (v) =>
      typeof v === "string" && values.includes(v)
        ? undefined
        : `must be one of ${values.map((x) => `"${x}"`).join(", ")}`;
  }
  switch (type.name) {
    case "char":
    case "varchar":
      if (type.length === undefined) return undefined;
      return (v) =>
        typeof v === "string" && [...v].length > (type.length as number)
          ? `must be at most ${type.length} characters`
          : undefined;
    case "smallint":
    case "integer":
    case "bigint": {
      const [min, max] = INTEGER_BOUNDS[type.name];
      return (v) => {
        const n = typeof v === "string" ? Number(v) : v;
        if (typeof n !== "number" || !Number.isInteger(n)) return "must be an integer";
        return n < min || n > max ? `must be between ${min} and ${max}` : undefined;
      };
    }
    case "numeric": {
      if (type.precision === undefined) return undefined;
      const digits = type.precision - (type.scale ?? 0);
      return (v) => {
        const n = typeof v === "string" ? Number(v) : v;
        if (typeof n !== "number" || !Number.isFinite(n)) return "must be a number";
        return Math.abs(n) >= 10 ** digits
          ? `must have at most ${digits} digits before the decimal point`
          : undefined;
      };
    }
    case "boolean":
      return (v) => (typeof v === "boolean" ? undefined : "must be a boolean");
    case "date":
    case "timestamp":
    case "timestamptz":
    case "time":
      return temporalCheck(type.name);
    default:
      return undefined;
  }
}

/** Text a date, timestamp or time column accepts: real days, hours below 24 (shared with globals). */
export function temporalCheck(name: "date" | "timestamp" | "timestamptz" | "time"): Check {
  switch (name) {
    case "date":
      return (v) => {
        const m = typeof v === "string" ? DATE.exec(v) : null;
        return m && validDate(m[1] as string, m[2] as string, m[3] as string)
          ? undefined
          : "must be a date (YYYY-MM-DD)";
      };
    case "timestamp":
    case "timestamptz":
      return (v) => {
        const m = typeof v === "string" ? TIMESTAMP.exec(v) : null;
        const ok =
          m &&
          validDate(m[1] as string, m[2] as string, m[3] as string) &&
          Number(m[4] ?? 0) < 24 &&
          Number(m[5] ?? 0) < 60 &&
          Number(m[6] ?? 0) < 60;
        return ok ? undefined : "must be an ISO 8601 date and time";
      };
    case "time":
      return (v) => {
        const m = typeof v === "string" ? TIME.exec(v) : null;
        return m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3] ?? 0) < 60
          ? undefined
          : "must be a time (HH:MM[:SS])";
      };
  }
}

/**
 * The route's column checks, compiled once: `(params) => details` for the values that break them,
 * undefined when all pass. Null values pass (nullability is the declared `isNullable`'s business,
 * and NOT NULL the database's).
 */
export function compileColumnChecks(
  route: StandardRoute,
  writes: readonly ParamWrite[],
): (params: Record<string, unknown>) => ErrorDetails | undefined {
  const assigned = new Set(route.assignments.map((a) => a.name));
  // A parameter an assignment reads (`companyId = $companyId`) is the assignment's input: allowed.
  const read = new Set(
    route.assignments.flatMap((a) =>
      typeof a.value === "string" && /^\s*\$/.test(a.value) ? [a.value.trim().slice(1)] : [],
    ),
  );
  const declaredAssigned = route.request
    .filter((p) => assigned.has(p.name) && !read.has(p.name))
    .map((p) => p.name);
  // Also a parameter written through an assignment (`label = $tag`): checked against `label`.
  const checks = writes.flatMap((p) => {
    const check = columnCheck(p.column);
    return check ? [{ name: p.param, check }] : [];
  });
  // No closure made per request: tsx names each one it makes (esbuild's keepNames, a
  // defineProperty call), which the write bench's profile showed here.
  return (params) => {
    let details: ErrorDetails | undefined;
    for (const name of declaredAssigned) {
      if (!Object.hasOwn(params, name)) continue;
      details = details ?? {};
      details[name] = ASSIGNED;
    }
    for (const { name, check } of checks) {
      const value = params[name];
      if (value === undefined || value === null || !Object.hasOwn(params, name)) continue;
      const problem = check(value);
      if (problem === undefined) continue;
      details = details ?? {};
      details[name] = problem;
    }
    return details;
  };
}
