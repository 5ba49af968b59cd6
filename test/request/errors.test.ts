import t from "tap";
import {
  ApiError,
  ERRORS,
  type ErrorCode,
  errorBody,
  fromPostgresError,
  OUR_SQLSTATES,
  POSTGRES_SQLSTATES,
} from "../../gateway/errors.ts";

/** What node-postgres throws: an Error with the SQLSTATE in `code`. */
function pgError(code: string | undefined, message: string): Error {
  return Object.assign(new Error(message), { code, severity: "ERROR", detail: `detail of ${message}` });
}

const SECRET = 'relation "secret_table" does not exist at character 42';

t.test("every code has its status and a message", async (t) => {
  const expected: Record<ErrorCode, number> = {
    BAD_REQUEST: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    REQUEST_TIMEOUT: 408,
    CONFLICT: 409,
    GONE: 410,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    VALIDATION_ERROR: 422,
    TOO_MANY_REQUESTS: 429,
    HEADERS_TOO_LARGE: 431,
    SERVER_ERROR: 500,
    NOT_IMPLEMENTED: 501,
    SERVICE_UNAVAILABLE: 503,
    GATEWAY_TIMEOUT: 504,
  };
  t.same(Object.keys(ERRORS).sort(), Object.keys(expected).sort());
  for (const [code, status] of Object.entries(expected) as [ErrorCode, number][]) {
    t.equal(ERRORS[code].status, status, code);
    t.ok(ERRORS[code].message.length > 0, `${code} has a message`);
    const err = new ApiError(code);
    t.equal(err.status, status);
    t.equal(err.message, ERRORS[code].message);
  }
  t.equal(ERRORS.SERVER_ERROR.message, "An unexpected error occurred");
});

t.test("ApiError carries code, status, message, details and keeps the cause out of the body", async (t) => {
  const cause = new Error("internal");
  const err = new ApiError("VALIDATION_ERROR", "bad input", { id: "must be a number" }, { cause });
  t.ok(err instanceof Error);
  t.equal(err.name, "ApiError");
  t.equal(err.code, "VALIDATION_ERROR");
  t.equal(err.status, 422);
  t.equal(err.message, "bad input");
  t.same(err.details, { id: "must be a number" });
  t.equal(err.cause, cause);
  t.same(err.toBody(), {
    error: { code: "VALIDATION_ERROR", message: "bad input", details: { id: "must be a number" } },
  });
  t.notOk(JSON.stringify(err.toBody()).includes("internal"));
  t.notOk("details" in new ApiError("NOT_FOUND"), "no details key when none");
});

t.test("errorBody", async (t) => {
  t.same(errorBody("NOT_FOUND", "Route not found"), {
    error: { code: "NOT_FOUND", message: "Route not found" },
  });
  t.same(errorBody("CONFLICT"), { error: { code: "CONFLICT", message: ERRORS.CONFLICT.message } });
  t.same(errorBody("VALIDATION_ERROR", "Request validation failed", { a: "is required" }), {
    error: { code: "VALIDATION_ERROR", message: "Request validation failed", details: { a: "is required" } },
  });
  t.notOk("details" in errorBody("BAD_REQUEST", "x").error);
});

t.test(
  "fromPostgresError maps each of our SQLSTATEs with the raised (generator-owned) message",
  async (t) => {
    const expected: [string, ErrorCode, number][] = [
      ["A0400", "BAD_REQUEST", 400],
      ["A0401", "UNAUTHORIZED", 401],
      ["A0403", "FORBIDDEN", 403],
      ["A0404", "NOT_FOUND", 404],
      ["A0409", "CONFLICT", 409],
      ["A0410", "GONE", 410],
      ["A0422", "VALIDATION_ERROR", 422],
    ];
    t.same(Object.keys(OUR_SQLSTATES).sort(), expected.map(([s]) => s).sort());
    for (const [state, code, status] of expected) {
      const original = pgError(state, `raised for ${state}`);
      const err = fromPostgresError(original);
      t.ok(err instanceof ApiError);
      t.equal(err.code, code, state);
      t.equal(err.status, status, state);
      t.equal(err.message, `raised for ${state}`);
      t.equal(err.cause, original, "the original is kept for the log");
      t.equal(err.details, undefined);
    }
    t.equal(
      fromPostgresError(pgError("A0404", "")).message,
      ERRORS.NOT_FOUND.message,
      "empty message: default",
    );
  },
);

t.test("other SQLSTATEs are a 500 that hides Postgres's text", async (t) => {
  for (const state of [
    "42P01",
    "42703",
    "22P02",
    "XX000",
    "P0001",
    "40001",
    "53100",
    "A0500",
    "A04",
    undefined,
  ]) {
    const original = pgError(state, SECRET);
    const err = fromPostgresError(original);
    t.equal(err.code, "SERVER_ERROR", String(state));
    t.equal(err.status, 500);
    t.equal(err.message, "An unexpected error occurred");
    t.equal(err.details, undefined);
    const body = JSON.stringify(errorBody(err.code, err.message, err.details));
    t.notOk(body.includes("secret_table"), "the original message does not appear");
    t.notOk(body.includes("detail of"), "nor its detail");
    t.equal(err.cause, original);
  }
  t.equal(fromPostgresError(new TypeError("x is undefined")).code, "SERVER_ERROR");
  t.equal(fromPostgresError("a string").code, "SERVER_ERROR");
  t.equal(fromPostgresError(null).code, "SERVER_ERROR");
  t.equal(fromPostgresError({ code: 42 }).code, "SERVER_ERROR", "a non-string code");
  t.equal(fromPostgresError(pgError("__proto__", SECRET)).code, "SERVER_ERROR");
});

