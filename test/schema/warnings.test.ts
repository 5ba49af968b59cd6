import t from "tap";
import { err, getUser, listOrders, load, order, user } from "./fixtures.ts";

t.test("undeclared roles and scopes are warnings wherever they are used", async (t) => {
  const r = load((s) => {
    user(s).roles = ["admn"];
    user(s).columns[2].scopes = ["read:email"];
    order(s).policies = [{ name: "mine", roles: ["customer"], scopes: ["read:usr"], where: [] }];
    getUser(s).roles = ["admin", "athlete"];
    listOrders(s).scopes = ["read:user", "write:order"];
  });
  t.same(r.errors, []);
  t.ok(r.schema, "warnings do not stop the schema from loading");
  t.same(r.warnings, [
    err("database[1].columns[2].scopes[0]", 'scope "read:email" is not declared in scopes'),
    err("database[1].roles[0]", 'role "admn" is not declared in roles (did you mean "admin"?)'),
    err("database[2].policies[0].roles[0]", 'role "customer" is not declared in roles'),
    err(
      "database[2].policies[0].scopes[0]",
      'scope "read:usr" is not declared in scopes (did you mean "read:user"?)',
    ),
    err("endpoints[0].routes[0].roles[1]", 'role "athlete" is not declared in roles'),
    err("endpoints[0].routes[1].scopes[1]", 'scope "write:order" is not declared in scopes'),
  ]);
});

t.test("duplicates and bad names in the top-level lists are errors", async (t) => {
  const r = load((s) => {
    s.roles.push("admin");
    s.scopes.push("read:user");
    s.globalParams.push("userId", "company-id", "USERID");
    s.extensions = ["pg_trgm", "uuid-ossp", "pg_trgm", "bad name"];
  });
  t.same(r.errors, [
    err("extensions[2]", 'duplicate extension "pg_trgm"'),
    err("extensions[3]", 'invalid extension name "bad name"'),
    err("globalParams[2]", 'duplicate global parameter "userId"'),
    err(
      "globalParams[3]",
      'invalid global parameter name "company-id": use letters, digits and _, not starting with a digit',
    ),
    err("globalParams[4]", 'global parameter "USERID" differs from "userId" only in case'),
    err("roles[2]", 'duplicate role "admin"'),
    err("scopes[1]", 'duplicate scope "read:user"'),
  ]);
  t.equal(r.schema, undefined, "no schema when there are errors");
});

t.test("warnings are kept alongside errors", async (t) => {
  const r = load((s) => {
    getUser(s).roles = ["nobody"];
    getUser(s).method = "PUT";
    getUser(s).where[0].value = "bill";
    getUser(s).where.push({ tableName: "user", columnName: "nope", operator: "=", value: 1 });
  });
  t.same(r.errors, [err("endpoints[0].routes[0].where[1].columnName", 'table "user" has no column "nope"')]);
  t.same(r.warnings, [
    err("endpoints[0].routes[0].roles[0]", 'role "nobody" is not declared in roles'),
    err(
      "endpoints[0].routes[0].where[0].value",
      "bare word \"bill\" is read as the text 'bill'; quote it to say so",
    ),
  ]);
});

t.test("extensions are kept in the normalised schema", async (t) => {
  const r = load((s) => {
    s.extensions = ["pg_trgm", "uuid-ossp"];
  });
  t.same(r.errors, []);
  t.same(r.schema?.extensions, ["pg_trgm", "uuid-ossp"]);
});
