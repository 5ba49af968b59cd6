// JWT settings: what is accepted, and the exact message for each mistake.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { AppError } from "../../app/errors.ts";
import { describeAuthConfig, NO_AUTH_WARNING, readAuthConfig } from "../../gateway/auth/config.ts";
import { ec, lazy, rsa, SECRET } from "./fixtures/keys.ts";

function failure(env: Record<string, string | undefined>, options: { cwd?: string } = {}): string {
  try {
    readAuthConfig(env, options);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.message;
  }
  throw new Error("expected readAuthConfig to throw");
}

t.test("no key: none configured, with a warning to log (not an error)", async (t) => {
  t.same(readAuthConfig({}), { mode: "none", warning: NO_AUTH_WARNING });
  t.same(readAuthConfig({ JWT_SECRET: "", JWT_PUBLIC_KEY: "" }), { mode: "none", warning: NO_AUTH_WARNING });
  t.equal(
    describeAuthConfig(readAuthConfig({})),
    "authentication: none configured (every caller is anonymous)",
  );
});

t.test("settings that only make sense with a key stop start-up without one", async (t) => {
  t.equal(
    failure({ JWT_ISSUER: "https://id.example.com" }),
    "JWT_ISSUER is set but neither JWT_SECRET nor JWT_PUBLIC_KEY is: set one of them, or remove it",
  );
  t.equal(
    failure({ JWT_ALGORITHM: "RS256", JWT_AUDIENCE: "api" }),
    "JWT_ALGORITHM, JWT_AUDIENCE are set but neither JWT_SECRET nor JWT_PUBLIC_KEY is: set one of them, or remove them",
  );
});

t.test("JWT_SECRET: HS256, at least 32 bytes", async (t) => {
  const config = readAuthConfig({ JWT_SECRET: SECRET });
  t.equal(config.mode, "jwt");
  if (config.mode !== "jwt") return;
  t.equal(config.algorithm, "HS256");
  t.equal(config.key.type, "secret");
  t.equal(config.key.symmetricKeySize, Buffer.byteLength(SECRET));
  t.equal(config.clockTolerance, 0);
  t.equal(config.issuer, undefined);
  t.equal(config.audience, undefined);
  t.equal(describeAuthConfig(config), "authentication: JWT HS256 (JWT_SECRET)");
  t.equal(readAuthConfig({ JWT_SECRET: SECRET, JWT_ALGORITHM: "HS256" }).mode, "jwt");

  t.equal(
    failure({ JWT_SECRET: "x".repeat(31) }),
    "JWT_SECRET is 31 bytes long; HS256 needs at least 32 bytes (256 bits), or the secret can be guessed " +
      "offline from any one token and tokens forged. Generate one with: openssl rand -base64 48",
  );
  // Bytes, not characters: 16 two-byte characters are enough, 16 ASCII ones are not.
  t.equal(readAuthConfig({ JWT_SECRET: "é".repeat(16) }).mode, "jwt");
  t.match(failure({ JWT_SECRET: "e".repeat(16) }), /^JWT_SECRET is 16 bytes long;/);
  t.notMatch(failure({ JWT_SECRET: "tooshort" }), /tooshort/, "the secret is never echoed");
});

t.test("both keys, or a mismatching JWT_ALGORITHM", async (t) => {
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_PUBLIC_KEY: rsa.publicPem }),
    "JWT_SECRET and JWT_PUBLIC_KEY are both set: set only one (JWT_SECRET for HS256, JWT_PUBLIC_KEY for RS256 or ES256)",
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_ALGORITHM: "RS256" }),
    "JWT_ALGORITHM is RS256 but JWT_SECRET is set: JWT_SECRET is an HS256 secret; RS256 needs JWT_PUBLIC_KEY",
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: rsa.publicPem, JWT_ALGORITHM: "HS256" }),
    "JWT_ALGORITHM is HS256 but JWT_PUBLIC_KEY is set: HS256 needs JWT_SECRET; a public key takes RS256 or ES256",
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: rsa.publicPem, JWT_ALGORITHM: "ES256" }),
    "JWT_ALGORITHM is ES256 but JWT_PUBLIC_KEY is an RSA key (RS256)",
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: ec.publicPem, JWT_ALGORITHM: "RS256" }),
    "JWT_ALGORITHM is RS256 but JWT_PUBLIC_KEY is an EC key (ES256)",
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_ALGORITHM: "rs256" }),
    'JWT_ALGORITHM must be one of HS256, RS256, ES256 (got "rs256")',
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_ALGORITHM: "none" }),
    'JWT_ALGORITHM must be one of HS256, RS256, ES256 (got "none")',
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_ALGORITHM: "HS512" }),
    'JWT_ALGORITHM must be one of HS256, RS256, ES256 (got "HS512")',
  );
});

t.test("JWT_PUBLIC_KEY as PEM text: the algorithm follows the key", async (t) => {
  const rs = readAuthConfig({ JWT_PUBLIC_KEY: rsa.publicPem });
  const es = readAuthConfig({ JWT_PUBLIC_KEY: ec.publicPem });
  t.match(rs, { mode: "jwt", algorithm: "RS256", keySource: "JWT_PUBLIC_KEY" });
  t.match(es, { mode: "jwt", algorithm: "ES256", keySource: "JWT_PUBLIC_KEY" });
  t.match(readAuthConfig({ JWT_PUBLIC_KEY: rsa.publicPem, JWT_ALGORITHM: "RS256" }), { algorithm: "RS256" });
  t.match(readAuthConfig({ JWT_PUBLIC_KEY: ec.publicPem, JWT_ALGORITHM: "ES256" }), { algorithm: "ES256" });
  // One line with literal \n, as many deployment tools store multi-line values.
  const oneLine = rsa.publicPem.trim().replaceAll("\n", "\\n");
  t.notMatch(oneLine, /\n/);
  t.match(readAuthConfig({ JWT_PUBLIC_KEY: oneLine }), { algorithm: "RS256" });
  t.match(readAuthConfig({ JWT_PUBLIC_KEY: `\n  ${ec.publicPem}  \n` }), { algorithm: "ES256" });
});

