// Choosing the authentication handler: the app's own `src/auth.ts` when it exists, otherwise the
// built-in JWT handler (docs/authentication.md#a-custom-handler-srcauthts).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { AppError } from "../../app/errors.ts";
import type { Schema } from "../../generator/schema/types.ts";
import { globalNames, readClaims, typeName } from "./claims.ts";
import { type AuthConfig, describeAuthConfig, type Env, readAuthConfig } from "./config.ts";
import { createJwtAuthenticator, type JwtAuthenticatorOptions } from "./jwt.ts";
import {
  type Authenticator,
  AuthHandlerError,
  type AuthRequest,
  type AuthResult,
  type LoadedAuthenticator,
} from "./types.ts";

/** The custom handler's place in an application directory. */
export const AUTH_FILE = "src/auth.ts";

/** What `src/auth.ts` default-exports: the caller's global parameters, or a throw. */
export type CustomAuthHandler = (request: {
  headers: AuthRequest["headers"];
  method: string;
  url: string;
}) => unknown;

export async function loadAuthenticator(
  appDir: string,
  schema: Pick<Schema, "globalParams">,
  env: Env = process.env,
): Promise<LoadedAuthenticator> {
  const file = path.join(appDir, AUTH_FILE);
  if (fs.existsSync(file)) {
    // The custom handler owns its settings: JWT_* are not read (its own code may use them).
    const handler = await importHandler(file);
    return Object.assign(customAuthenticator(handler, schema.globalParams), {
      kind: "custom" as const,
      summary: `authentication: custom handler ${AUTH_FILE}`,
    });
  }
  const config = readAuthConfig(env, { cwd: appDir });
  return builtInAuthenticator(config, schema.globalParams);
}

/** The built-in JWT handler as the gateway calls it. */
export function builtInAuthenticator(
  config: AuthConfig,
  globalParams: readonly string[],
  options: JwtAuthenticatorOptions = {},
): LoadedAuthenticator {
  const fromHeaders = createJwtAuthenticator(config, globalParams, options);
  const authenticate: Authenticator = (request) => fromHeaders(authorizationHeaders(request));
  return Object.assign(authenticate, {
    kind: config.mode,
    summary: describeAuthConfig(config),
    ...(config.mode === "none" ? { warning: config.warning } : {}),
  });
}

/**
 * A custom handler in the gateway's shape. It throws: the caller is anonymous (`invalid`, or
 * `expired` / `not_yet_valid` for jsonwebtoken's TokenExpiredError / NotBeforeError). It
 * returns something that is not a valid user: AuthHandlerError (a 500), so a bug never
 * passes as an anonymous caller or as a user with missing permissions.
 */
export function customAuthenticator(
  handler: CustomAuthHandler,
  globalParams: readonly string[],
  file = AUTH_FILE,
): (request: AuthRequest) => Promise<AuthResult> {
  const names = globalNames(globalParams);
  return async (request): Promise<AuthResult> => {
    let returned: unknown;
    try {
      returned = await handler({ headers: request.headers, method: request.method, url: request.url });
    } catch (error) {
      return thrown(error, file);
    }
    if (typeof returned !== "object" || returned === null || Array.isArray(returned)) {
      throw new AuthHandlerError(
        `${file} returned ${typeName(returned)}: it must return the caller's global parameters as an object, ` +
          "or throw when it cannot authenticate",
      );
    }
    const read = readClaims(returned as Record<string, unknown>, names);
    if (!read.ok) throw new AuthHandlerError(`${file} returned an invalid user: ${read.error}`);
    return { user: read.user };
  };
}

async function importHandler(file: string): Promise<CustomAuthHandler> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    throw new AppError(`cannot load ${file}: ${(error as Error).message}`, { cause: error });
  }
  // A .ts file in a directory without "type": "module" compiles to CommonJS; some loaders then
  // hand its `export default` over as `default.default`.
  let handler = module.default;
  if (typeof handler !== "function" && typeof handler === "object" && handler !== null) {
    handler = (handler as Record<string, unknown>).default;
  }
  if (typeof handler !== "function") {
    throw new AppError(
      `${file} must default-export the authentication handler: export default async function (request) { ... }`,
    );
  }
  return handler as CustomAuthHandler;
}

function thrown(error: unknown, file: string): AuthResult {
  const name = error instanceof Error ? error.name : undefined;
  const detail = `${file} threw: ${error instanceof Error ? error.message : String(error)}`;
  if (name === "TokenExpiredError") return { anonymous: true, reason: "expired", detail };
  if (name === "NotBeforeError") return { anonymous: true, reason: "not_yet_valid", detail };
  return { anonymous: true, reason: "invalid", detail };
}

/**
 * The Authorization header as sent, repeats included (`headers` keeps only the first). Read from
 * Node's `rawHeaders`, the list it parsed: its `headersDistinct` would build every header's list
 * on every request for this one.
 */
function authorizationHeaders(request: AuthRequest): AuthRequest["headers"] {
  const raw = request.raw?.rawHeaders;
  if (!raw) return request.headers;
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 13 && name.toLowerCase() === "authorization") values.push(raw[i + 1] as string);
  }
  return values.length > 0 ? { authorization: values } : {};
}
