// The built-in JWT handler's settings, from the environment (docs/authentication.md#settings).
// Everything is checked at start-up: a malformed or unsafe value stops the service with a
// message naming the variable. An empty value counts as unset.

import { createPublicKey, createSecretKey, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../../app/errors.ts";

export const JWT_ALGORITHMS = ["HS256", "RS256", "ES256"] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** RFC 7518 section 3.2: an HS256 key at least as long as the hash, 256 bits. */
export const MIN_SECRET_BYTES = 32;
export const MIN_RSA_BITS = 2048;
export const MAX_CLOCK_TOLERANCE = 300;
/** JWT_MAX_TTL's upper bound: a year, in seconds. */
export const MAX_TTL_LIMIT = 366 * 24 * 3600;

export interface JwtConfig {
  mode: "jwt";
  /** The one algorithm tokens must use; the token's own `alg` header never chooses. */
  algorithm: JwtAlgorithm;
  /** A secret key for HS256, a public key for RS256/ES256. */
  key: KeyObject;
  /** Where the key came from, for the start-up log: `JWT_SECRET`, `JWT_PUBLIC_KEY (file x.pem)`. */
  keySource: string;
  /** Accepted `iss` values; unset: `iss` is not checked. */
  issuer?: string[];
  /** Accepted `aud` values (the token's must include one); unset: `aud` is not checked. */
  audience?: string[];
  /** Seconds of leeway on `exp` and `nbf`. */
  clockTolerance: number;
  /** Longest accepted lifetime left: `exp` at most this many seconds from now; unset: no bound. */
  maxTtl?: number;
}

/** No key configured: every token is rejected and every caller is anonymous. */
export interface NoAuthConfig {
  mode: "none";
  /** For the caller to log once at start-up. */
  warning: string;
}

export type AuthConfig = JwtConfig | NoAuthConfig;

export type Env = Readonly<Record<string, string | undefined>>;

export interface AuthConfigOptions {
  /** Base of a relative JWT_PUBLIC_KEY path; default process.cwd(). */
  cwd?: string;
}

export const NO_AUTH_WARNING =
  "neither JWT_SECRET nor JWT_PUBLIC_KEY is set: every token is rejected and every caller is anonymous, " +
  "so only public routes answer";

const DEPENDENT_SETTINGS = [
  "JWT_ALGORITHM",
  "JWT_ISSUER",
  "JWT_AUDIENCE",
  "JWT_CLOCK_TOLERANCE",
  "JWT_MAX_TTL",
] as const;

export function readAuthConfig(env: Env = process.env, options: AuthConfigOptions = {}): AuthConfig {
  const secret = setting(env, "JWT_SECRET");
  const publicKey = setting(env, "JWT_PUBLIC_KEY");
  const algorithm = readAlgorithm(env);
  const issuer = readList(env, "JWT_ISSUER");
  const audience = readList(env, "JWT_AUDIENCE");
  const clockTolerance = readTolerance(env);
  const maxTtl = readMaxTtl(env);

  if (secret !== undefined && publicKey !== undefined) {
    throw new AppError(
      "JWT_SECRET and JWT_PUBLIC_KEY are both set: set only one (JWT_SECRET for HS256, JWT_PUBLIC_KEY for RS256 or ES256)",
    );
  }
  if (secret === undefined && publicKey === undefined) {
    const stray = DEPENDENT_SETTINGS.filter((name) => setting(env, name) !== undefined);
    if (stray.length > 0) {
      throw new AppError(
        `${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} set but neither JWT_SECRET nor JWT_PUBLIC_KEY is: ` +
          `set one of them, or remove ${stray.length === 1 ? "it" : "them"}`,
      );
    }
    return { mode: "none", warning: NO_AUTH_WARNING };
  }

  const checks = {
    clockTolerance,
    ...(maxTtl !== undefined ? { maxTtl } : {}),
    ...(issuer ? { issuer } : {}),
    ...(audience ? { audience } : {}),
  };
  if (secret !== undefined) {
    if (algorithm !== undefined && algorithm !== "HS256") {
      throw new AppError(
        `JWT_ALGORITHM is ${algorithm} but JWT_SECRET is set: JWT_SECRET is an HS256 secret; ${algorithm} needs JWT_PUBLIC_KEY`,
      );
    }
    return { mode: "jwt", algorithm: "HS256", key: secretKey(secret), keySource: "JWT_SECRET", ...checks };
  }
  const { key, source } = publicKeyOf(publicKey as string, options.cwd ?? process.cwd());
  return { mode: "jwt", algorithm: publicKeyAlgorithm(key, algorithm), key, keySource: source, ...checks };
}

/** One line for the start-up log. */
export function describeAuthConfig(config: AuthConfig): string {
  if (config.mode === "none") return "authentication: none configured (every caller is anonymous)";
  const parts = [`JWT ${config.algorithm} (${config.keySource})`];
  if (config.issuer) parts.push(`issuer ${config.issuer.join(" | ")}`);
  if (config.audience) parts.push(`audience ${config.audience.join(" | ")}`);
  if (config.clockTolerance > 0) parts.push(`clock tolerance ${config.clockTolerance} s`);
  if (config.maxTtl !== undefined) parts.push(`max TTL ${config.maxTtl} s`);
  return `authentication: ${parts.join(", ")}`;
}

function secretKey(secret: string): KeyObject {
  const bytes = Buffer.from(secret, "utf8");
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new AppError(
      `JWT_SECRET is ${bytes.length} bytes long; HS256 needs at least ${MIN_SECRET_BYTES} bytes (256 bits), ` +
        "or the secret can be guessed offline from any one token and tokens forged. " +
        "Generate one with: openssl rand -base64 48",
    );
  }
  return createSecretKey(bytes);
}

