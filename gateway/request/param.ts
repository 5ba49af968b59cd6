// One request parameter compiled to two readers: `text` for query-string, path and multipart
// values (coerced from text), `json` for JSON body values (type-checked, never coerced). Both
// return the value or an Invalid; null, absence and defaults are the caller's business.

import type { RequestParam } from "../../generator/schema/types.ts";
import type { Kind } from "./messages.ts";
import * as msg from "./messages.ts";
import {
  allChecks,
  boundCheck,
  type Check,
  countCheck,
  Invalid,
  jsonType,
  oneOfCheck,
  type Reader,
  textType,
} from "./values.ts";

/** Everything a parameter's readers are built from (a declaration, or a paged implicit one). */
export interface ParamDef {
  name: string;
  required: boolean;
  nullable: boolean;
  kind: Kind;
  isArray: boolean;
  oneOf?: readonly unknown[];
  min?: number;
  max?: number;
  /** Checks that run before the declared ones (paged implicit bounds). */
  implicitChecks?: Check[];
  /** Runs on text and on JSON strings before anything else (paged `sortOrder`: upper case). */
  normalize?: (s: string) => string;
  /** Applied when the parameter is absent (paged `page`, `perPage`, `sortOrder`). */
  fallback?: unknown;
}

export interface CompiledParam {
  name: string;
  required: boolean;
  nullable: boolean;
  fallback: unknown;
  text: (raw: unknown) => unknown;
  json: Reader;
}

const SINGLE = new Invalid(msg.SINGLE_VALUE);

/** A declared parameter's definition from its validators (TYPE_CHECK, ONE_OF, MIN, MAX). */
export function declaredDef(param: RequestParam): ParamDef {
  const def: ParamDef = {
    name: param.name,
    required: param.required,
    nullable: param.isNullable === true,
    kind: "any",
    isArray: false,
  };
  for (const v of param.validator) {
    switch (v.type) {
      case "TYPE_CHECK": {
        const type = String(v.value);
        def.isArray = type.endsWith("[]");
        def.kind = (def.isArray ? type.slice(0, -2) : type) as Kind;
        break;
      }
      case "ONE_OF":
        if (Array.isArray(v.value)) def.oneOf = v.value;
        break;
      case "MIN":
        if (typeof v.value === "number") def.min = v.value;
        break;
      case "MAX":
        if (typeof v.value === "number") def.max = v.value;
        break;
    }
  }
  return def;
}

export function compileParam(def: ParamDef): CompiledParam {
  const valueChecks: Check[] = [...(def.implicitChecks ?? [])];
  if (def.oneOf) valueChecks.push(oneOfCheck(def.oneOf));
  const countChecks: Check[] = [];
  for (const [which, bound] of [
    ["MIN", def.min],
    ["MAX", def.max],
  ] as const) {
    if (bound === undefined) continue;
    if (def.isArray) countChecks.push(countCheck(which, bound));
    else {
      const check = boundCheck(def.kind, which, bound);
      if (check) valueChecks.push(check);
    }
  }
  const check = allChecks(valueChecks);
  const parse = textType(def.kind, def.oneOf);
  const typed = jsonType(def.kind);
  const norm = def.normalize;

  // One value: type (coercion for text), then the value checks.
  const fromText = (s: string): unknown => {
    const v = parse(norm ? norm(s) : s);
    if (v instanceof Invalid || check === undefined) return v;
    const message = check(v);
    return message === undefined ? v : new Invalid(message);
  };
  const fromJson = (raw: unknown): unknown => {
    const v = typed(norm && typeof raw === "string" ? norm(raw) : raw);
    if (v instanceof Invalid || check === undefined) return v;
    const message = check(v);
    return message === undefined ? v : new Invalid(message);
  };

  const base = {
    name: def.name,
    required: def.required,
    nullable: def.nullable,
    fallback: def.required ? undefined : def.fallback,
  };
  if (!def.isArray) {
    return {
      ...base,
      text: (raw) => (typeof raw === "string" ? fromText(raw) : SINGLE),
      json: fromJson,
    };
  }

  const count = allChecks(countChecks);
  const notArray = new Invalid(msg.mustBeArrayOf(def.kind));
  const items = (list: readonly unknown[], one: (item: unknown) => unknown): unknown => {
    const out = new Array<unknown>(list.length);
    for (let i = 0; i < list.length; i++) {
      const v = one(list[i]);
      if (v instanceof Invalid) return new Invalid(msg.itemMessage(i, v.message));
      out[i] = v;
    }
    if (count !== undefined) {
      const message = count(out);
      if (message !== undefined) return new Invalid(message);
    }
    return out;
  };
  const textItem = (item: unknown): unknown => (typeof item === "string" ? fromText(item) : notArray);
  return {
    ...base,
    // Query strings: `a=1&a=2` (repeated key) or `a[]=1&a[]=2`; one value is a one-item array.
    text: (raw) => items(Array.isArray(raw) ? raw : [raw], textItem),
    json: (raw) => (Array.isArray(raw) ? items(raw, fromJson) : notArray),
  };
}
