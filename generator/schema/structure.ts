// Shape check with ajv: the file format (format.ts) is compiled once, at module load, and every
// ajv error becomes one diagnostic with a precise path and a plain message.

import { Ajv, type ErrorObject } from "ajv";
import { CUSTOM_ONLY, customRoute, FILE_FORMAT, STANDARD_ONLY, standardRoute } from "./format.ts";
import { describe, enumMessage } from "./messages.ts";
import { at, pointerToPath } from "./paths.ts";
import { closest } from "./suggest.ts";
import type { Diagnostic } from "./types.ts";

const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  strict: true,
  strictTypes: false,
  strictRequired: false,
});
const validateFormat = ajv.compile(FILE_FORMAT);

export function checkStructure(input: unknown): Diagnostic[] {
  if (validateFormat(input)) return [];
  const errors = validateFormat.errors ?? [];
  const out: Diagnostic[] = [];
  // A misspelt key that suggests a missing required one reports the typo only.
  const suggested = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== "additionalProperties") continue;
    const key = String(e.params.additionalProperty);
    const match = closest(key, knownProperties(e));
    if (match !== undefined) suggested.add(at(pointerToPath(e.instancePath), match));
    out.push({ path: at(pointerToPath(e.instancePath), key), message: unknownProperty(e, key, match) });
  }
  for (const e of errors) {
    const path = pointerToPath(e.instancePath);
    switch (e.keyword) {
      case "additionalProperties":
      case "if":
        break;
      case "required": {
        const key = String(e.params.missingProperty);
        if (!suggested.has(at(path, key)))
          out.push({ path: at(path, key), message: `missing required property "${key}"` });
        break;
      }
      case "type":
        out.push({ path, message: `expected ${typeList(String(e.params.type))}, got ${describe(e.data)}` });
        break;
      case "enum":
        out.push({ path, message: enumMessage(e.data, e.params.allowedValues as unknown[]) });
        break;
      case "minLength":
        out.push({ path, message: "expected a non-empty string" });
        break;
      case "minItems":
        out.push({ path, message: "expected a non-empty list" });
        break;
      default:
        out.push({ path, message: e.message ?? `invalid value (${e.keyword})` });
    }
  }
  return out;
}

function knownProperties(e: ErrorObject): string[] {
  const properties = (e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

function unknownProperty(e: ErrorObject, key: string, match: string | undefined): string {
  if (e.parentSchema === customRoute && STANDARD_ONLY.includes(key)) {
    return `unknown property "${key}" (only standard routes, of type ONE, ARRAY or PAGED, have it)`;
  }
  if (e.parentSchema === standardRoute && CUSTOM_ONLY.includes(key)) {
    return `unknown property "${key}" (only custom routes, of type CUSTOM_ONE, CUSTOM_ARRAY or CUSTOM_PAGED, have it)`;
  }
  return `unknown property "${key}"${match === undefined ? "" : ` (did you mean "${match}"?)`}`;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  array: "a list",
  object: "an object",
  null: "null",
};

function typeList(types: string): string {
  const words = types.split(",").map((t) => ARTICLE[t] ?? t);
  return words.length === 1 ? (words[0] as string) : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}
