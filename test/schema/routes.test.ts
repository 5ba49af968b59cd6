import t from "tap";
import { handlerMethodName } from "../../generator/schema/index.ts";
import {
  customRoute,
  err,
  errorsOf,
  getUser,
  listOrders,
  load,
  login,
  type Raw,
  routes,
  warningsOf,
} from "./fixtures.ts";

const clone = (x: Raw): Raw => JSON.parse(JSON.stringify(x));

t.test("baseUrl starts with / and has no trailing slash, empty segment or parameter", async (t) => {
  t.same(
    errorsOf((s) => {
      s.endpoints.push(
        { name: "V2", baseUrl: "api/v2", routes: [] },
        { name: "V3", baseUrl: "/api/v3/", routes: [] },
        { name: "V4", baseUrl: "/api//v4", routes: [] },
        { name: "V5", baseUrl: "/api/:version", routes: [] },
      );
    }),
    [
      err("endpoints[1].baseUrl", 'baseUrl must start with "/", got "api/v2"'),
      err("endpoints[2].baseUrl", 'baseUrl must not end with "/", got "/api/v3/"'),
      err("endpoints[3].baseUrl", 'baseUrl must not contain empty segments, got "/api//v4"'),
      err("endpoints[4].baseUrl", 'baseUrl cannot hold parameters, got "/api/:version"'),
    ],
  );
});

t.test("endpoint group names are unique", async (t) => {
  t.same(
    errorsOf((s) => {
      s.endpoints.push({ name: "V1", description: "", baseUrl: "/api/v2", routes: [] });
    }),
    [err("endpoints[1].name", 'duplicate endpoint group name "V1" (also at endpoints[0])')],
  );
});

t.test("path shape and parameters", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).path = "user/:id";
      listOrders(s).path = "/order//x/:1x/:a/:a";
      listOrders(s).request.push({ name: "a", required: true });
    }),
    [
      err("endpoints[0].routes[0].path", 'path must start with "/", got "user/:id"'),
      err("endpoints[0].routes[1].path", 'invalid path parameter ":1x": use letters, digits and _ after ":"'),
      err("endpoints[0].routes[1].path", 'path must not contain empty segments, got "/order//x/:1x/:a/:a"'),
      err("endpoints[0].routes[1].path", 'path parameter ":a" appears more than once'),
    ],
  );
});

t.test("path parameters must be declared request parameters", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).request = [];
      getUser(s).where[0].value = 5;
    }),
    [err("endpoints[0].routes[0].path", 'path parameter ":id" is not declared in request')],
  );
});

t.test("trailing slashes are ignored and removed", async (t) => {
  const r = load((s) => {
    getUser(s).path = "/user/:id/";
  });
  t.same(r.errors, []);
  t.equal(r.schema?.endpoints[0]?.routes[0]?.path, "/user/:id");
});

t.test("method + full path is unique across groups; parameter names do not matter", async (t) => {
  t.same(
    errorsOf((s) => {
      const r = clone(getUser(s));
      r.path = "/user/:userId";
      r.request[0].name = "userId";
      r.where[0].value = "$userId";
      routes(s).push(r);
    }),
    [
      err(
        "endpoints[0].routes[3].path",
        "GET /api/v1/user/:userId conflicts with GET /api/v1/user/:id at endpoints[0].routes[0]",
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      const r = clone(getUser(s));
      r.path = "/v1/user/:x";
      r.request[0].name = "x";
      r.where[0].value = "$x";
      s.endpoints.push({ name: "other", description: "", baseUrl: "/api", routes: [r] });
    }),
    [
      err(
        "endpoints[1].routes[0].path",
        "GET /api/v1/user/:x conflicts with GET /api/v1/user/:id at endpoints[0].routes[0]",
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      const r = clone(login(s));
      r.path = "/user/login/";
      r.name = "login again";
      routes(s).push(r);
    }),
    [
      err(
        "endpoints[0].routes[3].path",
        "duplicate route POST /api/v1/user/login (also at endpoints[0].routes[2])",
      ),
    ],
  );
});

t.test("a literal segment does not conflict with a parameter; other methods do not conflict", async (t) => {
  t.same(
    errorsOf((s) => {
      const me = clone(getUser(s));
      me.path = "/user/me";
      me.request = [];
      me.where[0].value = "#userId";
      const del = clone(getUser(s));
      del.method = "DELETE";
      routes(s).push(me, del);
    }),
    [],
  );
});

