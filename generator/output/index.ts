// What users generate from the model (docs/generated-output.md): the files of `<app>/generated/`,
// as text. Pure: app/generated.ts writes them.

import type { Model } from "../model/index.ts";
import { clientSource } from "./client.ts";
import { openApiSource } from "./openapi.ts";
import { typesSource } from "./types.ts";

export { clientSource } from "./client.ts";
export { openApiDocument, openApiSource } from "./openapi.ts";
export { routeTypeNames, typesSource } from "./types.ts";

/** File name (relative to `<app>/generated/`) -> content. */
export function generatedFiles(model: Model): Map<string, string> {
  return new Map([
    ["types.ts", typesSource(model)],
    ["client.ts", clientSource(model)],
    ["openapi.json", openApiSource(model)],
  ]);
}