t.test("constraint classes are not mapped until the write-routes work adds them", async (t) => {
  for (const state of ["23505", "23503", "23502", "23514"]) {
    const err = fromPostgresError(
      pgError(state, `duplicate key value violates unique constraint "${SECRET}"`),
    );
    t.equal(err.code, "SERVER_ERROR", state);
    t.notOk(err.message.includes("secret"));
  }
});

t.test("POSTGRES_SQLSTATES: constraint violations of writes, named from the schema's map", async (t) => {
  t.same(Object.keys(POSTGRES_SQLSTATES).sort(), ["23001", "23502", "23503", "23505", "23514"]);
  const constraints = {
    find: (table: string, name: string) =>
      (<Record<string, { table: string; name: string; kind: string; columns: string[]; refTable?: string }>>{
        "user/user_email_key": { table: "user", name: "user_email_key", kind: "unique", columns: ["email"] },
        "task/task_fk": {
          table: "task",
          name: "task_fk",
          kind: "foreignKey",
          columns: ["projectId"],
          refTable: "project",
        },
        "task/task_title_check": {
          table: "task",
          name: "task_title_check",
          kind: "check",
          columns: ["title"],
        },
      })[`${table}/${name}`],
    hasColumn: (table: string, column: string) => table === "task" && column === "title",
  };
  const ctx = { constraints, method: "POST", table: "task" };
  const fail = (code: string, fields: Record<string, string>) => Object.assign(pgError(code, SECRET), fields);

  let err = fromPostgresError(fail("23505", { table: "user", constraint: "user_email_key" }), ctx);
  t.match(err, { code: "CONFLICT", status: 409, message: "A user with this email already exists" });
  t.same(err.details, { email: "is already taken" });
  err = fromPostgresError(fail("23503", { table: "task", constraint: "task_fk" }), ctx);
  t.match(err, { code: "CONFLICT", message: "projectId does not refer to an existing project" });
  err = fromPostgresError(fail("23503", { table: "task", constraint: "task_fk" }), {
    ...ctx,
    method: "DELETE",
  });
  t.match(err, { code: "CONFLICT", message: "This project is still referenced by task (projectId)" });
  err = fromPostgresError(fail("23502", { table: "task", column: "title" }), ctx);
  t.match(err, { code: "VALIDATION_ERROR", status: 422 });
  t.same(err.details, { title: "must not be null" });
  err = fromPostgresError(fail("23514", { table: "task", constraint: "task_title_check" }), ctx);
  t.match(err, { code: "VALIDATION_ERROR", message: "The values do not satisfy the check task_title_check" });
  t.same(err.details, { title: "does not satisfy the check task_title_check" });

  for (const [code, fields] of [
    ["23505", { table: "user", constraint: "not_in_the_schema" }],
    ["23503", { table: "task", constraint: "user_email_key" }],
    ["23502", { table: "task", column: "secret" }],
    ["23514", { table: "task", constraint: "task_title_check", schema: "other" }],
  ] as const) {
    t.equal(
      fromPostgresError(fail(code, fields), ctx).code,
      "SERVER_ERROR",
      `${code} ${JSON.stringify(fields)}`,
    );
  }
  t.equal(
    fromPostgresError(fail("23505", { table: "user", constraint: "user_email_key" })).code,
    "SERVER_ERROR",
    "without a write context (reads) nothing is mapped",
  );
  t.notMatch(
    JSON.stringify(
      fromPostgresError(fail("23505", { table: "user", constraint: "user_email_key" }), ctx).toBody(),
    ),
    /secret/,
  );
});

t.test("connection failures are 503 SERVICE_UNAVAILABLE", async (t) => {
  const states = [
    "08000",
    "08001",
    "08003",
    "08004",
    "08006",
    "08007",
    "08P01",
    "57P01",
    "57P02",
    "57P03",
    "53300",
  ];
  const errnos = [
    "ECONNREFUSED",
    "ECONNRESET",
    "ETIMEDOUT",
    "EPIPE",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
  ];
  for (const state of [...states, ...errnos]) {
    const err = fromPostgresError(pgError(state, `${SECRET} (${state})`));
    t.equal(err.code, "SERVICE_UNAVAILABLE", state);
    t.equal(err.status, 503);
    t.equal(err.message, ERRORS.SERVICE_UNAVAILABLE.message);
    t.notOk(err.message.includes("secret"));
  }
  // A statement timeout is the database not answering in time (docs/operations.md "Faults").
  const timeout = fromPostgresError(pgError("57014", "canceling statement due to statement timeout"));
  t.equal(timeout.code, "GATEWAY_TIMEOUT");
  t.equal(timeout.status, 504);
  t.equal(timeout.message, ERRORS.GATEWAY_TIMEOUT.message);
});

t.test("an ApiError passes through unchanged", async (t) => {
  const err = new ApiError("FORBIDDEN", "nope");
  t.equal(fromPostgresError(err), err);
});
