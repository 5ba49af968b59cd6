// The database ceiling of `make bench`: pgbench runs one statement as fast as Postgres can
// (prepared, no HTTP, no Node), for the gateway's own statement (the route function call, or the
// batch of a PAGED page the gateway builds itself: pipelinedValues) and for the hand-written one,
// plain and under the app's row security (rowSecuritySettings).
// Skipped with a message when no pgbench binary is found.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { contextSettings } from "../generator/api/context.ts";
import { API_OWNER } from "../generator/api/names.ts";

export function findPgbench(): string | undefined {
  const candidates = ["pgbench"];
  try {
    for (const version of fs.readdirSync("/usr/lib/postgresql").sort().reverse())
      candidates.push(`/usr/lib/postgresql/${version}/bin/pgbench`);
  } catch {}
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore" });
      return candidate;
    } catch {}
  }
  return undefined;
}

/** A bench value as text, as the servers bind it: a string as it is, anything else as JSON. */
export function boundText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * A statement with its `$n` placeholders as pgbench variables (`:v1`, ...) and their values, for
 * pgbenchTps: in prepared mode pgbench binds them as parameters, as both servers do, so Postgres
 * parses each value on every call (a literal is parsed once, when the statement is planned).
 */
export function boundValues(sql: string, values: unknown[]): { sql: string; vars: Record<string, string> } {
  const vars: Record<string, string> = {};
  values.forEach((value, i) => {
    // A pgbench variable is always text: it cannot carry SQL NULL, so a case must not ask for it.
    if (value === null || value === undefined) throw new Error(`boundValues: $${i + 1} is ${value}`);
    vars[`v${i + 1}`] = boundText(value);
  });
  return { sql: sql.replace(/\$(\d+)/g, (_, n: string) => `:v${n}`), vars };
}

/** Parameter type OIDs a gateway statement declares (gateway/routes/pagedStatement.ts), as SQL. */
const TYPE_NAMES: Record<number, string> = { 3802: "jsonb", 1009: "text[]", 20: "bigint", 25: "text" };

/**
 * Statements that go in one batch (one Sync: gateway/cellQuery.ts `before`), for pgbenchTps as a
 * pipeline: each one's `$n` as its own pgbench variables, cast to the type the gateway declares
 * for it (pgbench declares none).
 */
export function pipelinedValues(
  statements: { text: string; values: (string | null)[]; types?: number[] }[],
): { sql: string[]; vars: Record<string, string> } {
  const vars: Record<string, string> = {};
  const sql = statements.map((statement, s) => {
    statement.values.forEach((value, i) => {
      if (value !== null) vars[`s${s}v${i + 1}`] = boundText(value);
    });
    return statement.text.replace(/\$(\d+)/g, (_, n: string) => {
      const type = TYPE_NAMES[statement.types?.[Number(n) - 1] ?? 0];
      // NULL (a parameter the text does not read: gateway/routes/unreadValues.ts) as a literal: a
      // pgbench variable is always text.
      const value = statement.values[Number(n) - 1] === null ? "NULL" : `:s${s}v${n}`;
      return type ? `(${value}::${type})` : value;
    });
  });
  return { sql, vars };
}

/**
 * Transactions per second of `sql` (several statements: one pipeline) over `seconds`, or undefined when pgbench failed; its sessions
 * start with `settings` (`plan_cache_mode` as the hand-written server's sessions have it,
 * bench/sql.ts; `role` and the caller's context for a statement under row security).
 */
export function pgbenchTps(
  binary: string,
  url: string,
  sql: string | string[],
  seconds: number,
  clients: number,
  vars: Record<string, string> = {},
  settings: Record<string, string> = {},
): { tps?: number; error?: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-bench-pgbench-"));
  try {
    const script = path.join(dir, "statement.sql");
    // pgbench scripts end a statement at the end of a line with `;`: one line, one statement.
    const line = (statement: string) => `${statement.replace(/\s+/g, " ").trim()};\n`;
    fs.writeFileSync(
      script,
      typeof sql === "string" ? line(sql) : `\\startpipeline\n${sql.map(line).join("")}\\endpipeline\n`,
    );
    const u = new URL(url);
    const result = spawnSync(
      binary,
      [
        "-n",
        "-M",
        "prepared",
        "-c",
        String(clients),
        "-j",
        String(Math.min(clients, os.availableParallelism())),
        "-T",
        String(seconds),
        "-f",
        script,
        ...Object.entries(vars).flatMap(([name, value]) => ["-D", `${name}=${value}`]),
        "-h",
        u.hostname,
        "-p",
        u.port || "5432",
        "-U",
        decodeURIComponent(u.username),
        decodeURIComponent(u.pathname.slice(1)),
      ],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          PGPASSWORD: decodeURIComponent(u.password),
          ...(Object.keys(settings).length > 0 ? { PGOPTIONS: startupOptions(settings) } : {}),
        },
      },
    );
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout ?? "");
    if (!tps)
      return {
        error: (result.stderr || result.stdout || "no output").trim().split("\n").slice(-3).join(" "),
      };
    return { tps: Number(tps[1]) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `settings` as libpq's startup options (PGOPTIONS): `-c name=value`, spaces and backslashes escaped. */
export function startupOptions(settings: Record<string, string>): string {
  const escaped = (text: string) => text.replace(/[\\ ]/g, (c) => `\\${c}`);
  return Object.entries(settings)
    .map(([name, value]) => `-c ${escaped(name)}=${escaped(value)}`)
    .join(" ");
}

/**
 * The session settings that run a hand-written statement as the route functions read: as
 * api_owner, under the app's row security, with the caller's context in the settings the route
 * functions set (generator/api/context.ts contextSettings).
 */
export function rowSecuritySettings(
  caller: Record<string, unknown>,
  keys: readonly string[],
): Record<string, string> {
  return { role: API_OWNER, ...contextSettings(caller, keys) };
}
