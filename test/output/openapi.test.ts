// The OpenAPI document (generator/output/openapi.ts; <app>/generated/openapi.json, served at
// /openapi.json): the example's committed file is current and the Restura fixture's matches its
// golden file (UPDATE_GOLDEN=1 rewrites); both pass a real OpenAPI 3.1 validator (shown to refuse
// a broken document); the rules that decide security, errors, paging and nullability each have an
// assertion; and the real gateway's answers match the document's response schemas.

import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import t from "tap";
import { openApiDocument, openApiSource } from "../../generator/output/index.ts";
import { testGateway } from "../harness/gateway.ts";
import { GENERATED_CASES, type GeneratedCase, matchesGenerated } from "../harness/generated.ts";

const exampleFile = path.join((GENERATED_CASES[0] as GeneratedCase).dir, "openapi.json");

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonObject>; responses: Record<string, JsonObject> };
};
type JsonObject = Record<string, unknown>;
type Operation = {
  operationId: string;
  security: JsonObject[];
  parameters?: { name: string; in: string; required: boolean; schema: JsonObject }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonObject }> };
  responses: Record<string, JsonObject>;
  deprecated?: boolean;
  description?: string;
};

async function validate(document: unknown): Promise<{ valid: boolean; version: string; errors: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(document as never);
  return { valid: result.valid, version: validator.version, errors: result.errors };
}

for (const c of GENERATED_CASES) {
  t.test(`${c.name}: the file is what the schema generates, and a valid OpenAPI 3.1 document`, async (t) => {
    matchesGenerated(t, c, "openapi.json", openApiSource);
    const result = await validate(openApiDocument(c.model));
    t.same(result.errors, undefined, "no validation errors");
    t.ok(result.valid, "valid");
    t.equal(result.version, "3.1");
  });
}

t.test("the validator refuses a broken document (so the check above can fail)", async (t) => {
  const doc = JSON.parse(fs.readFileSync(exampleFile, "utf8")) as Doc;
  const op = doc.paths["/api/v1/project/{id}"]?.get as Operation;
  (op.parameters as { in: string }[])[0] = { ...(op.parameters?.[0] as object), in: "body" } as never;
  t.notOk((await validate(doc)).valid, "a parameter `in: body` is not OpenAPI 3.1");
});

t.test("the example's document says what the gateway does", async (t) => {
  const doc = JSON.parse(fs.readFileSync(exampleFile, "utf8")) as Doc;
  const op = (p: string, method: string) => doc.paths[p]?.[method] as Operation;

  const projects = op("/api/v1/project", "get");
  t.same(projects.security, [{ bearerAuth: [] }], "a route with roles needs the bearer token");
  t.ok(projects.responses["401"] && projects.responses["403"], "and can answer 401 and 403");
  t.notOk(projects.responses["404"], "a PAGED list has no 404");
  const names = (projects.parameters ?? []).map((p) => p.name);
  for (const name of ["page", "perPage", "filter", "sortBy", "sortOrder", "after"]) {
    t.ok(names.includes(name), `PAGED takes ${name}`);
  }
  t.ok(projects.responses["422"], "paging parameters can fail validation");
  const item = doc.components.schemas.GetProjectItem as {
    properties: Record<string, JsonObject>;
    required: string[];
  };
  t.same(item.properties.ownerFirstName, { type: ["string", "null"] }, "a LEFT-joined column may be null");
  t.notOk(item.required.includes("budget"), "a column behind a rule is not required (left out, not null)");
  t.ok(item.required.includes("name"));
  t.same(item.properties.status?.enum, ["planning", "active", "on_hold", "completed", "archived"], "an ENUM");

  const publicCompany = op("/api/v1/company/public/{id}", "get");
  t.same(publicCompany.security, [{}, { bearerAuth: [] }], "an anonymous route: a token is optional");
  t.notOk(publicCompany.responses["401"], "an anonymous route never answers 401");
  t.ok(publicCompany.responses["404"], "a ONE route answers 404");
  t.equal(publicCompany.parameters?.[0]?.in, "path");

  const postTask = op("/api/v1/task", "post");
  const body = postTask.requestBody?.content["application/json"]?.schema as { required: string[] };
  t.ok(body.required.includes("title") && body.required.includes("projectId"), "required body fields");
  t.ok(postTask.responses["409"] && postTask.responses["422"], "a write can conflict and fail validation");
  t.match(postTask.description, /Scopes: tasks:write/);

  const byPriority = op("/api/v1/task/by-priority", "get");
  t.match(
    byPriority.parameters?.find((p) => p.name === "priorities"),
    {
      required: true,
      schema: { type: "array", items: { type: "string" }, minItems: 1 },
      style: "form",
      explode: true,
    },
  );

  const deprecated = op("/api/v1/task/assigned-to-me", "get");
  t.equal(deprecated.deprecated, true, "a deprecated route is deprecated");
  t.match(deprecated.description, /Replaced by GET \/task\/mine/, "with its message");
  t.notOk(op("/api/v1/task/mine", "get").deprecated, "others are not");

  const login = op("/api/v1/user/login", "post");
  t.ok(login.responses["429"], "a rate-limited route answers 429");
  t.notOk(op("/api/v1/task/mine", "get").responses["429"], "a route without a limit does not");
  t.same(login.requestBody?.content["application/json"]?.schema, {
    $ref: "#/components/schemas/LoginRequest",
  });
  t.match(doc.components.schemas.LoginRequest, { type: "object", required: ["username", "password"] });

  const upload = op("/api/v1/task/{id}/attachments", "post");
  const form = upload.requestBody?.content["multipart/form-data"]?.schema as {
    properties: Record<string, JsonObject>;
    required: string[];
  };
  t.same(form.properties.files, { type: "array", items: { type: "string", format: "binary" } });
  t.ok(form.required.includes("files"), "an upload route takes its files as multipart/form-data");
});

