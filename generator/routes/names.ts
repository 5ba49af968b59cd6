// The identifier of a route's SQL function: method and full path, e.g. `GET /api/v1/user/:id`,
// shortened to `<prefix> <8-hex hash>` past Postgres's 63-byte limit (the hash is of the full
// name, so two long names never collapse into one).

import { createHash } from "node:crypto";
import { joinUrl } from "../schema/routes.ts";
import type { EndpointGroup, Route } from "../schema/types.ts";

const MAX_IDENTIFIER_BYTES = 63;
const HASH_LENGTH = 8;

export function routeFunctionName(
  route: Pick<Route, "method" | "path">,
  group: Pick<EndpointGroup, "baseUrl">,
) {
  const name = `${route.method} ${joinUrl(group.baseUrl, route.path)}`;
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, HASH_LENGTH);
  const chars = Array.from(name);
  while (Buffer.byteLength(chars.join("")) > MAX_IDENTIFIER_BYTES - HASH_LENGTH - 1) chars.pop();
  return `${chars.join("")} ${hash}`;
}

/** The helper that builds a PAGED route's rows from their keys: `PAGE <path>` (no method is PAGE). */
export function pageFunctionName(route: Pick<Route, "path">, group: Pick<EndpointGroup, "baseUrl">) {
  return routeFunctionName({ method: "PAGE" as Route["method"], path: route.path }, group);
}
