// Custom routes under /api/v1/task: attaching files to a task (MULTIPLE upload).

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { HandlerContext, HandlerRequest, HandlerResponse } from "../../../../gateway/custom/types.ts";
import { checkUpload, type FileType, IMAGES, PDF, TEXT } from "../../fileTypes.ts";
import { uploadRoot } from "../../tokens.ts";

// What a task may have attached, recognised by content (fileTypes.ts). No HTML, SVG or scripts:
// text is stored as `.txt` whatever its name.
const ATTACHMENT_TYPES: readonly FileType[] = [...IMAGES, PDF, TEXT];

export default class TaskHandlers {
  private readonly uploads: string;

  constructor(context: HandlerContext) {
    this.uploads = uploadRoot(context.appDir);
  }

  async postTaskAttachments(req: HandlerRequest<{ id: number; note?: string }>, res: HandlerResponse) {
    // Read as the caller: another company's task is invisible (row policy), so it is a 404.
    const task = await req.db.query(`SELECT "id" FROM "task" WHERE "id" = $1`, [req.data.id]);
    if (task.rowCount === 0) return res.sendError("NOT_FOUND", "Task not found");
    const files = req.files ?? [];
    // Every file is checked before any is stored: a refused upload stores nothing.
    const types: FileType[] = [];
    const problems: Record<string, string> = {};
    for (const [i, file] of files.entries()) {
      const checked = await checkUpload(file, ATTACHMENT_TYPES);
      if ("problem" in checked) problems[`files[${i}]`] = checked.problem;
      else types.push(checked.type);
    }
    if (Object.keys(problems).length > 0) return res.sendError("VALIDATION_ERROR", undefined, problems);
    const dir = path.join(this.uploads, "tasks", String(req.data.id));
    await fs.promises.mkdir(dir, { recursive: true });
    const out = [];
    for (const [i, file] of files.entries()) {
      const type = types[i] as FileType;
      // The client's name is kept for display only; the stored name is ours, with the extension
      // of the type the content showed.
      const base =
        file.fileName
          .replace(/\.[^.]*$/, "")
          .replace(/[^\w.-]+/g, "_")
          .slice(-100) || "file";
      const stored = `${randomBytes(6).toString("hex")}-${base}${type.extension}`;
      await fs.promises.copyFile(file.path, path.join(dir, stored));
      out.push({
        fileName: file.fileName,
        contentType: type.contentType,
        sizeBytes: file.size,
        url: `/uploads/tasks/${req.data.id}/${stored}`,
      });
    }
    res.sendData(out);
  }
}