t.test("JWT_PUBLIC_KEY as a file path, relative to the app directory", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-auth-key-"));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, "keys"));
  fs.writeFileSync(path.join(dir, "keys", "jwt.pem"), ec.publicPem);
  const config = readAuthConfig({ JWT_PUBLIC_KEY: "keys/jwt.pem" }, { cwd: dir });
  t.match(config, { mode: "jwt", algorithm: "ES256", keySource: "JWT_PUBLIC_KEY (file keys/jwt.pem)" });
  t.equal(describeAuthConfig(config), "authentication: JWT ES256 (JWT_PUBLIC_KEY (file keys/jwt.pem))");
  t.match(readAuthConfig({ JWT_PUBLIC_KEY: path.join(dir, "keys", "jwt.pem") }), { algorithm: "ES256" });

  t.equal(
    failure({ JWT_PUBLIC_KEY: "keys/missing.pem" }, { cwd: dir }),
    'JWT_PUBLIC_KEY is neither PEM text ("-----BEGIN PUBLIC KEY-----...") nor a readable file (got "keys/missing.pem": ENOENT)',
  );
  fs.writeFileSync(path.join(dir, "keys", "empty.pem"), "not a key\n");
  t.equal(
    failure({ JWT_PUBLIC_KEY: "keys/empty.pem" }, { cwd: dir }),
    `JWT_PUBLIC_KEY (file ${path.join(dir, "keys", "empty.pem")}) holds no PEM block ("-----BEGIN ...")`,
  );
  // Base64 DER without the PEM armour reads as a (missing) file name; the message says what was expected.
  // Which error the file system gives depends on the random key: ENOENT, or ENAMETOOLONG when more
  // than 255 characters pass without a "/" (one path component too long).
  const der = rsa.publicPem.split("\n").slice(1, -2).join("");
  t.match(
    failure({ JWT_PUBLIC_KEY: der }, { cwd: dir }),
    /^JWT_PUBLIC_KEY is neither PEM text .* \(got "[A-Za-z0-9+/]{57}\.\.\.": (ENOENT|ENAMETOOLONG)\)$/,
  );
});

t.test("JWT_PUBLIC_KEY: private keys, broken PEM, unsupported or weak keys", async (t) => {
  const privatePem = rsa.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  t.equal(
    failure({ JWT_PUBLIC_KEY: privatePem }),
    "JWT_PUBLIC_KEY holds a private key: give the service only the public key " +
      "(openssl pkey -in private.pem -pubout -out public.pem)",
  );
  const pkcs1 = rsa.privateKey.export({ type: "pkcs1", format: "pem" }) as string;
  t.match(failure({ JWT_PUBLIC_KEY: pkcs1 }), /^JWT_PUBLIC_KEY holds a private key/);
  t.match(
    failure({ JWT_PUBLIC_KEY: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----" }),
    /^JWT_PUBLIC_KEY is not a valid PEM public key: /,
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: lazy.rsa1024().publicPem }),
    "JWT_PUBLIC_KEY is a 1024-bit RSA key; RS256 needs at least 2048 bits",
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: lazy.p384().publicPem }),
    "JWT_PUBLIC_KEY is an EC key on curve secp384r1; ES256 needs P-256 (prime256v1)",
  );
  t.equal(
    failure({ JWT_PUBLIC_KEY: lazy.ed25519().publicPem }),
    "JWT_PUBLIC_KEY is an ed25519 key; supported are RSA keys (RS256) and EC P-256 keys (ES256)",
  );
});

t.test("JWT_ISSUER, JWT_AUDIENCE: one value or a comma-separated list", async (t) => {
  const config = readAuthConfig({
    JWT_SECRET: SECRET,
    JWT_ISSUER: "https://id.example.com",
    JWT_AUDIENCE: "api, admin-api",
  });
  t.match(config, { issuer: ["https://id.example.com"], audience: ["api", "admin-api"] });
  t.equal(
    describeAuthConfig(config),
    "authentication: JWT HS256 (JWT_SECRET), issuer https://id.example.com, audience api | admin-api",
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_AUDIENCE: "api,,admin" }),
    'JWT_AUDIENCE must be one value or a comma-separated list without empty entries (got "api,,admin")',
  );
  t.equal(
    failure({ JWT_SECRET: SECRET, JWT_ISSUER: " , " }),
    'JWT_ISSUER must be one value or a comma-separated list without empty entries (got " , ")',
  );
});

t.test("JWT_CLOCK_TOLERANCE: whole seconds, 0 to 300", async (t) => {
  t.match(readAuthConfig({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: "30" }), { clockTolerance: 30 });
  t.match(readAuthConfig({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: "300" }), { clockTolerance: 300 });
  t.match(readAuthConfig({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: "" }), { clockTolerance: 0 });
  t.equal(
    describeAuthConfig(readAuthConfig({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: "5" })),
    "authentication: JWT HS256 (JWT_SECRET), clock tolerance 5 s",
  );
  for (const bad of ["301", "-1", "1.5", "10s", "abc"]) {
    t.equal(
      failure({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: bad }),
      `JWT_CLOCK_TOLERANCE must be a whole number of seconds from 0 to 300 (got "${bad}")`,
    );
  }
});