/** PEM text (begins with `-----BEGIN`; `\n` escapes allowed on one line), else a file path. */
function publicKeyOf(raw: string, cwd: string): { key: KeyObject; source: string } {
  const text = raw.trim();
  let pem: string;
  let source: string;
  let where = "";
  if (text.startsWith("-----BEGIN")) {
    pem = text.includes("\n") ? text : text.replaceAll("\\n", "\n");
    source = "JWT_PUBLIC_KEY";
  } else {
    const file = path.resolve(cwd, text);
    try {
      pem = fs.readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new AppError(
        `JWT_PUBLIC_KEY is neither PEM text ("-----BEGIN PUBLIC KEY-----...") nor a readable file (got "${clip(text)}": ${code})`,
      );
    }
    source = `JWT_PUBLIC_KEY (file ${text})`;
    where = ` (file ${file})`;
  }
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(pem)) {
    throw new AppError(
      `JWT_PUBLIC_KEY${where} holds a private key: give the service only the public key ` +
        "(openssl pkey -in private.pem -pubout -out public.pem)",
    );
  }
  if (!pem.includes("-----BEGIN"))
    throw new AppError(`JWT_PUBLIC_KEY${where} holds no PEM block ("-----BEGIN ...")`);
  try {
    return { key: createPublicKey(pem), source };
  } catch (error) {
    throw new AppError(`JWT_PUBLIC_KEY${where} is not a valid PEM public key: ${(error as Error).message}`);
  }
}

function publicKeyAlgorithm(key: KeyObject, configured: JwtAlgorithm | undefined): JwtAlgorithm {
  const type = key.asymmetricKeyType;
  const inferred: JwtAlgorithm | undefined = type === "rsa" ? "RS256" : type === "ec" ? "ES256" : undefined;
  if (inferred === undefined) {
    throw new AppError(
      `JWT_PUBLIC_KEY is an ${type ?? "unknown"} key; supported are RSA keys (RS256) and EC P-256 keys (ES256)`,
    );
  }
  if (configured === "HS256") {
    throw new AppError(
      "JWT_ALGORITHM is HS256 but JWT_PUBLIC_KEY is set: HS256 needs JWT_SECRET; a public key takes RS256 or ES256",
    );
  }
  if (configured !== undefined && configured !== inferred) {
    throw new AppError(
      `JWT_ALGORITHM is ${configured} but JWT_PUBLIC_KEY is ${type === "rsa" ? "an RSA" : "an EC"} key (${inferred})`,
    );
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (inferred === "RS256" && (details.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw new AppError(
      `JWT_PUBLIC_KEY is a ${details.modulusLength}-bit RSA key; RS256 needs at least ${MIN_RSA_BITS} bits`,
    );
  }
  if (inferred === "ES256" && details.namedCurve !== "prime256v1") {
    throw new AppError(
      `JWT_PUBLIC_KEY is an EC key on curve ${details.namedCurve}; ES256 needs P-256 (prime256v1)`,
    );
  }
  return inferred;
}

function readAlgorithm(env: Env): JwtAlgorithm | undefined {
  const raw = setting(env, "JWT_ALGORITHM");
  if (raw === undefined) return undefined;
  if (!(JWT_ALGORITHMS as readonly string[]).includes(raw)) {
    throw new AppError(`JWT_ALGORITHM must be one of ${JWT_ALGORITHMS.join(", ")} (got "${clip(raw)}")`);
  }
  return raw as JwtAlgorithm;
}

/** A single value or a comma-separated list. */
function readList(env: Env, name: string): string[] | undefined {
  const raw = setting(env, name);
  if (raw === undefined) return undefined;
  const items = raw.split(",").map((item) => item.trim());
  if (items.some((item) => item === "")) {
    throw new AppError(
      `${name} must be one value or a comma-separated list without empty entries (got "${clip(raw)}")`,
    );
  }
  return items;
}

function readTolerance(env: Env): number {
  const raw = setting(env, "JWT_CLOCK_TOLERANCE");
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_CLOCK_TOLERANCE) {
    throw new AppError(
      `JWT_CLOCK_TOLERANCE must be a whole number of seconds from 0 to ${MAX_CLOCK_TOLERANCE} (got "${clip(raw)}")`,
    );
  }
  return Number(raw);
}

/** Whole seconds, 1 to MAX_TTL_LIMIT; unset: tokens may live as long as their issuer says. */
function readMaxTtl(env: Env): number | undefined {
  const raw = setting(env, "JWT_MAX_TTL");
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_TTL_LIMIT) {
    throw new AppError(
      `JWT_MAX_TTL must be a whole number of seconds from 1 to ${MAX_TTL_LIMIT} (got "${clip(raw)}")`,
    );
  }
  return Number(raw);
}

function setting(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === "" ? undefined : raw;
}

/** Error messages quote what was given, but never a whole key or a long value. */
function clip(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}
