// `make run` seeds the app from `<app>/seed.sql` on every start (so the file must be idempotent),
// then moves every identity sequence past the ids the seed wrote: a seed that inserts explicit ids
// leaves the sequences behind, and the API's first POSTs without an id would collide (409).
// This is the operator's terminal, not an API answer: a failing statement is reported with its
// line and Postgres's own message.

import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { AppError } from "../app/errors.ts";
import { withClient } from "../db/databases.ts";
import type { Schema } from "../generator/schema/types.ts";
import { tokenize } from "../generator/sql/rawSqlLexer.ts";
import { ident, literal, sql } from "../generator/sql/sql.ts";
import { isIdentity } from "../generator/tables/columnType.ts";

export const SEED_FILE = "seed.sql";

export interface Statement {
  text: string;
  /** 1-based line of the statement's first token. */
  line: number;
}

/** Splits SQL on `;` outside strings, quoted names, dollar quotes and comments. */
export function splitStatements(text: string): Statement[] {
  const out: Statement[] = [];
  let offset = 0;
  let first: number | undefined;
  const flush = (end: number) => {
    if (first !== undefined) {
      out.push({ text: text.slice(first, end).trim(), line: text.slice(0, first).split("\n").length });
    }
    first = undefined;
  };
  for (const token of tokenize(text)) {
    const at = offset;
    offset += token.text.length;
    if (token.kind === "other" && token.text === ";") flush(offset);
    else if (token.kind !== "space" && first === undefined) first = at;
  }
  flush(text.length);
  return out;
}

/** seedApp on its own connection to `url`, saying so when there was a seed file. */
export async function seedAppNoisily(url: string, appDir: string, schema: Schema): Promise<void> {
  if (await withClient(url, (client) => seedApp(client, appDir, schema))) {
    console.log(`seeded from ${path.relative(process.cwd(), path.join(appDir, SEED_FILE))}`);
  }
}

/**
 * Runs `<appDir>/seed.sql` when present, statement by statement in one transaction, then moves the
 * sequences. False when there is no seed file.
 */
export async function seedApp(client: pg.Client, appDir: string, schema: Schema): Promise<boolean> {
  const file = path.join(appDir, SEED_FILE);
  if (!fs.existsSync(file)) return false;
  const statements = splitStatements(fs.readFileSync(file, "utf8"));
  await client.query("BEGIN");
  for (const statement of statements) {
    try {
      await client.query(statement.text);
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw seedError(file, statement, error);
    }
  }
  await client.query("COMMIT");
  await moveSequencesPastRows(client, schema);
  return true;
}

function seedError(file: string, statement: Statement, error: unknown): AppError {
  const e = error as { message?: string; code?: string; detail?: string; hint?: string };
  const firstLine = statement.text.split("\n")[0] as string;
  const lines = [
    `${path.relative(process.cwd(), file) || SEED_FILE}: the statement at line ${statement.line} failed: ${firstLine}${
      statement.text.includes("\n") ? " ..." : ""
    }`,
    `  postgres: ${e.message ?? String(error)}${e.code ? ` (SQLSTATE ${e.code})` : ""}`,
  ];
  if (e.detail) lines.push(`  detail: ${e.detail}`);
  if (e.hint) lines.push(`  hint: ${e.hint}`);
  lines.push(
    `${SEED_FILE} runs on every \`make run\`, so it must be idempotent (ON CONFLICT DO NOTHING); its changes were rolled back.`,
  );
  return new AppError(lines.join("\n"));
}

/**
 * For every identity column of the schema's tables: when max(column) is past the sequence's last
 * value, `setval` to it, so the next generated id is free. Never moves a sequence backwards.
 */
export async function moveSequencesPastRows(client: pg.Client, schema: Schema): Promise<void> {
  for (const table of schema.database) {
    for (const column of table.columns) {
      if (!isIdentity(column)) continue;
      const query = sql`SELECT setval(s.seq, s.max) FROM (
  SELECT pg_get_serial_sequence(${literal(ident("public", table.name).toString())}, ${literal(column.name)})::regclass AS seq,
         (SELECT max(${ident(column.name)}) FROM ${ident("public", table.name)}) AS max
) AS s
WHERE s.max IS NOT NULL AND s.max > COALESCE(pg_sequence_last_value(s.seq), 0)`;
      await client.query(query.toString());
    }
  }
}
