// Limits on length, nesting and number of conditions: hostile filters get an error, never a stack
// overflow or a long parse.

import t from "tap";
import { DEFAULT_FILTER_LIMITS, parseFilter } from "../../gateway/filter/parse.ts";

const fail = (position: number, message: string) => ({ ok: false, error: { position, message } });
const groups = (n: number) => `${"(".repeat(n)}(a,1)${")".repeat(n)}`;
const conditions = (n: number) => Array.from({ length: n }, (_, i) => `(c${i},${i})`).join("and");

t.test("the defaults", async (t) => {
  t.strictSame({ ...DEFAULT_FILTER_LIMITS }, { maxLength: 4096, maxDepth: 32, maxConditions: 100 });
  t.ok(Object.isFrozen(DEFAULT_FILTER_LIMITS));
});

t.test("length", async (t) => {
  const exactly = `(a,${"x".repeat(4096 - 4)})`;
  t.equal(exactly.length, 4096);
  t.ok(parseFilter(exactly).ok, "4096 characters parse");
  t.strictSame(
    parseFilter(`${exactly} `),
    fail(4096, "filter is too long at position 4096 (at most 4096 characters)"),
  );
  t.strictSame(
    parseFilter("x".repeat(1_000_000)),
    fail(4096, "filter is too long at position 4096 (at most 4096 characters)"),
    "checked before anything else",
  );
  t.strictSame(
    parseFilter("(a,12345)", { maxLength: 8 }),
    fail(8, "filter is too long at position 8 (at most 8 characters)"),
  );
});

t.test("nesting depth: parentheses", async (t) => {
  const ok = parseFilter(groups(32));
  t.strictSame(ok, { ok: true, ast: { column: "a", op: "eq", value: "1", position: 33 } });
  t.strictSame(
    parseFilter(groups(33)),
    fail(32, "filter is nested too deeply at position 32 (at most 32 levels)"),
  );
  t.strictSame(
    parseFilter("(".repeat(4000)),
    fail(32, "filter is nested too deeply at position 32 (at most 32 levels)"),
    "thousands of open parentheses",
  );
});

t.test("nesting depth: not", async (t) => {
  t.ok(parseFilter(`${"!".repeat(32)}(a,1)`).ok);
  t.strictSame(
    parseFilter(`${"!".repeat(33)}(a,1)`),
    fail(32, "filter is nested too deeply at position 32 (at most 32 levels)"),
  );
  t.strictSame(
    parseFilter("!".repeat(4096)),
    fail(32, "filter is nested too deeply at position 32 (at most 32 levels)"),
  );
  t.strictSame(
    parseFilter("! ".repeat(2048)),
    fail(64, "filter is nested too deeply at position 64 (at most 32 levels)"),
  );
});

t.test("nesting depth: not and parentheses together", async (t) => {
  t.ok(parseFilter(`${"!(".repeat(16)}(a,1)${")".repeat(16)}`).ok, "16 x !( is 32 levels");
  t.strictSame(
    parseFilter(`${"!(".repeat(16)}!(a,1)${")".repeat(16)}`),
    fail(32, "filter is nested too deeply at position 32 (at most 32 levels)"),
  );
});

t.test("depth counts enclosing levels, not levels used earlier", async (t) => {
  const deep = groups(31);
  const r = parseFilter(`${deep}and${deep}or!${deep}`);
  t.ok(r.ok, "siblings at depth 31 and 32 are fine");
});

t.test("custom depth", async (t) => {
  t.ok(parseFilter("((a,1))", { maxDepth: 1 }).ok);
  t.strictSame(
    parseFilter("(((a,1)))", { maxDepth: 1 }),
    fail(1, "filter is nested too deeply at position 1 (at most 1 levels)"),
  );
  t.strictSame(
    parseFilter("!(a,1)", { maxDepth: 0 }),
    fail(0, "filter is nested too deeply at position 0 (at most 0 levels)"),
  );
});

t.test("number of conditions", async (t) => {
  const hundred = parseFilter(conditions(100));
  t.ok(hundred.ok);
  if (hundred.ok && "and" in hundred.ast) t.equal(hundred.ast.and.length, 100);
  const text = conditions(101);
  const at = text.lastIndexOf("(c100,");
  t.strictSame(parseFilter(text), fail(at, `too many conditions at position ${at} (at most 100)`));
  t.strictSame(
    parseFilter("(a,1)or(b,2)or(c,3)", { maxConditions: 2 }),
    fail(14, "too many conditions at position 14 (at most 2)"),
  );
});

t.test("large inputs within the limits parse quickly", async (t) => {
  const hostile = [
    `(a,in,${"x|".repeat(2040)}x)`,
    `(a,"${"\\\\".repeat(2040)}")`,
    `(a,${"\\,".repeat(2040)})`,
    `(a,${" ".repeat(4000)}x${" ".repeat(80)})`,
    `(a,'${"(".repeat(4080)}')`,
    `(a.b.c,${"😀".repeat(2040)})`,
    conditions(100),
    `${"(".repeat(32)}${" ".repeat(4000)}`,
    `(a,"${"x".repeat(4090)}`,
  ];
  for (const [i, text] of hostile.entries()) {
    t.ok(text.length <= 4096, `hostile[${i}] within the length limit`);
    const started = performance.now();
    for (let i = 0; i < 20; i++) parseFilter(text);
    const ms = (performance.now() - started) / 20;
    t.ok(ms < 50, `hostile[${i}] parses in ${ms.toFixed(2)} ms`);
  }
  const list = parseFilter(hostile[0] as string);
  t.ok(list.ok && "value" in list.ast && Array.isArray(list.ast.value) && list.ast.value.length === 2041);
});
