// Valid filters and their exact ASTs, positions included.

import t from "tap";
import { type FilterExpr, parseFilter } from "../../gateway/filter/parse.ts";
import { and, c, not, or } from "./helpers.ts";

const cases: [string, string, FilterExpr][] = [
  // --- the two-part form ---
  ["equals", "(status,active)", c(1, "status", "eq", "active")],
  ["a number is a string", "(id,42)", c(1, "id", "eq", "42")],
  ["null test", "(deletedAt,null)", c(1, "deletedAt", "null")],
  ["not-null test", "(deletedAt,notnull)", c(1, "deletedAt", "notnull")],
  ["upper-case NULL is a value", "(a,NULL)", c(1, "a", "eq", "NULL")],
  ["quoted null is a value", '(a,"null")', c(1, "a", "eq", "null")],
  ["quoted notnull is a value", "(a,'notnull')", c(1, "a", "eq", "notnull")],
  ["an operator name alone is a value", "(a,eq)", c(1, "a", "eq", "eq")],
  ["in alone is a value", "(a,in)", c(1, "a", "eq", "in")],
  ["empty value", "(a,)", c(1, "a", "eq", "")],
  ["blank value is empty", "(a,   )", c(1, "a", "eq", "")],

  // --- every operator ---
  ["eq", "(n,eq,1)", c(1, "n", "eq", "1")],
  ["ne", "(n,ne,1)", c(1, "n", "ne", "1")],
  ["gt", "(n,gt,1)", c(1, "n", "gt", "1")],
  ["gte", "(n,gte,1)", c(1, "n", "gte", "1")],
  ["lt", "(n,lt,1)", c(1, "n", "lt", "1")],
  ["lte", "(n,lte,1)", c(1, "n", "lte", "1")],
  ["has", "(n,has,1)", c(1, "n", "has", "1")],
  ["sw", "(n,sw,1)", c(1, "n", "sw", "1")],
  ["ew", "(n,ew,1)", c(1, "n", "ew", "1")],
  ["in, one item", "(n,in,1)", c(1, "n", "in", ["1"])],
  ["in, three items", "(n,in,1|2|3)", c(1, "n", "in", ["1", "2", "3"])],
  ["eq null is the string", "(a,eq,null)", c(1, "a", "eq", "null")],
  ["eq with an empty value", "(a,eq,)", c(1, "a", "eq", "")],
  ["ne with a quoted empty value", '(a,ne,"")', c(1, "a", "ne", "")],
  [
    "dates and decimals stay text",
    "(at,gte,2024-01-01T00:00:00Z)",
    c(1, "at", "gte", "2024-01-01T00:00:00Z"),
  ],
  ["has keeps % and _", "(a,has,50%_off)", c(1, "a", "has", "50%_off")],

  // --- in lists ---
  ["in, empty list item", "(a,in,)", c(1, "a", "in", [""])],
  ["in, empty middle item", "(a,in,x||y)", c(1, "a", "in", ["x", "", "y"])],
  ["in, blanks around items", "(a,in, x | y )", c(1, "a", "in", ["x", "y"])],
  ["in, quoted items", `(a,in,"x,y"|'z)'|"")`, c(1, "a", "in", ["x,y", "z)", ""])],
  ["in, escaped pipe", "(a,in,x\\|y|z)", c(1, "a", "in", ["x|y", "z"])],
  ["in, escaped pipe alone", "(a,in,\\||\\\\)", c(1, "a", "in", ["|", "\\"])],
  ["in, quoted pipe", '(a,in,"|"|"||")', c(1, "a", "in", ["|", "||"])],

  // --- quoted values ---
  ["double quotes keep , ( ) |", '(title,"a, b (c) | d")', c(1, "title", "eq", "a, b (c) | d")],
  ["single quotes keep double quotes", `(title,'say "hi"')`, c(1, "title", "eq", 'say "hi"')],
  ["double quotes keep single quotes", `(title,"it's")`, c(1, "title", "eq", "it's")],
  ["quotes keep blanks", '(title,"  padded  ")', c(1, "title", "eq", "  padded  ")],
  ["escaped double quote", '(title,"a\\"b")', c(1, "title", "eq", 'a"b')],
  ["escaped single quote", "(title,'a\\'b')", c(1, "title", "eq", "a'b")],
  ["escaped backslash in quotes", '(title,"a\\\\b")', c(1, "title", "eq", "a\\b")],
  ["escaped comma in quotes", '(title,"a\\,b")', c(1, "title", "eq", "a,b")],
  ["blanks around a quoted value", '(title, "x" )', c(1, "title", "eq", "x")],
  ["quoted empty value", '(title,"")', c(1, "title", "eq", "")],
  ["quoted operand of has", '(title,has,"a,b")', c(1, "title", "has", "a,b")],
  ["quoted value may end with a backslash", '(p,"C:\\\\")', c(1, "p", "eq", "C:\\")],
  ["newline inside quotes", '(t,"a\nb")', c(1, "t", "eq", "a\nb")],

  // --- bare values and escapes ---
  ["escaped comma", "(a,x\\,y)", c(1, "a", "eq", "x,y")],
  ["escaped pipe", "(a,x\\|y)", c(1, "a", "eq", "x|y")],
  ["escaped backslash", "(a,x\\\\y)", c(1, "a", "eq", "x\\y")],
  ["escaped parentheses", "(a,\\(x\\))", c(1, "a", "eq", "(x)")],
  ["escaped quotes", "(a,\\\"x\\')", c(1, "a", "eq", "\"x'")],
  ["escaped quote first makes a bare value", "(a,\\'x)", c(1, "a", "eq", "'x")],
  ["bare values are trimmed, inner blanks kept", "(a,  x  y  )", c(1, "a", "eq", "x  y")],
  ["tabs and newlines trimmed", "(a,\t\nx\r\n)", c(1, "a", "eq", "x")],
  ["a quote inside a bare value", "(a,O'Brien)", c(1, "a", "eq", "O'Brien")],
  ["a double quote inside a bare value", '(a,5"3)', c(1, "a", "eq", '5"3')],
  ["an escaped character ends trimming", "(a,x\\, )", c(1, "a", "eq", "x,")],
  ["other punctuation is plain", "(a,has,a.b-c+d*e=f;g<h>i?j&k)", c(1, "a", "has", "a.b-c+d*e=f;g<h>i?j&k")],
  ["gt keeps the sign", "(a,gt,-1.5e3)", c(1, "a", "gt", "-1.5e3")],

  // --- columns ---
  ["table.column", "(user.email,a)", c(1, "user.email", "eq", "a")],
  ["table.column.jsonKey", "(user.meta.theme,dark)", c(1, "user.meta.theme", "eq", "dark")],
  ["underscores and digits", "(_a1.B_2.c3,x)", c(1, "_a1.B_2.c3", "eq", "x")],
  ["case is kept", "(ID,1)", c(1, "ID", "eq", "1")],
  ["keywords as column names", "(and,or)", c(1, "and", "eq", "or")],
  ["operator as column name", "(null,null)", c(1, "null", "null")],
  ["json key with null test", "(user.meta.x,notnull)", c(1, "user.meta.x", "notnull")],

  // --- not ---
  ["not", "!(a,1)", not(c(2, "a", "eq", "1"))],
  ["double not", "!!(a,1)", not(not(c(3, "a", "eq", "1")))],
  ["blank after !", "! (a,1)", not(c(3, "a", "eq", "1"))],
  ["not of a group", "!((a,1)or(b,2))", not(or(c(3, "a", "eq", "1"), c(10, "b", "eq", "2")))],
  ["not binds tighter than and", "!(a,1)and(b,2)", and(not(c(2, "a", "eq", "1")), c(10, "b", "eq", "2"))],
  ["not after or", "(a,1)or!(b,2)", or(c(1, "a", "eq", "1"), not(c(9, "b", "eq", "2")))],
  ["not inside a group", "(!(a,1))", not(c(3, "a", "eq", "1"))],

  // --- and / or ---
  ["and", "(a,1)and(b,2)", and(c(1, "a", "eq", "1"), c(9, "b", "eq", "2"))],
  ["or", "(a,1)or(b,2)", or(c(1, "a", "eq", "1"), c(8, "b", "eq", "2"))],
  [
    "and binds tighter than or (right)",
    "(a,1)or(b,2)and(c,3)",
    or(c(1, "a", "eq", "1"), and(c(8, "b", "eq", "2"), c(16, "c", "eq", "3"))),
  ],
  [
    "and binds tighter than or (left)",
    "(a,1)and(b,2)or(c,3)",
    or(and(c(1, "a", "eq", "1"), c(9, "b", "eq", "2")), c(16, "c", "eq", "3")),
  ],
  [
    "and lists are flat",
    "(a,1)and(b,2)and(c,3)",
    and(c(1, "a", "eq", "1"), c(9, "b", "eq", "2"), c(17, "c", "eq", "3")),
  ],
  [
    "or lists are flat",
    "(a,1)or(b,2)or(c,3)",
    or(c(1, "a", "eq", "1"), c(8, "b", "eq", "2"), c(15, "c", "eq", "3")),
  ],
  [
    "parentheses override precedence",
    "((a,1)or(b,2))and(c,3)",
    and(or(c(2, "a", "eq", "1"), c(9, "b", "eq", "2")), c(18, "c", "eq", "3")),
  ],
  [
    "a group stays its own node",
    "((a,1)and(b,2))and(c,3)",
    and(and(c(2, "a", "eq", "1"), c(10, "b", "eq", "2")), c(19, "c", "eq", "3")),
  ],
  ["redundant parentheses vanish", "(((a,1)))", c(3, "a", "eq", "1")],
  [
    "keywords are case-insensitive",
    "(a,1)AND(b,2)Or(c,3)",
    or(and(c(1, "a", "eq", "1"), c(9, "b", "eq", "2")), c(16, "c", "eq", "3")),
  ],
  [
    "mixed precedence chain",
    "(a,1)or(b,2)and(c,3)or(d,4)",
    or(c(1, "a", "eq", "1"), and(c(8, "b", "eq", "2"), c(16, "c", "eq", "3")), c(23, "d", "eq", "4")),
  ],
  [
    "the example from the spec",
    "(status,active)and((priority,gt,3)or!(title,has,urgent))",
    and(
      c(1, "status", "eq", "active"),
      or(c(20, "priority", "gt", "3"), not(c(38, "title", "has", "urgent"))),
    ),
  ],

  // --- whitespace ---
  ["blanks everywhere", "  ( a , gt , 3 )  ", c(4, "a", "gt", "3")],
  [
    "blanks around keywords, groups and lists",
    " ( a,1 ) and\n\t( ( b.c , in , x | y ) or ! ( d , null ) ) ",
    and(c(3, "a", "eq", "1"), or(c(18, "b.c", "in", ["x", "y"]), not(c(44, "d", "null")))),
  ],
  ["a blank inside the value of the two-part form", "(name, John Smith )", c(1, "name", "eq", "John Smith")],

  // --- hostile-looking and unicode values ---
  ["SQL in quotes", `(name,"'; DROP TABLE x; --")`, c(1, "name", "eq", "'; DROP TABLE x; --")],
  ["SQL after an escaped quote", "(name,\\'; DROP TABLE x; --)", c(1, "name", "eq", "'; DROP TABLE x; --")],
  ["SQL in a bare value", "(name,x'; DROP TABLE x; --)", c(1, "name", "eq", "x'; DROP TABLE x; --")],
  ["tautology", "(id,eq,1 OR 1=1)", c(1, "id", "eq", "1 OR 1=1")],
  [
    "closing paren in quotes",
    '(name,"); DROP TABLE users; --")',
    c(1, "name", "eq", "); DROP TABLE users; --"),
  ],
  ["dollar quoting", "(name,$$; SELECT 1; $$)", c(1, "name", "eq", "$$; SELECT 1; $$")],
  [
    "SQL in an in list",
    `(id,in,1|"2); DELETE FROM t; --")`,
    c(1, "id", "in", ["1", "2); DELETE FROM t; --"]),
  ],
  ["accents", "(name,Zoë)", c(1, "name", "eq", "Zoë")],
  [
    "CJK, and positions after it",
    "(name,日本)and(b,1)",
    and(c(1, "name", "eq", "日本"), c(13, "b", "eq", "1")),
  ],
  ["emoji counts as two code units", "(n,😀)and(b,1)", and(c(1, "n", "eq", "😀"), c(10, "b", "eq", "1"))],
  ["emoji in quotes", '(n,has,"😀 party")', c(1, "n", "has", "😀 party")],
  ["right-to-left text", "(n,שלום)", c(1, "n", "eq", "שלום")],
  ["non-breaking space is not trimmed", "(n,\u00a0x\u00a0)", c(1, "n", "eq", "\u00a0x\u00a0")],
  ["control characters other than NUL pass", "(n,a\u0001b)", c(1, "n", "eq", "a\u0001b")],
];

for (const [name, text, ast] of cases) {
  t.test(name, async (t) => {
    t.strictSame(parseFilter(text), { ok: true, ast }, JSON.stringify(text));
  });
}

t.test("the AST is plain JSON", async (t) => {
  const result = parseFilter("(a,in,1|2)and!(b,null)");
  t.ok(result.ok);
  if (result.ok) t.strictSame(JSON.parse(JSON.stringify(result.ast)), result.ast);
});
