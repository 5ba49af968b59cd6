// Custom routes under /api/v1/user (docs/handlers.md): login, refresh, the session, the avatar upload.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import jwt from "jsonwebtoken";
import { MAX_PASSWORD_BYTES, passwordTooLong, verifyPassword } from "../../../../gateway/custom/hashPool.ts";
import type { HandlerContext, HandlerRequest, HandlerResponse } from "../../../../gateway/custom/types.ts";
import { checkUpload, IMAGES } from "../../fileTypes.ts";
import { issueTokens, type TokenUser, uploadRoot, verifyRefreshToken } from "../../tokens.ts";

interface UserRow {
  id: string;
  companyId: string;
  role: string;
  passwordHash: string;
  grantedScopes: unknown;
  isActive: boolean;
}

// Compared against when the email is unknown, so both failures take as long (bcrypt of "x").
const DUMMY_HASH = "$2b$10$5FujeGQT2nhh7NlfVQNstu1C.g2oHHQKHhPNMV7L7kxP//2jdD5Ha";
const INVALID = "Invalid email or password";

// The user's login fields. Read through req.service (the privileged connection): the caller is
// anonymous here and `passwordHash` is readable by nobody through the API. Scoped by the
// parameter; nothing from the client reaches the SQL text.
const USER_BY = (where: string) =>
  `SELECT "id", "companyId", "role", "passwordHash", "grantedScopes", "isActive" FROM public."user" WHERE ${where}`;

function tokenUser(row: UserRow): TokenUser {
  const scopes = Array.isArray(row.grantedScopes)
    ? row.grantedScopes.filter((s): s is string => typeof s === "string")
    : [];
  return { id: Number(row.id), companyId: Number(row.companyId), role: row.role, scopes };
}

export default class UserHandlers {
  private readonly uploads: string;

  constructor(context: HandlerContext) {
    this.uploads = uploadRoot(context.appDir);
  }

  async postUserLogin(req: HandlerRequest<{ username: string; password: string }>, res: HandlerResponse) {
    const { username, password } = req.data;
    // Before any work: bcrypt reads only 72 bytes, so a longer password would match whatever
    // shares its first 72 (docs/handlers.md "Passwords").
    if (passwordTooLong(password)) {
      return res.sendError("VALIDATION_ERROR", undefined, {
        password: `must be at most ${MAX_PASSWORD_BYTES} bytes`,
      });
    }
    const found = await req.service.query<UserRow>(USER_BY(`lower("email") = lower($1)`), [username]);
    const row = found.rows[0];
    // On a worker thread (gateway/custom/hashPool.ts): the event loop keeps serving meanwhile.
    const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
    if (!row || !ok) return res.sendError("UNAUTHORIZED", INVALID);
    if (!row.isActive) return res.sendError("FORBIDDEN", "This account is inactive");
    await req.service.query(`UPDATE public."user" SET "lastLoginOn" = now() WHERE "id" = $1`, [row.id]);
    res.sendData(issueTokens(tokenUser(row)));
  }

  async postUserRefreshToken(req: HandlerRequest<{ refreshToken: string }>, res: HandlerResponse) {
    const userId = verifyRefreshToken(req.data.refreshToken);
    if (userId === undefined) return res.sendError("UNAUTHORIZED", "Invalid or expired refresh token");
    const found = await req.service.query<UserRow>(USER_BY(`"id" = $1`), [userId]);
    const row = found.rows[0];
    if (!row) return res.sendError("UNAUTHORIZED", "Invalid or expired refresh token");
    if (!row.isActive) return res.sendError("FORBIDDEN", "This account is inactive");
    res.sendData(issueTokens(tokenUser(row)));
  }

  getUserMeSession(req: HandlerRequest, res: HandlerResponse) {
    const header = req.headers.authorization;
    const bearer = typeof header === "string" ? header.replace(/^Bearer\s+/i, "") : "";
    // Already verified by the gateway; decoded here only to read its expiry.
    const claims = jwt.decode(bearer);
    const exp =
      typeof claims === "object" && claims !== null && typeof claims.exp === "number" ? claims.exp : 0;
    res.sendData({
      userId: req.global.userId,
      companyId: req.global.companyId,
      role: req.global.role,
      scopes: req.global.scopes,
      tokenExp: new Date(exp * 1000).toISOString(),
    });
  }

  async postUserMeAvatar(req: HandlerRequest, res: HandlerResponse) {
    const file = req.file;
    if (!file) return res.sendError("VALIDATION_ERROR", undefined, { file: "is required" });
    // By its bytes, not the declared type: see fileTypes.ts.
    const checked = await checkUpload(file, IMAGES);
    if ("problem" in checked) return res.sendError("VALIDATION_ERROR", undefined, { file: checked.problem });
    const name = `${req.global.userId}-${randomBytes(8).toString("hex")}${checked.type.extension}`;
    const dir = path.join(this.uploads, "avatars");
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.copyFile(file.path, path.join(dir, name));
    // No route lets a client set avatarUrl (the server chooses it), so the write goes through
    // req.service, scoped to the caller's own row by both ids from the verified token.
    await req.service.query(
      `UPDATE public."user" SET "avatarUrl" = $1 WHERE "id" = $2 AND "companyId" = $3`,
      [`/uploads/avatars/${name}`, req.global.userId, req.global.companyId],
    );
    res.sendData(true);
  }
}