t.test("the gateway's answers match the document", async (t) => {
  const doc = JSON.parse(fs.readFileSync(exampleFile, "utf8")) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc as never, "openapi");
  const pointer = (...parts: string[]) =>
    parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  /** The schema of `method p`'s answer with `status`, compiled from the document. */
  const schemaOf = (p: string, method: string, status: number) => {
    const op = doc.paths[p]?.[method];
    if (!op) throw new Error(`${method} ${p} is not in the document`);
    const response = op.responses[String(status)] as JsonObject | undefined;
    if (!response) return undefined;
    const at =
      typeof response.$ref === "string"
        ? `${response.$ref.slice(1)}/content/application~1json/schema`
        : `/${pointer("paths", p, method, "responses", String(status), "content", "application/json", "schema")}`;
    const validator = ajv.getSchema(`openapi#${at}`);
    if (!validator) throw new Error(`no schema at ${at}`);
    return validator;
  };
  const check = (p: string, method: string, status: number, answer: unknown) => {
    const validator = schemaOf(p, method, status);
    t.ok(validator, `${method.toUpperCase()} ${p} documents ${status}`);
    if (validator)
      t.ok(
        validator(answer),
        `${method.toUpperCase()} ${p} ${status}: ${JSON.stringify(validator.errors ?? [])}`,
      );
  };
  const project = schemaOf("/api/v1/project/{id}", "get", 200);
  t.notOk(
    project?.({ data: { id: 1, name: 5 } }),
    "the schemas refuse a wrong answer (so the checks below can fail)",
  );
  const gw = await testGateway(t, "tpl_example");
  const MIA = { role: "member", scopes: ["tasks:write"], userId: 3, companyId: 1 };
  const MARK = { role: "manager", scopes: ["tasks:write"], userId: 2, companyId: 1 };
  const calls: [string, string, string, typeof MIA | undefined, unknown?][] = [
    ["/api/v1/project", "get", "/api/v1/project?perPage=2", MARK],
    ["/api/v1/project", "get", "/api/v1/project", MIA],
    ["/api/v1/project/{id}", "get", "/api/v1/project/1", MARK],
    ["/api/v1/project/{id}", "get", "/api/v1/project/999999", MARK],
    ["/api/v1/user/me", "get", "/api/v1/user/me", MIA],
    ["/api/v1/user/me", "get", "/api/v1/user/me", undefined],
    ["/api/v1/company/public/{id}", "get", "/api/v1/company/public/1", undefined],
    ["/api/v1/task/{id}", "get", "/api/v1/task/1", MIA],
    ["/api/v1/task/mine", "get", "/api/v1/task/mine", MIA],
    ["/api/v1/task/stats", "get", "/api/v1/task/stats", MARK],
    ["/api/v1/tag", "get", "/api/v1/tag", MIA],
    ["/api/v1/invoice", "get", "/api/v1/invoice", MARK],
    ["/api/v1/task", "post", "/api/v1/task", MIA, { projectId: 1, title: "From the contract test" }],
    ["/api/v1/task", "post", "/api/v1/task", MIA, { projectId: 1 }],
  ];
  for (const [p, method, url, as, payload] of calls) {
    const res = await gw.request({
      method: method.toUpperCase() as "GET",
      url,
      ...(as ? { as } : {}),
      ...(payload ? { payload: payload as JsonObject } : {}),
    });
    check(p, method, res.statusCode, JSON.parse(res.body));
  }
});
