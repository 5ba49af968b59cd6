// Every way the embedded cluster can fail to start ends as one line that says what to do: the
// CLI prints an AppError's message without a stack (cli/common.ts runCli).

import { AppError } from "../../app/errors.ts";

export const USE_ANOTHER_SERVER = "or set DATABASE_URL to use another Postgres server";

export class EmbeddedPostgresError extends AppError {
  /** `problem` and `advice` are joined into a single line, whatever line breaks they carry. */
  constructor(problem: string, advice = `Set DATABASE_URL to use another Postgres server.`) {
    super(oneLine(`embedded Postgres: ${problem}. ${advice}`));
  }
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