t.test("request parameters: unique identifiers", async (t) => {
  t.same(
    errorsOf((s) => {
      getUser(s).request.push({ name: "id", required: false }, { name: "my-param", required: false });
    }),
    [
      err("endpoints[0].routes[0].request[1].name", 'duplicate request parameter "id"'),
      err(
        "endpoints[0].routes[0].request[2].name",
        'invalid request parameter name "my-param": use letters, digits and _, not starting with a digit',
      ),
    ],
  );
});

t.test("validators", async (t) => {
  const p = "endpoints[0].routes[0].request";
  t.same(
    errorsOf((s) => {
      getUser(s).request.push(
        {
          name: "a",
          required: false,
          validator: [
            { type: "TYPE_CHECK", value: "strin" },
            { type: "TYPE_CHECK", value: "number" },
            { type: "ONE_OF", value: [] },
            { type: "MIN", value: "3" },
          ],
        },
        {
          name: "b",
          required: false,
          validator: [
            { type: "TYPE_CHECK", value: "string" },
            { type: "ONE_OF", value: ["x", 3] },
            { type: "MIN", value: 5 },
            { type: "MAX", value: 1 },
          ],
        },
        {
          name: "c",
          required: false,
          validator: [
            { type: "TYPE_CHECK", value: "boolean" },
            { type: "MAX", value: 1 },
          ],
        },
        {
          name: "d",
          required: false,
          validator: [
            { type: "TYPE_CHECK", value: "number[]" },
            { type: "ONE_OF", value: "x" },
          ],
        },
      );
    }),
    [
      err(
        `${p}[1].validator[0].value`,
        'expected "string", "number", "boolean", "object" or an array of one of them like "string[]", got "strin" (did you mean "string"?)',
      ),
      err(`${p}[1].validator[1].type`, "duplicate TYPE_CHECK validator"),
      err(`${p}[1].validator[2].value`, "ONE_OF needs a non-empty list of allowed values, got an empty list"),
      err(`${p}[1].validator[3].value`, 'MIN needs a number, got "3"'),
      err(`${p}[2].validator[1].value[1]`, '3 does not match TYPE_CHECK "string"'),
      err(`${p}[2].validator[3].value`, "MAX 1 is less than MIN 5"),
      err(`${p}[3].validator[1].type`, "MAX does not apply to boolean parameters"),
      err(`${p}[4].validator[1].value`, 'ONE_OF needs a non-empty list of allowed values, got "x"'),
    ],
  );
  t.same(
    errorsOf((s) => {
      getUser(s).request.push({
        name: "tags",
        required: false,
        isNullable: true,
        validator: [
          { type: "TYPE_CHECK", value: "object[]" },
          { type: "MIN", value: 1 },
          { type: "MAX", value: 10 },
        ],
      });
    }),
    [],
  );
});

t.test("standard route rules by method and type", async (t) => {
  t.same(
    errorsOf((s) => {
      listOrders(s).type = "PAGED";
      listOrders(s).method = "POST";
    }),
    [err("endpoints[0].routes[1].method", "PAGED routes must use GET, got POST")],
  );
  t.same(
    errorsOf((s) => {
      listOrders(s).method = "DELETE";
      listOrders(s).where = [];
      listOrders(s).assignments = [{ name: "userId", value: "#userId" }];
    }),
    [
      err(
        "endpoints[0].routes[1].assignments",
        "assignments only apply to POST, PUT and PATCH routes, not DELETE",
      ),
      err(
        "endpoints[0].routes[1].where",
        "a DELETE route needs at least one where condition (it would delete every row)",
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      listOrders(s).response = [];
    }),
    [err("endpoints[0].routes[1].response", "a GET route needs at least one response property")],
  );
  t.same(
    errorsOf((s) => {
      listOrders(s).method = "DELETE";
      listOrders(s).response = [];
    }),
    [],
  );
});

t.test("deprecation: ISO date, alternate path", async (t) => {
  const r = load((s) => {
    getUser(s).deprecation = { date: "soon", alternate: "user/me" };
    listOrders(s).deprecation = { date: "2026-01-01", alternate: "/api/v1/orders" };
    login(s).deprecation = {
      date: "2026-01-01T00:00:00.000Z",
      message: "use /user/:id",
      alternate: "/user/:id",
    };
  });
  t.same(r.errors, [
    err(
      "endpoints[0].routes[0].deprecation.alternate",
      'alternate must be a path starting with "/", got "user/me"',
    ),
    err(
      "endpoints[0].routes[0].deprecation.date",
      'expected an ISO 8601 date like "2026-12-31" or "2026-12-31T00:00:00Z", got "soon"',
    ),
  ]);
  t.same(r.warnings, [
    err("endpoints[0].routes[1].deprecation.alternate", 'no route has the path "/api/v1/orders"'),
  ]);
});

