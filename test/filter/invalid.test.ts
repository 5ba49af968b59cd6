// Invalid filters: the exact position and message of each error.

import t from "tap";
import { parseFilter } from "../../gateway/filter/parse.ts";

const OPS = "eq, ne, gt, gte, lt, lte, has, sw, ew, in, null, notnull";
const NEVER_CLOSED = 'unbalanced parenthesis: "(" is never closed at position';
const COMMA = 'write \\, for a literal ","';
const PIPE = 'only operator "in" takes several values; write \\| for a literal "|"';
const OPEN = 'quote the value or write \\( for a literal "("';

const cases: [string, string, number, string][] = [
  // --- empty and structure ---
  ["empty", "", 0, "empty filter at position 0"],
  ["blank", " \t\n", 0, "empty filter at position 0"],
  ["no parentheses", "status,active", 0, 'unexpected "status" at position 0 (expected "(" or "!")'],
  ["stray close", ")", 0, 'unexpected ")" at position 0 (expected "(" or "!")'],
  ["empty parentheses", "()", 1, 'unexpected ")" at position 1 (expected a column name, "(" or "!")'],
  ["lone open", "(", 1, 'unexpected end of filter at position 1 (expected a column name, "(" or "!")'],
  ["lone not", "!", 1, 'unexpected end of filter at position 1 (expected "(" or "!")'],
  ["not before a word", "!a", 1, 'unexpected "a" at position 1 (expected "(" or "!")'],
  [
    "quote where a column goes",
    '("a",1)',
    1,
    'unexpected "\\"" at position 1 (expected a column name, "(" or "!")',
  ],

  // --- unbalanced parentheses ---
  ["condition never closed", "(a,b", 0, `${NEVER_CLOSED} 0`],
  ["condition cut after the comma", "(a,", 0, `${NEVER_CLOSED} 0`],
  ["operator form never closed", "(a,gt,1", 0, `${NEVER_CLOSED} 0`],
  ["in list never closed", "(a,in,x|y", 0, `${NEVER_CLOSED} 0`],
  ["group never closed", "((a,b)", 0, `${NEVER_CLOSED} 0`],
  ["inner group never closed", "(a,b)and((c,d)", 8, `${NEVER_CLOSED} 8`],
  ["the innermost open group is named", "((a,1)or((b,2)", 8, `${NEVER_CLOSED} 8`],
  ["extra close", "(a,b))", 5, 'unbalanced parenthesis: unexpected ")" at position 5'],
  ["extra close after a group", "((a,b)))", 7, 'unbalanced parenthesis: unexpected ")" at position 7'],

  // --- columns ---
  [
    "column starts with a digit",
    "(1a,b)",
    1,
    'unexpected "1a" at position 1 (expected a column name, "(" or "!")',
  ],
  ["column without a comma", "(a)", 2, 'unexpected ")" at position 2 (expected "," after column name)'],
  ["column at the end", "(a", 2, 'unexpected end of filter at position 2 (expected "," after column name)'],
  ["two words", "(a b,1)", 3, 'unexpected "b" at position 3 (expected "," after column name)'],
  ["blank before a dot", "(a .b,1)", 3, 'unexpected "." at position 3 (expected "," after column name)'],
  [
    "dot at the end of a column",
    "(a.,b)",
    3,
    'unexpected "," at position 3 (expected an identifier after ".")',
  ],
  ["digit after a dot", "(a.1,b)", 3, 'unexpected "1" at position 3 (expected an identifier after ".")'],
  ["blank after a dot", "(a. b,1)", 3, 'unexpected " " at position 3 (expected an identifier after ".")'],
  [
    "four parts",
    "(a.b.c.d,1)",
    6,
    "too many parts in column name at position 6 (expected column, table.column or table.column.jsonKey)",
  ],
  ["non-ASCII column", "(naïve,1)", 3, 'unexpected "ï" at position 3 (expected "," after column name)'],
  ["hyphen in column", "(first-name,x)", 6, 'unexpected "-" at position 6 (expected "," after column name)'],

  // --- operators ---
  ["unknown operator", "(a,like,x)", 3, `unknown operator "like" at position 3 (expected one of ${OPS})`],
  [
    "unknown operator, further in",
    "(title,like,%x%)",
    7,
    `unknown operator "like" at position 7 (expected one of ${OPS})`,
  ],
  [
    "upper-case operator",
    "(a,GT,1)",
    3,
    `unknown operator "GT" at position 3 (expected one of ${OPS}; operators are lower case)`,
  ],
  [
    "mixed-case operator",
    "(a,In,1|2)",
    3,
    `unknown operator "In" at position 3 (expected one of ${OPS}; operators are lower case)`,
  ],
  ["symbolic operator", "(a,>=,1)", 3, `unknown operator ">=" at position 3 (expected one of ${OPS})`],
  [
    "operator with blanks inside",
    "(a,g t,1)",
    3,
    `unknown operator "g t" at position 3 (expected one of ${OPS})`,
  ],
  ["missing operator", "(a,,1)", 3, `expected an operator at position 3 (one of ${OPS})`],
  ["quoted operator", '(a,"eq",1)', 3, `expected an operator at position 3 (one of ${OPS})`],
  ["quoted value then a comma", '(a, "x,y" ,z)', 4, `expected an operator at position 4 (one of ${OPS})`],
  ["null with a value", "(a,null,1)", 7, 'operator "null" takes no value at position 7 (write (a,null))'],
  [
    "notnull with an empty value",
    "(a,notnull,)",
    10,
    'operator "notnull" takes no value at position 10 (write (a,notnull))',
  ],

  // --- values ---
  ["gt without a value", "(a,gt,)", 6, 'operator "gt" needs a value at position 6'],
  ["gte with a blank value", "(a,gte,  )", 9, 'operator "gte" needs a value at position 9'],
  ["lt with a quoted empty value", '(a,lt,"")', 6, 'operator "lt" needs a value at position 6'],
  ["lte without a value", "(a,lte,)", 7, 'operator "lte" needs a value at position 7'],
  ["has without a value", "(a,has,)", 7, 'operator "has" needs a value at position 7'],
  ["sw without a value", "(a,sw, )", 7, 'operator "sw" needs a value at position 7'],
  ["ew without a value", "(a,ew,'')", 6, 'operator "ew" needs a value at position 6'],
  ["a fourth part", "(a,eq,b,c)", 7, `unexpected "," at position 7 (expected ")"; ${COMMA})`],
  ["a comma in an in list", "(a,in,x,y)", 7, `unexpected "," at position 7 (expected "|" or ")"; ${COMMA})`],
  ["a pipe outside in", "(a,x|y)", 4, `unexpected "|" at position 4 (expected "," or ")"; ${PIPE})`],
  ["a pipe after eq", "(a,eq,b|c)", 7, `unexpected "|" at position 7 (expected ")"; ${PIPE})`],
  [
    "a parenthesis in a bare value",
    "(a,f(x))",
    4,
    `unexpected "(" at position 4 (expected "," or ")"; ${OPEN})`,
  ],
  ["a parenthesis after gt", "(a,gt,(1))", 6, `unexpected "(" at position 6 (expected ")"; ${OPEN})`],
  ["text after a quoted value", '(a,"b"c)', 6, 'unexpected "c" at position 6 (expected "," or ")")'],
  ["text after a quoted value, blanks", "(a,eq,'b' c)", 10, 'unexpected "c" at position 10 (expected ")")'],
  ["text after a quoted in item", '(a,in,"b"c)', 9, 'unexpected "c" at position 9 (expected "|" or ")")'],
  ["unterminated double quote", '(a,"b', 3, "unterminated quoted value at position 3"],
  ["unterminated, other quote inside", `(a,'b")`, 3, "unterminated quoted value at position 3"],
  ["unterminated, escaped closing quote", '(a,eq,"b\\")', 6, "unterminated quoted value at position 6"],
  ["unterminated in item", '(a,in,x|"y)', 8, "unterminated quoted value at position 8"],
  [
    "Bobby Tables in a bare value",
    "(name,Robert'); DROP TABLE students;--)",
    14,
    'unexpected ";" at position 14 (expected "and", "or" or end of filter)',
  ],
  ["quote first: unterminated", "(name,'; DROP TABLE x; --)", 6, "unterminated quoted value at position 6"],

  // --- escapes ---
  ["unknown escape", "(a,\\n)", 3, 'invalid escape "\\n" at position 3 (\\ escapes only , | \\ ( ) " \')'],
  ["escaped blank", "(a,x\\ y)", 4, 'invalid escape "\\ " at position 4 (\\ escapes only , | \\ ( ) " \')'],
  [
    "escaped letter in quotes",
    '(a,"\\d")',
    4,
    'invalid escape "\\d" at position 4 (\\ escapes only , | \\ ( ) " \')',
  ],
  ["escaped emoji", "(a,\\😀)", 3, 'invalid escape "\\😀" at position 3 (\\ escapes only , | \\ ( ) " \')'],
  [
    "backslash at the end",
    "(a,x\\",
    5,
    'unexpected end of filter at position 5 (expected a character after "\\")',
  ],
  [
    "backslash at the end of quotes",
    '(a,"x\\',
    6,
    'unexpected end of filter at position 6 (expected a character after "\\")',
  ],

  // --- characters Postgres cannot hold ---
  ["NUL in a bare value", "(a,x\u0000)", 4, "invalid character U+0000 in value at position 4"],
  ["NUL in quotes", '(a,has,"\u0000")', 8, "invalid character U+0000 in value at position 8"],
  [
    "lone high surrogate",
    "(a,\ud800)",
    3,
    "invalid character U+D800 in value at position 3 (unpaired surrogate)",
  ],
  [
    "lone low surrogate",
    "(a,x\udc00y)",
    4,
    "invalid character U+DC00 in value at position 4 (unpaired surrogate)",
  ],
  [
    "reversed pair",
    "(a,\udc00\ud800)",
    3,
    "invalid character U+DC00 in value at position 3 (unpaired surrogate)",
  ],
  [
    "high surrogate at the end of quotes",
    '(a,"\ud83d',
    4,
    "invalid character U+D83D in value at position 4 (unpaired surrogate)",
  ],

  // --- between expressions ---
  [
    "two conditions side by side",
    "(a,1)(b,2)",
    5,
    'unexpected "(" at position 5 (expected "and", "or" or end of filter)',
  ],
  [
    "unknown keyword",
    "(a,1) xor (b,2)",
    6,
    'unexpected "xor" at position 6 (expected "and", "or" or end of filter)',
  ],
  [
    "keyword glued to a word",
    "(a,1)andor(b,2)",
    5,
    'unexpected "andor" at position 5 (expected "and", "or" or end of filter)',
  ],
  [
    "keyword with a digit",
    "(a,1)or2(b,2)",
    5,
    'unexpected "or2" at position 5 (expected "and", "or" or end of filter)',
  ],
  ["symbolic and", "(a,1)&&(b,2)", 5, 'unexpected "&" at position 5 (expected "and", "or" or end of filter)'],
  [
    "comma between expressions",
    "(a,1),(b,2)",
    5,
    'unexpected "," at position 5 (expected "and", "or" or end of filter)',
  ],
  ["dangling and", "(a,1)and", 8, 'unexpected end of filter at position 8 (expected "(" or "!")'],
  [
    "dangling or with blanks",
    "(a,1) or  ",
    10,
    'unexpected end of filter at position 10 (expected "(" or "!")',
  ],
  ["and and", "(a,1) and and (b,2)", 10, 'unexpected "and" at position 10 (expected "(" or "!")'],
  ["leading and", "and(a,1)", 0, 'unexpected "and" at position 0 (expected "(" or "!")'],
  [
    "not after the expression",
    "(a,1)!",
    5,
    'unexpected "!" at position 5 (expected "and", "or" or end of filter)',
  ],
  ["juxtaposed in a group", "((a,1)(b,2))", 6, 'unexpected "(" at position 6 (expected "and", "or" or ")")'],
  ["comma in a group", "((a,1),(b,2))", 6, 'unexpected "," at position 6 (expected "and", "or" or ")")'],
  ["pipe in a group", "((a,1)|(b,2))", 6, 'unexpected "|" at position 6 (expected "and", "or" or ")")'],
  ["group holding a column", "(!(a,1) x)", 8, 'unexpected "x" at position 8 (expected "and", "or" or ")")'],
  [
    "long words are cut in messages",
    `(a,1)${"x".repeat(40)}`,
    5,
    `unexpected "${"x".repeat(32)}..." at position 5 (expected "and", "or" or end of filter)`,
  ],
  [
    "control characters are escaped in messages",
    "(a,1)\u0007",
    5,
    'unexpected "\\u0007" at position 5 (expected "and", "or" or end of filter)',
  ],
];

for (const [name, text, position, message] of cases) {
  t.test(name, async (t) => {
    t.strictSame(parseFilter(text), { ok: false, error: { position, message } }, JSON.stringify(text));
  });
}

t.test("every message states its position", async (t) => {
  for (const [, text, position] of cases) {
    const result = parseFilter(text);
    if (!result.ok) t.match(result.error.message, `at position ${position}`, JSON.stringify(text));
  }
});

t.test("a value that is not a string is an error, not an exception", async (t) => {
  for (const value of [undefined, null, 42, ["(a,1)"], { a: 1 }]) {
    t.strictSame(parseFilter(value as unknown as string), {
      ok: false,
      error: { position: 0, message: "the filter must be a string at position 0" },
    });
  }
});
