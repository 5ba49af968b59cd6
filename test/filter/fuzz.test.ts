// Property-style tests with a seeded PRNG (the same cases on every run): the parser never throws,
// errors always carry a position inside the text that the message names, successful parses are
// well-formed, and random ASTs survive formatting and parsing back.

import t, { type Test } from "tap";
import { type FilterExpr, type FilterOp, parseFilter } from "../../gateway/filter/parse.ts";
import { astProblems, formatFilter, int, pick, prng, type Random, stripPositions } from "./helpers.ts";

/** What is wrong with the parser's answer for `text`, or "" when it is sound. */
function check(text: string): string {
  let result: ReturnType<typeof parseFilter>;
  try {
    result = parseFilter(text);
  } catch (e) {
    return `threw ${(e as Error).stack}`;
  }
  if (result.ok) {
    const problems = astProblems(result.ast, text);
    if (problems.length > 0) return problems.join("; ");
    // What parsed once parses the same when written out again.
    const again = parseFilter(formatFilter(result.ast));
    if (!again.ok) return `reformatted text fails: ${again.error.message}`;
    if (JSON.stringify(stripPositions(again.ast)) !== JSON.stringify(stripPositions(result.ast))) {
      return "reformatted text parses differently";
    }
    return "";
  }
  const { position, message } = result.error;
  if (!Number.isInteger(position) || position < 0 || position > text.length) return `position ${position}`;
  if (!message.includes(`at position ${position}`)) return `message ${message}`;
  return "";
}

function run(t: Test, cases: number, seed: number, make: (rnd: Random) => string): void {
  const rnd = prng(seed);
  const failures: string[] = [];
  let ok = 0;
  for (let i = 0; i < cases; i++) {
    const text = make(rnd);
    const problem = check(text);
    if (problem) failures.push(`${JSON.stringify(text)}: ${problem}`);
    else if (parseFilter(text).ok) ok++;
  }
  t.strictSame(failures.slice(0, 10), [], `${cases} cases (${ok} valid), seed ${seed}`);
}

const TOKENS = [
  "(",
  "(",
  "(",
  ")",
  ")",
  ")",
  ",",
  ",",
  ",",
  "|",
  "!",
  "\\",
  '"',
  "'",
  ".",
  " ",
  "\t",
  "\n",
  "a",
  "b",
  "user.email",
  "x.y.z",
  "1",
  "_",
  "and",
  "or",
  "AND",
  "Or",
  "andor",
  "null",
  "notnull",
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "has",
  "sw",
  "ew",
  "in",
  "GT",
  "like",
  "%",
  "é",
  "日本",
  "😀",
  "\ud800",
  "\udc00",
  "\u0000",
  "\\,",
  "\\|",
  "\\\\",
  "\\(",
  "\\)",
  '\\"',
  "\\'",
  "\\n",
  "(a,1)",
  "(b,in,1|2)",
];

t.test("random token soup never throws", async (t) => {
  run(t, 4000, 1, (rnd) => {
    let s = "";
    for (let n = int(rnd, 40); n > 0; n--) s += pick(rnd, TOKENS);
    return s;
  });
});

const PIECES = [
  "(",
  "(",
  "(a,",
  "(b.c,",
  "gt,",
  "in,",
  "eq,",
  "1",
  "x y",
  '"q,)"',
  "'",
  "|",
  ")",
  ")",
  ")",
  "and",
  "or",
  "!",
  " ",
];

t.test("random sequences of grammar pieces never throw", async (t) => {
  run(t, 4000, 6, (rnd) => {
    let s = "";
    for (let n = 1 + int(rnd, 16); n > 0; n--) s += pick(rnd, PIECES);
    return s;
  });
});

t.test("random UTF-16 strings never throw", async (t) => {
  run(t, 1000, 2, (rnd) => {
    let s = "";
    for (let n = int(rnd, 30); n > 0; n--) {
      s += String.fromCharCode(rnd() < 0.7 ? 32 + int(rnd, 96) : int(rnd, 0x10000));
    }
    return s;
  });
});

const SEEDS = [
  "(status,active)and((priority,gt,3)or!(title,has,urgent))",
  "(a,in,\"x,y\"|'z)'|\\|)",
  "( user.meta.theme , notnull ) OR !( b , ne , 'it\\'s' )",
  "(((a,1))and(b,2))or(c,sw,x\\,y)",
  "!!(n,lte,2024-01-01)and(m,null)",
];

