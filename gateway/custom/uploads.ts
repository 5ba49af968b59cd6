// Multipart uploads for `fileUploadType` routes (docs/handlers.md): files stream to a temporary directory
// (one per request, removed after the request), other fields are collected as text for the
// route's request validation. SINGLE takes one file in field `file`, MULTIPLE up to the
// configured count in field `files`. Limits: 413 PAYLOAD_TOO_LARGE; a file in another field: 400.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../errors.ts";
import type { UploadedFile } from "./types.ts";

export interface UploadLimits {
  /** Largest file, in bytes. */
  maxBytes: number;
  /** Most files on a MULTIPLE route (SINGLE: 1). */
  maxFiles: number;
  /** Where the per-request temporary directories go (default: the OS's). */
  tmpDir?: string;
}

export interface Uploads {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
  /** The temporary directory; remove it with `removeUploads`. */
  dir: string;
}

const MAX_FIELDS = 100;
const MAX_FIELD_BYTES = 64 * 1024;

export async function readUploads(
  request: FastifyRequest,
  kind: "SINGLE" | "MULTIPLE",
  limits: UploadLimits,
): Promise<Uploads> {
  if (!request.isMultipart()) {
    throw new ApiError("BAD_REQUEST", "This route expects a multipart/form-data upload");
  }
  const field = kind === "SINGLE" ? "file" : "files";
  const maxFiles = kind === "SINGLE" ? 1 : limits.maxFiles;
  const dir = await fs.promises.mkdtemp(path.join(limits.tmpDir ?? os.tmpdir(), "api-upload-"));
  const fields: Record<string, string | string[]> = Object.create(null);
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxBytes,
        files: maxFiles,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: maxFiles + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type === "file") {
        if (part.fieldname !== field) {
          part.file.resume();
          throw new ApiError("BAD_REQUEST", `Send the file in the multipart field "${field}"`, {
            [part.fieldname]: `unexpected file field (expected "${field}")`,
          });
        }
        const target = path.join(dir, String(files.length));
        await pipeline(part.file, fs.createWriteStream(target));
        if (part.file.truncated) throw tooLarge(limits.maxBytes);
        const size = (await fs.promises.stat(target)).size;
        files.push({
          fieldName: part.fieldname,
          fileName: path.basename(part.filename || "upload"),
          contentType: part.mimetype,
          size,
          path: target,
        });
      } else {
        if (part.valueTruncated) throw new ApiError("PAYLOAD_TOO_LARGE", "A form field is too large");
        const value = String(part.value);
        const prior = fields[part.fieldname];
        fields[part.fieldname] = prior === undefined ? value : ([] as string[]).concat(prior, value);
      }
    }
  } catch (error) {
    await removeUploads(dir);
    throw mapUploadError(error, limits, maxFiles);
  }
  if (files.length === 0) {
    await removeUploads(dir);
    throw new ApiError("VALIDATION_ERROR", undefined, { [field]: "is required" });
  }
  return { fields, files, dir };
}

export async function removeUploads(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `A file is larger than the limit of ${maxBytes} bytes`);
}

function mapUploadError(error: unknown, limits: UploadLimits, maxFiles: number): ApiError {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(limits.maxBytes);
  if (code === "FST_FILES_LIMIT") {
    return new ApiError("PAYLOAD_TOO_LARGE", `Too many files: at most ${maxFiles} per request`);
  }
  if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") {
    return new ApiError("PAYLOAD_TOO_LARGE", "Too many form fields");
  }
  if (code === "FST_PROTO_VIOLATION") return new ApiError("BAD_REQUEST", "Malformed multipart field name");
  // Busboy's parse errors (malformed multipart): the client's fault.
  return new ApiError("BAD_REQUEST", "Malformed multipart body", undefined, { cause: error });
}
