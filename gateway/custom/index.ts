// Custom routes (docs/handlers.md): handler loading, the handler contract, uploads.

export { type CallableRoute, callerSession, serviceDb } from "./db.ts";
export {
  describeProblem,
  type ExpectedHandler,
  expectedHandlers,
  groupVersion,
  type HandlerProblem,
  type LoadedHandlers,
  loadHandlers,
  routeKey,
} from "./load.ts";
export { requestTypeValidator } from "./requestType.ts";
export { compileCustomRoute } from "./route.ts";
export type * from "./types.ts";
export { readUploads, removeUploads, type UploadLimits } from "./uploads.ts";
