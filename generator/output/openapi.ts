// The OpenAPI 3.1 document of an app (docs/generated-output.md "OpenAPI"), from the model, with the
// same typing decisions as the generated TypeScript (generator/output/types.ts): LEFT-joined
// properties may be null, properties behind a column rule are not required (left out for callers
// who may not see them), subqueries are arrays, DECIMAL is a number, dates are strings. Served at
// `/openapi.json` (gateway/http/apiDocs.ts) and written to `<app>/generated/openapi.json`.
// Deterministic: the same schema gives the same document, keys in a fixed order.

import { ERRORS, type ErrorCode } from "../model/errors.ts";
import type { Model, ModelProperty, ModelRoute, ValueType } from "../model/index.ts";
import {
  DEFAULT_PER_PAGE,
  PAGED_PARAMS,
  type PagedParam,
  SORT_ORDERS,
  TOTAL_MODES,
} from "../model/paging.ts";
import { valueType } from "../model/response.ts";
import { routeErrors } from "../model/routeErrors.ts";
import { type JsonSchema, TypeSchemaError, typeToJsonSchema } from "../schema/typeSchema.ts";
import { isStandardRoute, type RequestParam, type Route } from "../schema/types.ts";
import { routeTypeNames } from "./types.ts";

const ERROR_SCHEMA = "#/components/schemas/ErrorEnvelope";

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

const DEFAULT_INFO: OpenApiInfo = { title: "API", version: "1" };

