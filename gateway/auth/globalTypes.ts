// A caller's global parameters against the types the schema compares them with. Row policies
// and route functions cast `#companyId` to the column's type (`api.ctx_text('companyId')::bigint`,
// generator/api/globals.ts); a value that does not cast (`"1 OR 1=1"`, `1.5`, `true`) would fail
// there, in the database, as a 500 on every request of that caller. It is checked here instead,
// once per request, before any SQL: such credentials do not describe a caller this schema can
// have, so the caller is treated as presenting invalid credentials (401, the reason logged).

import { buildModel } from "../../generator/model/index.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { temporalCheck } from "../request/columns.ts";
import type { GlobalValue } from "./types.ts";

type GlobalCheck = (value: GlobalValue) => string | undefined;

const INTEGER_BOUNDS: Record<string, readonly [bigint, bigint]> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};

const INTEGER_TEXT = /^-?\d{1,20}$/;
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function integerCheck(type: string): GlobalCheck {
  const [min, max] = INTEGER_BOUNDS[type] as readonly [bigint, bigint];
  const message = `must be an integer from ${min} to ${max} (it is compared with ${type} columns)`;
  return (v) => {
    // Large ids may come as strings (beyond 2^53 a JSON number is not exact).
    const text = typeof v === "number" && Number.isSafeInteger(v) ? String(v) : v;
    if (typeof text !== "string" || !INTEGER_TEXT.test(text)) return message;
    const n = BigInt(text);
    return n < min || n > max ? message : undefined;
  };
}

function checkFor(type: string): GlobalCheck | undefined {
  if (INTEGER_BOUNDS[type]) return integerCheck(type);
  switch (type) {
    case "numeric":
    case "real":
    case "double precision": {
      const message = `must be a number (it is compared with ${type} columns)`;
      return (v) =>
        (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && NUMBER_TEXT.test(v))
          ? undefined
          : message;
    }
    case "boolean": {
      const message = "must be true or false (it is compared with boolean columns)";
      return (v) => (typeof v === "boolean" || v === "true" || v === "false" ? undefined : message);
    }
    case "uuid": {
      const message = "must be a UUID (it is compared with uuid columns)";
      return (v) => (typeof v === "string" && UUID.test(v) ? undefined : message);
    }
    case "date":
    case "timestamp":
    case "timestamptz":
    case "time": {
      const check = temporalCheck(type);
      return (v) => {
        const problem = check(v);
        return problem === undefined ? undefined : `${problem} (it is compared with ${type} columns)`;
      };
    }
    default:
      // text (any scalar reads as text), and types no global is sensibly compared with.
      return undefined;
  }
}

/**
 * `(globals) => problem | undefined` for the schema: the first global whose value does not fit
 * its type, as `claim "companyId" must be ...`. Null and absent globals pass (a route that needs
 * one answers 401 itself).
 */
export function globalTypeChecker(
  schema: Schema,
): (globals: Readonly<Record<string, GlobalValue>>) => string | undefined {
  const checks: [string, GlobalCheck][] = [];
  for (const [name, type] of buildModel(schema).globalTypes) {
    const check = checkFor(type);
    if (check && schema.globalParams.includes(name)) checks.push([name, check]);
  }
  return (globals) => {
    for (const [name, check] of checks) {
      if (!Object.hasOwn(globals, name)) continue;
      const value = globals[name] as GlobalValue;
      if (value === null) continue;
      const problem = check(value);
      if (problem) return `claim "${name}" ${problem}`;
    }
    return undefined;
  };
}
