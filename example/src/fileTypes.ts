// What an uploaded file is, read from its bytes (the "magic numbers" at its start), never from
// the content type or the file name the client declared: anyone can call an HTML page
// `image/png`. The upload handlers accept a file only when its bytes show one of their allowed
// types AND that type is the one declared, and store it under the extension of that type.

import fs from "node:fs";

export interface FileType {
  contentType: string;
  /** The extension the file is stored under, whatever the client named it. */
  extension: string;
}

export const PNG: FileType = { contentType: "image/png", extension: ".png" };
export const JPEG: FileType = { contentType: "image/jpeg", extension: ".jpg" };
export const GIF: FileType = { contentType: "image/gif", extension: ".gif" };
export const WEBP: FileType = { contentType: "image/webp", extension: ".webp" };
export const PDF: FileType = { contentType: "application/pdf", extension: ".pdf" };
/** UTF-8 text without control characters (tab, line breaks and form feed allowed). */
export const TEXT: FileType = { contentType: "text/plain", extension: ".txt" };

export const IMAGES: readonly FileType[] = [PNG, JPEG, GIF, WEBP];

const bytesAt = (head: Buffer, offset: number, bytes: readonly number[]) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
const asciiAt = (head: Buffer, offset: number, text: string) =>
  bytesAt(head, offset, [...Buffer.from(text, "latin1")]);

const SIGNATURES: { type: FileType; matches: (head: Buffer) => boolean }[] = [
  { type: PNG, matches: (h) => bytesAt(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: JPEG, matches: (h) => bytesAt(h, 0, [0xff, 0xd8, 0xff]) },
  { type: GIF, matches: (h) => asciiAt(h, 0, "GIF87a") || asciiAt(h, 0, "GIF89a") },
  { type: WEBP, matches: (h) => asciiAt(h, 0, "RIFF") && asciiAt(h, 8, "WEBP") },
  { type: PDF, matches: (h) => asciiAt(h, 0, "%PDF-") },
];

const HEAD_BYTES = 16;
// C0 controls other than tab, LF, FF, CR; DEL. NUL in particular marks binary content.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/;

function isText(bytes: Buffer): boolean {
  try {
    return !CONTROL.test(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return false; // not UTF-8
  }
}

async function readHead(filePath: string): Promise<Buffer> {
  const handle = await fs.promises.open(filePath, "r");
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The type the file's bytes show, among `allowed`; undefined when none of them. */
export async function sniff(filePath: string, allowed: readonly FileType[]): Promise<FileType | undefined> {
  const head = await readHead(filePath);
  const signed = SIGNATURES.find((s) => s.matches(head));
  if (signed) return allowed.includes(signed.type) ? signed.type : undefined;
  // Text has no signature: the whole file must decode (uploads are bounded by UPLOAD_MAX_BYTES).
  if (allowed.includes(TEXT) && isText(await fs.promises.readFile(filePath))) return TEXT;
  return undefined;
}

/** A declared content type, comparable: lower case, parameters dropped, `image/jpg` is JPEG. */
export function declaredType(contentType: string): string {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type === "image/jpg" ? JPEG.contentType : type;
}

/**
 * An uploaded file checked against `allowed`: its type, or the message for the 422's details.
 * Its bytes must show an allowed type, and the declared content type must be that type.
 */
export async function checkUpload(
  file: { path: string; contentType: string },
  allowed: readonly FileType[],
): Promise<{ type: FileType } | { problem: string }> {
  const type = await sniff(file.path, allowed);
  if (!type) {
    return {
      problem: `must be one of: ${allowed.map((a) => a.contentType).join(", ")} (checked by content)`,
    };
  }
  const declared = declaredType(file.contentType);
  if (declared !== type.contentType) {
    // The declared type is not echoed: it is the client's text.
    return { problem: `its content is ${type.contentType}, which is not the declared content type` };
  }
  return { type };
}