export function openApiDocument(model: Model, info: OpenApiInfo = DEFAULT_INFO): Record<string, unknown> {
  const names = routeTypeNames(model.routes);
  const schemas: Record<string, JsonSchema> = { ErrorEnvelope: errorEnvelope() };
  const paths: Record<string, Record<string, unknown>> = {};
  const custom = new CustomTypes(model.schema.customTypes, schemas);
  for (const route of model.routes) {
    const name = names.get(route) as string;
    const path = route.path.replace(/:([A-Za-z_]\w*)/g, "{$1}");
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(
      route,
      name,
      schemas,
      custom,
    );
  }
  const codes = new Set(model.routes.flatMap(routeErrors));
  return {
    openapi: "3.1.0",
    info,
    tags: [...new Set(model.routes.map(tagOf))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses: errorResponses(codes),
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** The document as `<app>/generated/openapi.json` holds it. */
export function openApiSource(model: Model): string {
  return `${JSON.stringify(openApiDocument(model), null, 2)}\n`;
}

function operation(
  route: ModelRoute,
  name: string,
  schemas: Record<string, JsonSchema>,
  custom: CustomTypes,
): Record<string, unknown> {
  const r = route.route;
  const op: Record<string, unknown> = {
    operationId: name.charAt(0).toLowerCase() + name.slice(1),
    summary: r.name,
    ...(description(r) ? { description: description(r) } : {}),
    tags: [tagOf(route)],
  };
  const parameters = [...pathParameters(route), ...queryParameters(route)];
  if (parameters.length > 0) op.parameters = parameters;
  const body = requestBody(route, custom);
  if (body) op.requestBody = body;
  op.responses = responses(route, name, schemas, custom);
  // A route that needs a caller: the bearer token. Others take one when given (globals, custom code).
  const needsCaller = route.access !== undefined || route.globals.length > 0;
  op.security = needsCaller ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }];
  if (r.deprecation) op.deprecated = true;
  return op;
}

function description(r: Route): string {
  const parts: string[] = [];
  if (r.description) parts.push(r.description);
  if (r.roles.length > 0) parts.push(`Roles: ${r.roles.join(", ")}.`);
  if (r.scopes.length > 0) parts.push(`Scopes: ${r.scopes.join(", ")}.`);
  if (r.deprecation) {
    const d = r.deprecation;
    parts.push(
      `Deprecated since ${d.date}${d.message ? `: ${d.message}` : "."}${d.alternate ? ` Use ${d.alternate} instead.` : ""}`,
    );
  }
  if (r.rateLimit)
    parts.push(`Rate limit: ${r.rateLimit.max} requests per ${r.rateLimit.timeWindow / 1000} s.`);
  return parts.join("\n\n");
}

function pathParameters(route: ModelRoute): Record<string, unknown>[] {
  return route.pathParams.map((name) => {
    const declared = route.route.request.find((p) => p.name === name);
    return {
      name,
      in: "path",
      required: true,
      schema: declared ? paramSchema(route, declared) : columnOrText(route, name),
    };
  });
}

/** The paging parameters every PAGED route takes (docs/query-language.md), unless declared. */
const PAGING: Record<PagedParam, [JsonSchema, string]> = {
  page: [{ type: "integer", minimum: 1 }, "Page number, from 1."],
  perPage: [{ type: "integer", minimum: 1 }, `Rows per page (default ${DEFAULT_PER_PAGE}).`],
  filter: [{ type: "string" }, "A filter expression, e.g. (status,eq,active) (docs/query-language.md)."],
  sortBy: [{ type: "string" }, "A response property or table.column to sort by."],
  sortOrder: [{ type: "string", enum: [...SORT_ORDERS] }, "Sort direction (case-insensitive)."],
  after: [{ type: "string" }, "Keyset paging: the `next` cursor of the previous page."],
};

function queryParameters(route: ModelRoute): Record<string, unknown>[] {
  if (route.paramsIn !== "query") return [];
  const inPath = new Set(route.pathParams);
  const out: Record<string, unknown>[] = route.route.request
    .filter((p) => !inPath.has(p.name))
    .map((p) => {
      const schema = paramSchema(route, p);
      return {
        name: p.name,
        in: "query",
        required: p.required,
        schema,
        // Arrays as repeated keys (`a=1&a=2`), as the gateway reads them.
        ...(schema.type === "array" ? { style: "form", explode: true } : {}),
      };
    });
  if (route.kind === "PAGED") {
    const declared = new Set(route.route.request.map((p) => p.name));
    for (const name of PAGED_PARAMS) {
      const [schema, text] = PAGING[name];
      if (!declared.has(name)) out.push({ name, in: "query", required: false, schema, description: text });
    }
    out.push({
      name: "Prefer",
      in: "header",
      required: false,
      schema: { type: "string", enum: TOTAL_MODES.map((mode) => `count=${mode}`) },
      description: "How `total` is counted (docs/query-language.md).",
    });
  }
  return out;
}

function requestBody(route: ModelRoute, custom: CustomTypes): Record<string, unknown> | undefined {
  if (route.paramsIn !== "body") return undefined;
  const r = route.route;
  if (!isStandardRoute(r) && r.fileUploadType) {
    const field = r.fileUploadType === "SINGLE" ? "file" : "files";
    const file = { type: "string", format: "binary" };
    const schema = objectOf(route, r.request, true);
    (schema.properties as Record<string, JsonSchema>)[field] =
      field === "file" ? file : { type: "array", items: file };
    (schema.required as string[]).push(field);
    return { required: true, content: { "multipart/form-data": { schema } } };
  }
  const schema =
    !isStandardRoute(r) && r.requestType ? custom.ref(r.requestType) : objectOf(route, r.request, false);
  const required = !isStandardRoute(r) && r.requestType ? true : r.request.some((p) => p.required);
  return { required, content: { "application/json": { schema } } };
}

/** The request parameters (path ones left out) as one object. */
function objectOf(route: ModelRoute, params: readonly RequestParam[], text: boolean): JsonSchema {
  const inPath = new Set(route.pathParams);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    if (inPath.has(p.name)) continue;
    properties[p.name] = text
      ? { ...paramSchema(route, p), description: "Sent as a text field." }
      : paramSchema(route, p);
    if (p.required) required.push(p.name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}

/** A parameter's schema: its validators, else its column's type, else any value. */
function paramSchema(route: ModelRoute, p: RequestParam): JsonSchema {
  const check = p.validator.find((v) => v.type === "TYPE_CHECK")?.value;
  const oneOf = p.validator.find((v) => v.type === "ONE_OF")?.value;
  const min = p.validator.find((v) => v.type === "MIN")?.value;
  const max = p.validator.find((v) => v.type === "MAX")?.value;
  const declared = typeof check === "string" ? check : undefined;
  const isArray = declared?.endsWith("[]") === true;
  const kind = isArray ? declared?.slice(0, -2) : declared;
  let item: JsonSchema;
  if (kind) item = { type: kind };
  else item = columnOrText(route, p.name, false);
  if (Array.isArray(oneOf)) item = { ...item, enum: oneOf };
  const bounds = (lo: string, hi: string): JsonSchema => ({
    ...(typeof min === "number" ? { [lo]: min } : {}),
    ...(typeof max === "number" ? { [hi]: max } : {}),
  });
  let schema: JsonSchema;
  if (isArray) schema = { type: "array", items: item, ...bounds("minItems", "maxItems") };
  else if (item.type === "string") schema = { ...item, ...bounds("minLength", "maxLength") };
  else if (item.type === "number" || item.type === "integer")
    schema = { ...item, ...bounds("minimum", "maximum") };
  else schema = item;
  return p.isNullable === true ? nullable(schema) : schema;
}

/** A name that is a column of the route's base table: that column's type; else a string (paths) or any. */
function columnOrText(route: ModelRoute, name: string, text = true): JsonSchema {
  const column = route.table?.column(name);
  if (column && !column.private) return valueSchema(valueType(column.column));
  return text ? { type: "string" } : {};
}

function responses(
  route: ModelRoute,
  name: string,
  schemas: Record<string, JsonSchema>,
  custom: CustomTypes,
): Record<string, unknown> {
  const r = route.route;
  let item: JsonSchema;
  if (isStandardRoute(r)) {
    schemas[`${name}Item`] = objectSchema(route.response);
    item = { $ref: `#/components/schemas/${name}Item` };
  } else {
    item = custom.ref(r.responseType);
  }
  const envelope =
    isStandardRoute(r) && r.method === "DELETE"
      ? envelopeOf({ data: { const: true } }, ["data"])
      : route.kind === "PAGED" || route.kind === "CUSTOM_PAGED"
        ? envelopeOf(
            {
              data: { type: "array", items: item },
              total: { type: "integer", minimum: 0 },
              next: { type: ["string", "null"], description: "Keyset paging: the cursor of the next page." },
            },
            ["data", "total"],
          )
        : route.kind === "ARRAY" || route.kind === "CUSTOM_ARRAY"
          ? envelopeOf({ data: { type: "array", items: item } }, ["data"])
          : envelopeOf({ data: item }, ["data"]);
  const out: Record<string, unknown> = {
    "200": { description: "Success", content: { "application/json": { schema: envelope } } },
  };
  // Each status has one code in the registry: one shared response per code.
  for (const code of routeErrors(route)) {
    out[String(ERRORS[code].status)] = { $ref: `#/components/responses/${code}` };
  }
  return out;
}

/** The shared error responses: the envelope, with `code` fixed to this one. */
function errorResponses(codes: ReadonlySet<ErrorCode>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const code of Object.keys(ERRORS) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    const fixed = {
      type: "object",
      properties: { error: { type: "object", properties: { code: { const: code } } } },
    };
    out[code] = {
      description: ERRORS[code].message,
      content: { "application/json": { schema: { allOf: [{ $ref: ERROR_SCHEMA }, fixed] } } },
    };
  }
  return out;
}

function envelopeOf(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: "object", properties, required };
}

