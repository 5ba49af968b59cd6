// `requestType` validation: the custom type is converted to JSON Schema
// (generator/schema/typeSchema.ts) and compiled with ajv once, at start-up. The whole JSON body
// is the input; a problem is a 422 VALIDATION_ERROR with one message per field path.

import { Ajv, type ErrorObject } from "ajv";
import { typeToJsonSchema } from "../../generator/schema/typeSchema.ts";
import type { CustomRoute } from "../../generator/schema/types.ts";
import type { ErrorDetails } from "../errors.ts";
import { type RequestValidator, validationError } from "../request/index.ts";
import * as msg from "../request/messages.ts";

// strictNumbers: JSON's 1e999 parses to Infinity, which is not a number any handler can store.
const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true });

/** A RequestOptions.requestType: compiles the route's type once; throws if it is unsupported. */
export function requestTypeValidator(customTypes: readonly string[]) {
  return (route: CustomRoute): RequestValidator => {
    const name = route.requestType as string;
    let validate: ReturnType<typeof ajv.compile>;
    try {
      validate = ajv.compile(typeToJsonSchema(customTypes, name));
    } catch (error) {
      throw new Error(`${route.method} ${route.path}: requestType ${name}: ${(error as Error).message}`);
    }
    return (input) => {
      const body = input.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        return { ok: false, error: validationError({ body: msg.BODY_NOT_OBJECT }) };
      }
      if (validate(body)) {
        // As for declared parameters: an integer past 2^53 has already lost digits in JSON.parse.
        const inexact = inexactIntegers(body);
        if (inexact) return { ok: false, error: validationError(inexact) };
        return { ok: true, params: body as Record<string, unknown> };
      }
      return { ok: false, error: validationError(details(validate.errors ?? [])) };
    };
  };
}

/** Integers beyond ±(2^53 - 1) anywhere in the body, by field path (`projectIds[1]`). */
function inexactIntegers(body: object): ErrorDetails | undefined {
  let found: ErrorDetails | undefined;
  const stack: [unknown, string][] = [[body, ""]];
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, string];
    if (typeof value === "number") {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        found ??= {};
        found[at || "body"] = msg.OUT_OF_RANGE;
      }
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], `${at}[${i}]`]);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) stack.push([item, at === "" ? key : `${at}.${key}`]);
    }
  }
  return found;
}

/** `/projectIds/1` -> `projectIds[1]`; the first message per field wins. */
function details(errors: ErrorObject[]): ErrorDetails {
  const out: ErrorDetails = {};
  const put = (key: string, message: string) => {
    if (!Object.hasOwn(out, key))
      Object.defineProperty(out, key, {
        value: message,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };
  for (const e of errors) {
    const at = e.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === "" ? s : `${acc}.${s}`), "");
    const join = (name: string) => (at === "" ? name : `${at}.${name}`);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") put(join(String(params.missingProperty)), msg.REQUIRED);
    else if (e.keyword === "additionalProperties") put(join(String(params.additionalProperty)), msg.UNKNOWN);
    else if (e.keyword === "enum") put(at || "body", msg.oneOf(params.allowedValues as unknown[]));
    else if (e.keyword === "const") put(at || "body", `must be ${JSON.stringify(params.allowedValue)}`);
    else if (e.keyword === "type") put(at || "body", `must be ${typeWords(params.type)}`);
    else put(at || "body", e.message ?? "is invalid");
  }
  return out;
}

function typeWords(type: unknown): string {
  const list = Array.isArray(type) ? type : String(type).split(",");
  const word = (t: string) =>
    t === "null"
      ? "null"
      : t === "array"
        ? "an array"
        : t === "object" || t === "integer"
          ? `an ${t}`
          : `a ${t}`;
  return list.map((t) => word(String(t))).join(" or ");
}
