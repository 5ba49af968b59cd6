// The JSON Schema of the file format (draft-07, checked by ajv in structure.ts). It checks shapes
// only: property names, JSON types, required properties and fixed enums. Everything that needs
// context (names that must exist, case-insensitive words, value forms) is checked afterwards.

import {
  CUSTOM_ROUTE_TYPES,
  FK_ACTIONS,
  HTTP_METHODS,
  JOIN_TYPES,
  STANDARD_ROUTE_TYPES,
  VALIDATOR_TYPES,
} from "./types.ts";

type JsonSchema = Record<string, unknown>;

const name: JsonSchema = { type: "string", minLength: 1 };
const text: JsonSchema = { type: "string" };
const flag: JsonSchema = { type: "boolean" };
const names: JsonSchema = { type: "array", items: name };
const order: JsonSchema = { enum: ["ASC", "DESC"] };
const ref = (def: string): JsonSchema => ({ $ref: `#/definitions/${def}` });
const list = (def: string): JsonSchema => ({ type: "array", items: ref(def) });

/** JSON Schema's if/then/else. */
function when(condition: JsonSchema, then: JsonSchema, otherwise?: JsonSchema): JsonSchema {
  const schema: JsonSchema = { if: condition, then };
  if (otherwise) schema.else = otherwise;
  return schema;
}

function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: "object", properties, required, additionalProperties: false };
}

const column = object(
  {
    name,
    type: name,
    isNullable: flag,
    roles: names,
    scopes: names,
    length: { type: "integer" },
    value: text,
    default: name,
    isPrimary: flag,
    isUnique: flag,
    hasAutoIncrement: flag,
    comment: text,
    renamedFrom: name,
    private: flag,
  },
  ["name", "type", "isNullable"],
);

const indexColumn = object({ column: name, expression: name, opclass: name, order });

const index = object(
  {
    name,
    columns: {
      type: "array",
      minItems: 1,
      items: { type: ["string", "object"], minLength: 1, ...when({ type: "object" }, ref("indexColumn")) },
    },
    isUnique: flag,
    isPrimaryKey: flag,
    order,
    where: name,
    using: name,
  },
  ["name", "columns", "isUnique", "isPrimaryKey"],
);

const fkAction: JsonSchema = { enum: [...FK_ACTIONS] };
const foreignKey = object(
  {
    name,
    column: name,
    columns: { type: "array", minItems: 1, items: name },
    refTable: name,
    refColumn: name,
    refColumns: { type: "array", minItems: 1, items: name },
    onDelete: fkAction,
    onUpdate: fkAction,
  },
  ["name", "refTable"],
);

const table = object(
  {
    name,
    columns: { type: "array", minItems: 1, items: ref("column") },
    indexes: list("index"),
    foreignKeys: list("foreignKey"),
    checkConstraints: list("checkConstraint"),
    roles: names,
    scopes: names,
    notify: { type: ["string", "array"], items: name },
    policies: list("policy"),
    comment: text,
    renamedFrom: name,
  },
  ["name", "columns"],
);

const where = object({
  tableName: name,
  columnName: name,
  operator: name,
  value: { type: ["string", "number", "boolean", "null", "array"], items: { type: ["string", "number"] } },
  conjunction: { enum: ["AND", "OR"] },
  custom: name,
});

const join = object(
  {
    alias: name,
    table: name,
    type: { enum: [...JOIN_TYPES] },
    localColumnName: name,
    foreignColumnName: name,
    localTable: name,
    localTableAlias: name,
    custom: name,
  },
  ["alias", "table", "type"],
);

const orderBy = object({ tableName: name, columnName: name, order }, ["tableName", "columnName"]);
const groupBy = object({ tableName: name, columnName: name }, ["tableName", "columnName"]);

const responseProperty = object({ name, selector: name, subquery: ref("subquery"), type: name }, ["name"]);
const subquery = object(
  {
    table: name,
    joins: list("join"),
    where: list("where"),
    properties: { type: "array", minItems: 1, items: ref("responseProperty") },
    orderBy: ref("orderBy"),
    groupBy: ref("groupBy"),
  },
  ["table", "properties"],
);

const validator = object(
  {
    type: { enum: [...VALIDATOR_TYPES] },
    value: { type: ["string", "number", "array"], items: { type: ["string", "number", "boolean"] } },
  },
  ["type", "value"],
);
const requestParam = object({ name, required: flag, isNullable: flag, validator: list("validator") }, [
  "name",
  "required",
]);

const routeBase: Record<string, JsonSchema> = {
  name,
  description: text,
  method: { enum: [...HTTP_METHODS] },
  path: name,
  type: { enum: [...STANDARD_ROUTE_TYPES, ...CUSTOM_ROUTE_TYPES] },
  roles: names,
  scopes: names,
  request: list("requestParam"),
  deprecation: object({ date: name, message: text, alternate: name }, ["date"]),
  rateLimit: object(
    {
      max: { type: "integer" },
      timeWindow: { type: ["string", "integer"] },
      keys: { type: "array", items: name },
    },
    ["max", "timeWindow", "keys"],
  ),
};
const routeRequired = ["name", "method", "path", "type"];

export const STANDARD_ONLY = [
  "table",
  "joins",
  "where",
  "assignments",
  "response",
  "orderBy",
  "groupBy",
  "total",
];
export const CUSTOM_ONLY = ["responseType", "requestType", "fileUploadType", "action"];

export const standardRoute = object(
  {
    ...routeBase,
    table: name,
    joins: list("join"),
    where: list("where"),
    assignments: list("assignment"),
    response: list("responseProperty"),
    orderBy: ref("orderBy"),
    groupBy: ref("groupBy"),
    // PAGED: how `total` is counted unless the request says (docs/schema.md "Routes").
    total: { enum: ["exact", "planned", "estimated"] },
  },
  [...routeRequired, "table", "response"],
);

export const customRoute = object(
  { ...routeBase, responseType: name, requestType: name, fileUploadType: name, action: name },
  [...routeRequired, "responseType"],
);

const isType = (types: readonly string[]): JsonSchema => ({
  properties: { type: { enum: [...types] } },
  required: ["type"],
});

// Custom and standard routes are told apart by `type`; an unknown type only reports itself.
const route: JsonSchema = {
  type: "object",
  ...when(
    isType(CUSTOM_ROUTE_TYPES),
    ref("customRoute"),
    when(isType(STANDARD_ROUTE_TYPES), ref("standardRoute"), {
      properties: { type: routeBase.type },
      required: routeRequired,
    }),
  ),
};

export const FILE_FORMAT: JsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  ...object(
    {
      $schema: text,
      database: list("table"),
      endpoints: list("endpointGroup"),
      customTypes: { type: ["string", "array"], items: text },
      globalParams: names,
      roles: names,
      scopes: names,
      extensions: names,
    },
    ["database", "endpoints"],
  ),
  definitions: {
    table,
    column,
    index,
    indexColumn,
    foreignKey,
    checkConstraint: object({ name, check: name }, ["name", "check"]),
    policy: object({ name, roles: names, scopes: names, where: list("where") }, ["name"]),
    endpointGroup: object({ name, description: text, baseUrl: name, routes: list("route") }, [
      "name",
      "baseUrl",
      "routes",
    ]),
    route,
    standardRoute,
    customRoute,
    requestParam,
    validator,
    where,
    join,
    assignment: object({ name, value: { type: ["string", "number", "boolean", "null"] } }, ["name", "value"]),
    responseProperty,
    subquery,
    orderBy,
    groupBy,
  },
};