t.test("custom routes: response and request types", async (t) => {
  t.same(
    errorsOf((s) => {
      login(s).responseType = "AuthRespons";
      login(s).requestType = "Login";
      login(s).request = [];
    }),
    [
      err(
        "endpoints[0].routes[2].requestType",
        'unknown request type "Login": expected a type declared in customTypes',
      ),
      err(
        "endpoints[0].routes[2].responseType",
        'unknown response type "AuthRespons": expected boolean, string, number, a type declared in customTypes, or an array of one of them (did you mean "AuthResponse"?)',
      ),
    ],
  );
  for (const type of [
    "boolean",
    "string",
    "number",
    "number[]",
    "AuthResponse",
    "AuthResponse[]",
    "Login",
    "Paged",
  ]) {
    t.same(
      errorsOf((s) => {
        s.customTypes.push("type Login = { email: string }", "export type Paged<T> = { data: T[] }");
        login(s).responseType = type;
      }),
      [],
      type,
    );
  }
  t.same(
    errorsOf((s) => {
      s.customTypes.push("interface Login extends Base { email: string }");
      login(s).requestType = "Login";
    }),
    [
      err(
        "endpoints[0].routes[2].request",
        "a route with requestType takes its whole input from that type; remove the request list",
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      s.customTypes.push("export interface Avatar { id: number }");
      login(s).path = "/user/:id/avatar";
      login(s).requestType = "Avatar";
      login(s).request = [];
    }),
    [],
    "with requestType, path parameters come from the type",
  );
});

t.test("custom routes: file uploads", async (t) => {
  const r = load((s) => {
    login(s).fileUploadType = "Multiple";
  });
  t.same(r.errors, []);
  t.equal(customRoute(r, 2).fileUploadType, "MULTIPLE");
  t.same(
    errorsOf((s) => {
      login(s).fileUploadType = "single";
      login(s).method = "GET";
    }),
    [err("endpoints[0].routes[2].fileUploadType", "file uploads need POST, PUT or PATCH, got GET")],
  );
  t.same(
    errorsOf((s) => {
      login(s).fileUploadType = "ONE";
    }),
    [err("endpoints[0].routes[2].fileUploadType", 'expected one of "SINGLE", "MULTIPLE", got "ONE"')],
  );
});

t.test("custom routes: action and handler names", async (t) => {
  t.same(
    errorsOf((s) => {
      login(s).action = "log-in";
    }),
    [
      err(
        "endpoints[0].routes[2].action",
        'invalid action "log-in": expected a method name (letters, digits, _ and $)',
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      const withParam = clone(login(s));
      withParam.path = "/user/:id/login";
      withParam.request.push({ name: "id", required: true });
      const renamed = clone(login(s));
      renamed.path = "/user/other";
      renamed.action = "postUserLogin";
      const otherFile = clone(login(s));
      otherFile.path = "/account/login";
      otherFile.action = "postUserLogin";
      routes(s).push(withParam, renamed, otherFile);
    }),
    [
      err(
        "endpoints[0].routes[3].path",
        'handler method "postUserLogin" is also used by endpoints[0].routes[2] (same handler file)',
      ),
      err(
        "endpoints[0].routes[4].action",
        'handler method "postUserLogin" is also used by endpoints[0].routes[2] (same handler file)',
      ),
    ],
  );
  t.same(
    errorsOf((s) => {
      login(s).path = "/:id/login";
      login(s).request.push({ name: "id", required: true });
    }),
    [
      err(
        "endpoints[0].routes[2].path",
        "a custom route's path must start with a literal segment (it names the handler file)",
      ),
    ],
  );
  t.equal(handlerMethodName("POST", "/user/refresh-token"), "postUserRefreshToken");
  t.equal(handlerMethodName("GET", "/user/me"), "getUserMe");
  t.equal(handlerMethodName("POST", "/user/me/avatar"), "postUserMeAvatar");
  t.equal(handlerMethodName("PATCH", "/order/status"), "patchOrderStatus");
  t.equal(handlerMethodName("DELETE", "/user/:id/tag/:tagId"), "deleteUserTag");
});

t.test("custom routes keep action and requestType in the normalised output", async (t) => {
  const r = load((s) => {
    s.customTypes.push("export interface LoginRequest { email: string }");
    login(s).action = "logIn";
    login(s).requestType = "LoginRequest";
    login(s).request = [];
  });
  t.same(r.errors, []);
  t.same(
    warningsOf(() => {}),
    [],
  );
  t.match(r.schema?.endpoints[0]?.routes[2], {
    action: "logIn",
    requestType: "LoginRequest",
    responseType: "AuthResponse",
  });
});
