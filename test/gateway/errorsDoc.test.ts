// docs/errors.md against the error registry (gateway/errors.ts): the page's table of codes must
// list exactly the registry's codes, with the same statuses and default messages, and
// docs/architecture.md's SQLSTATE table exactly OUR_SQLSTATES. Pure: reads two files, no database.
// Without this the docs would drift the first time a code is added.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { ERRORS, OUR_SQLSTATES } from "../../gateway/errors.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The lines of a markdown section, from its heading to the next heading of any level. */
function section(text: string, heading: string): string[] {
  const lines = text.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith("#"));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Table rows of the form `| \`A\` | b | c | ...`: the cells, backticks around the first removed. */
function rows(lines: string[]): string[][] {
  return lines
    .filter((line) => /^\| `[^`]+` \|/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim().replace(/^`(.*)`$/, "$1")),
    );
}

t.test("docs/errors.md lists the registry: every code, its status and default message", async (t) => {
  const table = rows(section(read("docs/errors.md"), "## The codes"));
  const documented = Object.fromEntries(
    table.map(([code, status, message]) => [code, { status: Number(status), message }]),
  );
  t.equal(table.length, Object.keys(documented).length, "no code is listed twice");
  t.same(documented, ERRORS, "codes, statuses and default messages as in gateway/errors.ts");
  t.same(
    table.map(([code]) => code),
    Object.keys(ERRORS),
    "in the registry's order (by status)",
  );
  for (const [code, , , when] of table) t.ok(when && when.length > 0, `${code} says when it is answered`);
});

t.test("docs/architecture.md's SQLSTATE table is OUR_SQLSTATES", async (t) => {
  const lines = read("docs/architecture.md").split("\n");
  const table = rows(lines).filter(([state]) => /^A0\d{3}$/.test(state ?? ""));
  const documented = Object.fromEntries(table.map(([state, code]) => [state, code]));
  t.same(documented, OUR_SQLSTATES, "every SQLSTATE of ours, with its code");
  for (const [state, code, status] of table) {
    t.equal(Number(status), ERRORS[code as keyof typeof ERRORS]?.status, `${state}: ${code}'s status`);
  }
});