t.test("mutated valid filters never throw", async (t) => {
  run(t, 3000, 3, (rnd) => {
    let s = pick(rnd, SEEDS);
    for (let n = 1 + int(rnd, 3); n > 0; n--) {
      const at = int(rnd, s.length + 1);
      const edit = int(rnd, 4);
      if (edit === 0) s = s.slice(0, at) + pick(rnd, TOKENS) + s.slice(at);
      else if (edit === 1) s = s.slice(0, at) + s.slice(at + 1);
      else if (edit === 2) s = s.slice(0, at) + pick(rnd, TOKENS) + s.slice(at + 1);
      else s = s.slice(0, at) + s.slice(int(rnd, s.length), at + int(rnd, 10)) + s.slice(at);
    }
    return s;
  });
});

t.test("hostile shapes near the limits never throw", async (t) => {
  run(t, 200, 4, (rnd) => {
    const unit = pick(rnd, ["(", "!", "!(", "(a,1)and", "(a,1)or(", "\\", '"', "(a,in,x|", " "]);
    return unit.repeat(int(rnd, 5000 / unit.length)) + pick(rnd, ["", "(a,1)", ")".repeat(40)]);
  });
});

// --- random ASTs, formatted and parsed back ---

const OPS: FilterOp[] = ["eq", "ne", "gt", "gte", "lt", "lte", "has", "sw", "ew", "in", "null", "notnull"];
const VALUE_CHARS = [..."abcXYZ019 ,|()\\\"'.%_-\t", "é", "日", "😀", "null", "eq"];
const IDENT_START = [..."abcxyzABC_"];
const IDENT = [...IDENT_START, ..."0129"];

function randomValue(rnd: Random, nonEmpty: boolean): string {
  let s = "";
  for (let n = int(rnd, 8) + (nonEmpty ? 1 : 0); n > 0; n--) s += pick(rnd, VALUE_CHARS);
  return s;
}

function randomColumn(rnd: Random): string {
  const parts: string[] = [];
  for (let n = 1 + int(rnd, 3); n > 0; n--) {
    let id = pick(rnd, IDENT_START);
    for (let k = int(rnd, 6); k > 0; k--) id += pick(rnd, IDENT);
    parts.push(id);
  }
  return parts.join(".");
}

function randomAst(rnd: Random, depth: number, budget: { conditions: number }): FilterExpr {
  const leaf = depth >= 5 || budget.conditions <= 1 || rnd() < 0.35;
  if (leaf) {
    budget.conditions--;
    const op = pick(rnd, OPS);
    const column = randomColumn(rnd);
    if (op === "null" || op === "notnull") return { column, op };
    if (op === "in") {
      return { column, op, value: Array.from({ length: 1 + int(rnd, 4) }, () => randomValue(rnd, false)) };
    }
    return { column, op, value: randomValue(rnd, !["eq", "ne"].includes(op)) };
  }
  const kind = int(rnd, 3);
  if (kind === 2) return { not: randomAst(rnd, depth + 1, budget) };
  const items = Array.from({ length: 2 + int(rnd, 3) }, () => randomAst(rnd, depth + 1, budget));
  return kind === 0 ? { and: items } : { or: items };
}

t.test("random ASTs round-trip through the filter text", async (t) => {
  const rnd = prng(5);
  const failures: string[] = [];
  let cases = 0;
  for (let i = 0; i < 2000; i++) {
    const ast = randomAst(rnd, 0, { conditions: 40 });
    const text = formatFilter(ast, {
      gap: () => pick(rnd, ["", "", "", " ", "\t", "\n  "]),
      bare: () => rnd() < 0.5,
      quoteChar: () => pick(rnd, ['"', "'"] as const),
      short: () => rnd() < 0.5,
    });
    if (text.length > 4096) continue;
    cases++;
    const result = parseFilter(text);
    if (!result.ok) failures.push(`${JSON.stringify(text)}: ${result.error.message}`);
    else if (JSON.stringify(stripPositions(result.ast)) !== JSON.stringify(ast)) {
      failures.push(`${JSON.stringify(text)}: parsed to ${JSON.stringify(stripPositions(result.ast))}`);
    } else {
      const problems = astProblems(result.ast, text);
      if (problems.length > 0) failures.push(`${JSON.stringify(text)}: ${problems.join("; ")}`);
    }
  }
  t.ok(cases > 1900, `${cases} ASTs within the length limit`);
  t.strictSame(failures.slice(0, 10), []);
});
