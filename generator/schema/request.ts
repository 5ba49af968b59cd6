// Request parameters and their validators.

import { type Context, rejectedNames } from "./context.ts";
import { describe, invalidName } from "./messages.ts";
import { at } from "./paths.ts";
import { didYouMean } from "./suggest.ts";
import type { RequestParam, Validator } from "./types.ts";
import { IDENTIFIER } from "./values.ts";

const BASE_TYPES = ["string", "number", "boolean", "object"] as const;
const TYPE_CHECK_VALUES = [...BASE_TYPES, ...BASE_TYPES.map((t) => `${t}[]`)];

/** A route's request parameters by name (first of each name). */
export class Params extends Map<string, RequestParam> {
  /** False when the structure check rejected the list or a name: "not declared" would be noise. */
  complete = true;
}

/** Checks the request list and returns the parameters by name. */
export function checkRequest(ctx: Context, request: RequestParam[], path: string): Params {
  const params = new Params();
  params.complete = !rejectedNames(ctx.rejected, path, "name");
  request.forEach((param, i) => {
    const p = at(path, i);
    if (!IDENTIFIER.test(param.name))
      ctx.diag.error(at(p, "name"), invalidName("request parameter", param.name));
    if (params.has(param.name)) ctx.diag.error(at(p, "name"), `duplicate request parameter "${param.name}"`);
    else params.set(param.name, param);
    checkValidators(ctx, param.validator, at(p, "validator"));
  });
  return params;
}

function checkValidators(ctx: Context, list: Validator[], path: string): void {
  const { diag } = ctx;
  const seen = new Map<string, Validator>();
  list.forEach((v, i) => {
    const p = at(path, i);
    if (seen.has(v.type)) diag.error(at(p, "type"), `duplicate ${v.type} validator`);
    else seen.set(v.type, v);
    const vp = at(p, "value");
    switch (v.type) {
      case "TYPE_CHECK":
        if (typeof v.value !== "string" || !TYPE_CHECK_VALUES.includes(v.value)) {
          const hint = typeof v.value === "string" ? didYouMean(v.value, TYPE_CHECK_VALUES) : "";
          diag.error(
            vp,
            `expected "string", "number", "boolean", "object" or an array of one of them like "string[]", got ${describe(v.value)}${hint}`,
          );
        }
        break;
      case "ONE_OF":
        if (!Array.isArray(v.value) || v.value.length === 0) {
          diag.error(vp, `ONE_OF needs a non-empty list of allowed values, got ${describe(v.value)}`);
        }
        break;
      case "MIN":
      case "MAX":
        if (typeof v.value !== "number") diag.error(vp, `${v.type} needs a number, got ${describe(v.value)}`);
        break;
    }
  });
  const typeCheck = seen.get("TYPE_CHECK")?.value;
  const min = seen.get("MIN");
  const max = seen.get("MAX");
  if (typeof min?.value === "number" && typeof max?.value === "number" && max.value < min.value) {
    diag.error(at(at(path, list.indexOf(max)), "value"), `MAX ${max.value} is less than MIN ${min.value}`);
  }
  if (typeCheck === "boolean" || typeCheck === "object") {
    for (const bound of [min, max]) {
      if (bound)
        diag.error(
          at(at(path, list.indexOf(bound)), "type"),
          `${bound.type} does not apply to ${typeCheck} parameters`,
        );
    }
  }
  const oneOf = seen.get("ONE_OF");
  if (
    oneOf &&
    Array.isArray(oneOf.value) &&
    (typeCheck === "string" || typeCheck === "number" || typeCheck === "boolean")
  ) {
    oneOf.value.forEach((item, j) => {
      if (typeof item !== typeCheck) {
        diag.error(
          at(at(at(path, list.indexOf(oneOf)), "value"), j),
          `${describe(item)} does not match TYPE_CHECK "${typeCheck}"`,
        );
      }
    });
  }
}

/** True when the parameter's TYPE_CHECK is an array type (`number[]`). */
export function isArrayParam(param: RequestParam | undefined): boolean {
  const check = param?.validator.find((v) => v.type === "TYPE_CHECK");
  return typeof check?.value === "string" && check.value.endsWith("[]");
}