function objectSchema(properties: readonly ModelProperty[]): JsonSchema {
  const out: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of properties) {
    const schema = p.items ? { type: "array", items: objectSchema(p.items) } : valueSchema(p.type);
    out[p.name] = p.nullable && !p.items ? nullable(schema) : schema;
    // A property behind a column rule is left out for callers who may not see it.
    if (!p.optional) required.push(p.name);
  }
  return { type: "object", properties: out, required };
}

function valueSchema(type: ValueType): JsonSchema {
  switch (type.kind) {
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "string":
      return type.format === "date" ||
        type.format === "date-time" ||
        type.format === "time" ||
        type.format === "uuid"
        ? { type: "string", format: type.format }
        : type.format === "bytea"
          ? { type: "string", description: "Bytes as \\x followed by hex digits." }
          : type.format === "interval"
            ? { type: "string", description: "A Postgres interval." }
            : { type: "string" };
    case "enum":
      return type.values.length ? { type: "string", enum: [...type.values] } : { type: "string" };
    case "declared":
      // Restura's declared type of a raw SQL property: a primitive is typed, anything else described.
      return /^(string|number|boolean)$/.test(type.type)
        ? { type: type.type }
        : { description: `A value of type ${type.type} (computed in SQL).` };
    case "json":
    case "unknown":
      return {};
  }
}

/** `schema` or null. */
function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string") {
    const values = Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [schema.type, "null"], ...values };
  }
  // Any value (JSON, raw SQL) already includes null.
  if (Object.keys(schema).every((k) => k === "description")) return schema;
  return { anyOf: [schema, { type: "null" }] };
}

function errorEnvelope(): JsonSchema {
  return {
    type: "object",
    description: "Every failed request (docs/errors.md).",
    properties: {
      error: {
        type: "object",
        properties: {
          code: { type: "string", enum: Object.keys(ERRORS) },
          message: { type: "string" },
          details: {
            type: "object",
            additionalProperties: { type: "string" },
            description: "Field name -> what is wrong with it.",
          },
        },
        required: ["code", "message"],
      },
    },
    required: ["error"],
  };
}

/** customTypes as component schemas, converted on first use. */
class CustomTypes {
  constructor(
    private readonly sources: readonly string[],
    private readonly schemas: Record<string, JsonSchema>,
  ) {}

  ref(typeName: string): JsonSchema {
    const isArray = typeName.endsWith("[]");
    const name = isArray ? typeName.slice(0, -2) : typeName;
    if (!(name in this.schemas)) this.schemas[name] = this.convert(name);
    const ref = { $ref: `#/components/schemas/${name}` };
    return isArray ? { type: "array", items: ref } : ref;
  }

  private convert(name: string): JsonSchema {
    try {
      return typeToJsonSchema(this.sources, name);
    } catch (error) {
      if (!(error instanceof TypeSchemaError)) throw error;
      // A type the converter cannot read (generics, Record<...>): any value, named.
      return { description: `The TypeScript type ${name} (customTypes).` };
    }
  }
}

/** Operations are grouped by the first segment of their path below the group: `/task/:id` -> task. */
function tagOf(route: ModelRoute): string {
  return route.route.path.split("/").find((s) => s !== "" && !s.startsWith(":")) ?? route.group.name;
}
