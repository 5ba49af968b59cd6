// filterColumns and checkFilterColumns: the columns a filter names, for the caller's visibility check.

import t from "tap";
import {
  checkFilterColumns,
  type FilterExpr,
  filterColumns,
  filterConditions,
  parseFilter,
} from "../../gateway/filter/parse.ts";
import { c } from "./helpers.ts";

function ast(text: string): FilterExpr {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.ast;
}

const TEXT = "(status,active)and((user.email,sw,a)or!(meta.data.theme,null))or(status,ne,x)and!!(id,in,1|2)";

t.test("filterColumns: every column, once, in order of appearance", async (t) => {
  t.strictSame(filterColumns(ast(TEXT)), ["status", "user.email", "meta.data.theme", "id"]);
  t.strictSame(filterColumns(ast("(a,1)")), ["a"]);
  t.strictSame(filterColumns(ast("(b,1)or(a,1)or(b,2)")), ["b", "a"]);
});

t.test("filterConditions: every condition in text order", async (t) => {
  t.strictSame(filterConditions(ast(TEXT)), [
    c(1, "status", "eq", "active"),
    c(20, "user.email", "sw", "a"),
    c(40, "meta.data.theme", "null"),
    c(65, "status", "ne", "x"),
    c(83, "id", "in", ["1", "2"]),
  ]);
});

/** A `why` refusing what `allowed` rejects, with a reason naming the column. */
const refuse = (allowed: (col: string) => boolean) => (col: string) => (allowed(col) ? null : `no ${col}`);

t.test("checkFilterColumns: the first disallowed column, where it is and why", async (t) => {
  const tree = ast(TEXT);
  t.equal(
    checkFilterColumns(
      tree,
      refuse(() => true),
    ),
    null,
  );
  t.strictSame(
    checkFilterColumns(
      tree,
      refuse((col) => col !== "id"),
    ),
    { column: "id", position: 83, reason: "no id" },
  );
  t.strictSame(
    checkFilterColumns(
      tree,
      refuse((col) => !col.startsWith("meta.") && col !== "id"),
    ),
    { column: "meta.data.theme", position: 40, reason: "no meta.data.theme" },
  );
  t.strictSame(
    checkFilterColumns(
      tree,
      refuse(() => false),
    ),
    { column: "status", position: 1, reason: "no status" },
  );
  const visible = new Set(["status", "user.email"]);
  const seen: string[] = [];
  checkFilterColumns(
    tree,
    refuse((col) => {
      seen.push(col);
      return visible.has(col);
    }),
  );
  t.strictSame(seen, ["status", "user.email", "meta.data.theme"], "stops at the first failure");
});

t.test("positions point into the text", async (t) => {
  const text = "  ( first , 1 ) OR ! ( second.x , null ) ";
  const hit = checkFilterColumns(
    ast(text),
    refuse((col) => col === "first"),
  );
  t.strictSame(hit, { column: "second.x", position: 23, reason: "no second.x" });
  t.equal(text.slice(hit?.position), "second.x , null ) ");
});

t.test("ASTs built without positions", async (t) => {
  const tree: FilterExpr = {
    and: [{ column: "a", op: "eq", value: "1" }, { not: { column: "b", op: "null" } }],
  };
  t.strictSame(filterColumns(tree), ["a", "b"]);
  t.strictSame(
    checkFilterColumns(
      tree,
      refuse((col) => col === "a"),
    ),
    { column: "b", position: -1, reason: "no b" },
  );
});

t.test("very deep ASTs from elsewhere do not overflow the stack", async (t) => {
  let tree: FilterExpr = { column: "deep", op: "null" };
  for (let i = 0; i < 200_000; i++)
    tree = i % 2 ? { not: tree } : { and: [tree, { column: `c${i % 3}`, op: "null" }] };
  t.strictSame(filterColumns(tree), ["deep", "c0", "c2", "c1"]);
  t.strictSame(
    checkFilterColumns(
      tree,
      refuse((col) => col !== "c1"),
    ),
    { column: "c1", position: -1, reason: "no c1" },
  );
});
