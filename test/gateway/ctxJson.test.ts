// The caller context text a standard route sends (gateway/routes/ctxJson.ts) is exactly
// JSON.stringify(toCtx(...)), the object the route functions were written against: anonymous,
// with and without role, scopes, globals of every JSON type, globals absent, undefined or named
// like a reserved claim, and names that need escaping.

import t from "tap";
import { toCtx } from "../../gateway/auth/context.ts";
import type { AuthResult } from "../../gateway/auth/types.ts";
import { compileCtxJson } from "../../gateway/routes/ctxJson.ts";

const globalParams = ["companyId", "userId", "flag", "name", 'we"ird\\', "role", "companyId"];
const results: AuthResult[] = [
  { anonymous: true, reason: "missing" },
  { user: { role: null, scopes: [], globals: {} } },
  { user: { role: "admin", scopes: ["a", "b:c"], globals: { companyId: 1, userId: 2 } } },
  {
    user: {
      role: 'ro"le',
      scopes: ["\u0000x", "é"],
      globals: { companyId: "1", flag: true, name: null, 'we"ird\\': "v", role: "ignored", extra: 5 },
    },
  },
  { user: { role: "user", scopes: [], globals: { userId: undefined } as never } },
];

t.test("compiled ctx text equals JSON.stringify(toCtx(...))", async (t) => {
  const ctxJson = compileCtxJson(globalParams);
  for (const result of results) {
    t.equal(ctxJson(result), JSON.stringify(toCtx(result, globalParams)), JSON.stringify(result));
  }
  t.equal(compileCtxJson([])(results[2] as AuthResult), '{"role":"admin","scopes":["a","b:c"]}');
});
