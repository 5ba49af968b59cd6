// Custom-route handler naming (docs/handlers.md): lowercase method + path segments in PascalCase,
// parameters and `-` removed. `POST /user/refresh-token` -> `postUserRefreshToken`.

export function handlerMethodName(method: string, path: string): string {
  const words = path
    .split("/")
    .filter((segment) => segment !== "" && !segment.startsWith(":"))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9_$]+/))
    .filter((word) => word !== "");
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
}

/** The first path segment, which names the handler file (`/user/me` -> `user`). */
export function handlerFileSegment(path: string): string {
  return path.split("/").find((segment) => segment !== "") ?? "";
}
