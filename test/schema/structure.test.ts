import t from "tap";
import { loadSchema } from "../../generator/schema/index.ts";
import { baseSchema, err, errorsOf, getUser, load, login, user } from "./fixtures.ts";

t.test("unknown property names its key and suggests the close one", async (t) => {
  const errors = errorsOf((s) => {
    const c = user(s).columns[1];
    c.isNulable = c.isNullable;
    delete c.isNullable;
  });
  // The typo suggests the missing required property, so that one is not reported twice.
  t.same(errors, [
    err("database[1].columns[1].isNulable", 'unknown property "isNulable" (did you mean "isNullable"?)'),
  ]);
});

t.test("unknown property without a close match", async (t) => {
  t.same(
    errorsOf((s) => {
      s.database[0].colour = "red";
    }),
    [err("database[0].colour", 'unknown property "colour"')],
  );
});

t.test("standard-only properties on a custom route say so", async (t) => {
  t.same(
    errorsOf((s) => {
      login(s).table = "user";
    }),
    [
      err(
        "endpoints[0].routes[2].table",
        'unknown property "table" (only standard routes, of type ONE, ARRAY or PAGED, have it)',
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      getUser(s).responseType = "boolean";
    }),
    [
      err(
        "endpoints[0].routes[0].responseType",
        'unknown property "responseType" (only custom routes, of type CUSTOM_ONE, CUSTOM_ARRAY or CUSTOM_PAGED, have it)',
      ),
    ],
  );
});

t.test("missing required properties are reported where they belong", async (t) => {
  t.same(
    errorsOf((s) => {
      delete user(s).columns[2].type;
      delete getUser(s).table;
    }),
    [
      err("database[1].columns[2].type", 'missing required property "type"'),
      err("endpoints[0].routes[0].table", 'missing required property "table"'),
    ],
  );
  t.same(loadSchema({}).errors, [
    err("database", 'missing required property "database"'),
    err("endpoints", 'missing required property "endpoints"'),
  ]);
});

t.test("wrong JSON types", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).columns[1].isNullable = "no";
      user(s).columns[2].length = 2.5;
      s.roles = "admin";
      getUser(s).request[0].validator[0].value = { a: 1 };
    }),
    [
      err("database[1].columns[1].isNullable", 'expected a boolean, got "no"'),
      err("database[1].columns[2].length", "expected an integer, got 2.5"),
      err(
        "endpoints[0].routes[0].request[0].validator[0].value",
        "expected a string, a number or a list, got an object",
      ),
      err("roles", 'expected a list, got "admin"'),
    ],
  );
  t.same(loadSchema(null).errors, [err("", "expected an object, got null")]);
  t.same(loadSchema([1]).errors, [err("", "expected an object, got a list")]);
});

t.test("enum values list the allowed ones and suggest a close one", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).method = "GETT";
      user(s).foreignKeys[0].onDelete = "CASCADES";
    }),
    [
      err(
        "database[1].foreignKeys[0].onDelete",
        'expected one of "NO ACTION", "RESTRICT", "CASCADE", "SET NULL", "SET DEFAULT", got "CASCADES" (did you mean "CASCADE"?)',
      ),
      err(
        "endpoints[0].routes[0].method",
        'expected one of "GET", "POST", "PUT", "PATCH", "DELETE", got "GETT" (did you mean "GET"?)',
      ),
    ],
  );
});

t.test("an unknown route type reports only itself", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).type = "ONEE";
    }),
    [
      err(
        "endpoints[0].routes[0].type",
        'expected one of "ONE", "ARRAY", "PAGED", "CUSTOM_ONE", "CUSTOM_ARRAY", "CUSTOM_PAGED", got "ONEE" (did you mean "ONE"?)',
      ),
    ],
  );
});

t.test("empty names and empty lists", async (t) => {
  t.same(
    errorsOf((s) => {
      user(s).columns[1].name = "";
      s.database[0].columns = [];
    }),
    [
      err("database[0].columns", "expected a non-empty list"),
      err("database[1].columns[1].name", "expected a non-empty string"),
    ],
  );
});

t.test("optional lists default to empty and customTypes may be one string", async (t) => {
  const r = load((s) => {
    for (const table of s.database) {
      delete table.indexes;
      delete table.checkConstraints;
      delete table.roles;
      delete table.scopes;
    }
    user(s).foreignKeys = [];
    s.database[2].foreignKeys = [];
    delete getUser(s).joins;
    delete getUser(s).assignments;
    delete login(s).request;
    delete login(s).description;
    s.customTypes = s.customTypes[0];
    delete s.scopes;
    delete s.globalParams;
    delete s.roles;
    s.endpoints[0].routes.splice(1, 1);
    getUser(s).roles = [];
  });
  t.same(r.errors, []);
  const schema = r.schema;
  if (!schema) throw new Error("no schema");
  t.same(schema.database[0]?.indexes, []);
  t.same(schema.database[0]?.policies, []);
  t.same(schema.database[0]?.roles, []);
  t.same(schema.customTypes, ["export interface AuthResponse {\n  token: string;\n}"]);
  t.same(schema.extensions, []);
  t.same(schema.globalParams, []);
  const custom = schema.endpoints[0]?.routes[1];
  t.same(custom, {
    name: "login",
    description: "",
    method: "POST",
    path: "/user/login",
    roles: [],
    scopes: [],
    request: [],
    type: "CUSTOM_ONE",
    responseType: "AuthResponse",
  });
});

t.test("a $schema key is allowed for editors", async (t) => {
  t.same(
    errorsOf((s) => {
      s.$schema = "./api.schema.json";
    }),
    [],
  );
});

t.test("the input is not modified", async (t) => {
  const raw = baseSchema();
  raw.endpoints[0].routes[1].where[0].value = "bill";
  const before = JSON.stringify(raw);
  loadSchema(raw);
  t.equal(JSON.stringify(raw), before);
});

t.test("one mistake is reported once, not again by every check that depends on it", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).request = {};
    }),
    [err("endpoints[0].routes[0].request", "expected a list, got an object")],
  );
  t.same(
    errorsOf((s) => {
      s.globalParams = "userId";
    }),
    [err("globalParams", 'expected a list, got "userId"')],
  );
  t.same(
    errorsOf((s) => {
      user(s).columns[0].isPrimary = "yes";
    }),
    [err("database[1].columns[0].isPrimary", 'expected a boolean, got "yes"')],
  );
  t.same(
    errorsOf((s) => {
      getUser(s).table = "usr";
    }),
    [err("endpoints[0].routes[0].table", 'table "usr" does not exist (did you mean "user"?)')],
  );
  t.same(
    errorsOf((s) => {
      s.endpoints[0].routes[1].joins[0] = null;
    }),
    [err("endpoints[0].routes[1].joins[0]", "expected an object, got null")],
  );
  t.same(
    errorsOf((s) => {
      getUser(s).response[0].selector = null;
    }),
    [err("endpoints[0].routes[0].response[0].selector", "expected a string, got null")],
  );
});
