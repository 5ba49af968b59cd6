// Custom routes under /api/v1/task: attaching files to a task (MULTIPLE upload).

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { HandlerContext, HandlerRequest, HandlerResponse } from "../../../../gateway/custom/types.ts";
import { uploadRoot } from "../../tokens.ts";

export default class TaskHandlers {
  private readonly uploads: string;

  constructor(context: HandlerContext) {
    this.uploads = uploadRoot(context.appDir);
  }

  async postTaskAttachments(req: HandlerRequest<{ id: number; note?: string }>, res: HandlerResponse) {
    // Read as the caller: another company's task is invisible (row policy), so it is a 404.
    const task = await req.db.query(`SELECT "id" FROM "task" WHERE "id" = $1`, [req.data.id]);
    if (task.rowCount === 0) return res.sendError("NOT_FOUND", "Task not found");
    const dir = path.join(this.uploads, "tasks", String(req.data.id));
    await fs.promises.mkdir(dir, { recursive: true });
    const out = [];
    for (const file of req.files ?? []) {
      // The client's name is kept for display only; the stored name is ours.
      const safe = file.fileName.replace(/[^\w.-]+/g, "_").slice(-100) || "file";
      const stored = `${randomBytes(6).toString("hex")}-${safe}`;
      await fs.promises.copyFile(file.path, path.join(dir, stored));
      out.push({
        fileName: file.fileName,
        contentType: file.contentType,
        sizeBytes: file.size,
        url: `/uploads/tasks/${req.data.id}/${stored}`,
      });
    }
    res.sendData(out);
  }
}
