// What the gateway derives from a caller is worked out once per frozen (remembered) caller and
// every time for any other (gateway/auth/perCaller.ts).

import t from "tap";
import { perCaller } from "../../gateway/auth/perCaller.ts";
import type { UserContext } from "../../gateway/auth/types.ts";

t.test("once per frozen caller, every time for one that is not", async (t) => {
  let calls = 0;
  const roleOf = perCaller((user) => {
    calls++;
    return `${user.role}:${calls}`;
  });
  const frozen: UserContext = Object.freeze({ role: "a", scopes: [], globals: {} });
  t.equal(roleOf(frozen), "a:1");
  t.equal(roleOf(frozen), "a:1", "remembered");
  const other: UserContext = Object.freeze({ role: "b", scopes: [], globals: {} });
  t.equal(roleOf(other), "b:2", "per caller object");
  const open: UserContext = { role: "c", scopes: [], globals: {} };
  t.equal(roleOf(open), "c:3");
  open.role = "d";
  t.equal(roleOf(open), "d:4", "a caller that can change is not remembered");
});
