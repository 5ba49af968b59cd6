// docs/schema.md "Deprecation": a deprecated route still works and says so in its response headers.

import type { Deprecation } from "../../generator/schema/types.ts";

export function deprecationHeaders(
  deprecation: Deprecation | undefined,
  baseUrl: string,
): Record<string, string> {
  if (!deprecation) return {};
  const headers: Record<string, string> = {
    Deprecation: "true",
    Sunset: new Date(deprecation.date).toISOString(),
  };
  if (deprecation.alternate) {
    // `alternate` is the replacement route's path, relative to the group's baseUrl like `path`.
    const target = deprecation.alternate.startsWith(baseUrl)
      ? deprecation.alternate
      : `${baseUrl}${deprecation.alternate}`;
    headers.Link = `<${target}>; rel="alternate"`;
  }
  return headers;
}
