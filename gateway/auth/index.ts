// Authentication: settings, the built-in JWT handler, a custom src/auth.ts, and what the gateway
// does with the result (docs/authentication.md).

export { globalNames, RESERVED_CLAIMS, readClaims } from "./claims.ts";
export {
  type AuthConfig,
  describeAuthConfig,
  JWT_ALGORITHMS,
  type JwtAlgorithm,
  type JwtConfig,
  type NoAuthConfig,
  readAuthConfig,
} from "./config.ts";
export * from "./context.ts";
export {
  AUTH_FILE,
  builtInAuthenticator,
  type CustomAuthHandler,
  customAuthenticator,
  loadAuthenticator,
} from "./custom.ts";
export { bearerToken, createJwtAuthenticator } from "./jwt.ts";
