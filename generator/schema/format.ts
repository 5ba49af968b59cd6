// The JSON Schema of the file format (draft-07, checked by ajv in structure.ts). It checks shapes
// only: property names, JSON types, required properties and fixed enums. Everything that needs
// context (names that must exist, case-insensitive words, value forms) is checked afterwards.

import {
  COLUMN_TYPES,
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
/** Editor help: the text an editor shows for a key (ajv ignores it). */
const about = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
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
    name: about(name, "The column's name, used exactly as written (always quoted in SQL)."),
    // `examples`, not `enum`: the loader accepts any case and aliases, and says so itself.
    type: {
      ...about(name, 'The column type (see docs/schema.md "Types and their Postgres types").'),
      examples: [...COLUMN_TYPES],
    },
    isNullable: about(flag, "Whether the column accepts NULL."),
    roles: about(names, "Only callers with one of these roles see or write the column."),
    scopes: about(names, "Only callers holding all of these scopes see or write the column."),
    length: about({ type: "integer" }, "VARCHAR/CHAR length."),
    value: about(text, "ENUM: the values, as 'a','b'; DECIMAL/NUMERIC: precision and scale, as 10,2."),
    default: about(name, "A raw SQL default expression (trusted: written by the schema author)."),
    isPrimary: about(flag, "Part of the primary key."),
    isUnique: about(flag, "A unique constraint on this column alone."),
    hasAutoIncrement: about(flag, "An identity column: the database chooses the value."),
    comment: about(text, "Stored as the column's comment."),
    renamedFrom: about(name, "The previous name: the migration renames instead of dropping and adding."),
    private: about(
      flag,
      "No view, route, filter, sort or realtime event ever reads it (passwords, secrets).",
    ),
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
    name: about(name, "The table's name, used exactly as written."),
    columns: about({ type: "array", minItems: 1, items: ref("column") }, "The columns, in order."),
    indexes: about(list("index"), "Indexes, including the primary key's."),
    foreignKeys: about(list("foreignKey"), "Foreign keys to other tables of the schema."),
    checkConstraints: about(list("checkConstraint"), "Raw SQL check constraints (trusted)."),
    roles: about(names, "Only callers with one of these roles read or write the table."),
    scopes: about(names, "Only callers holding all of these scopes read or write the table."),
    notify: about(
      { type: ["string", "array"], items: name },
      '"ALL" or a list of columns: inserts, updates and deletes are streamed to realtime subscribers.',
    ),
    policies: about(list("policy"), "Row policies: which rows each role may see and change."),
    comment: about(text, "Stored as the table's comment."),
    renamedFrom: about(name, "The previous name: the migration renames the table."),
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
  name: about(name, "A short name for the route (used in logs and generated code)."),
  description: about(text, "What the route does (shown in the API reference)."),
  method: about({ enum: [...HTTP_METHODS] }, "The HTTP method."),
  path: about(name, "The path below the group's baseUrl; `:name` segments are path parameters."),
  type: about(
    { enum: [...STANDARD_ROUTE_TYPES, ...CUSTOM_ROUTE_TYPES] },
    "ONE, ARRAY, PAGED: generated from the table; CUSTOM_*: answered by a TypeScript handler.",
  ),
  roles: about(names, "Only callers with one of these roles may call the route."),
  scopes: about(names, "Only callers holding all of these scopes may call the route."),
  request: about(list("requestParam"), "The parameters the route accepts (query string or JSON body)."),
  deprecation: about(
    object({ date: name, message: text, alternate: name }, ["date"]),
    "Marks the route deprecated: Deprecation and Sunset headers, and the API reference says so.",
  ),
  rateLimit: about(
    object(
      {
        max: { type: "integer" },
        timeWindow: { type: ["string", "integer"] },
        keys: { type: "array", items: name },
      },
      ["max", "timeWindow", "keys"],
    ),
    "At most max requests per timeWindow for each key (ip, body.<field>, query.<field>, params.<name>).",
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
    table: about(name, "The base table the route reads or writes."),
    joins: about(list("join"), "Tables joined to the base table."),
    where: about(list("where"), "Conditions on the rows (values: $param, #global, literals)."),
    assignments: about(list("assignment"), "Writes: columns the server sets ($param, #global or a literal)."),
    response: about(list("responseProperty"), "The properties of each returned object."),
    orderBy: about(ref("orderBy"), "The default order."),
    groupBy: about(ref("groupBy"), "GROUP BY one column."),
    // PAGED: how `total` is counted unless the request says (docs/schema.md "Routes").
    total: about(
      { enum: ["exact", "planned", "estimated"] },
      "PAGED: how total is counted unless the request asks (Prefer: count=...).",
    ),
  },
  [...routeRequired, "table", "response"],
);

export const customRoute = object(
  {
    ...routeBase,
    responseType: about(name, "The TypeScript type (from customTypes) the handler returns."),
    requestType: about(name, "The TypeScript type (from customTypes) that validates the whole input."),
    fileUploadType: about(name, "SINGLE or MULTIPLE: the route takes multipart file uploads."),
    action: about(name, "The handler method's name; derived from method and path when absent."),
  },
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
  $id: "https://schema-api.dev/api-schema.json",
  title: "api.schema.json",
  description: "An application's tables, roles, scopes and HTTP routes (docs/schema.md).",
  ...object(
    {
      $schema: about(text, "This document, for editors: a path or URL to api-schema.json."),
      database: about(list("table"), "The tables."),
      endpoints: about(list("endpointGroup"), "Groups of HTTP routes, each under a baseUrl."),
      customTypes: about(
        { type: ["string", "array"], items: text },
        "TypeScript declarations used by custom routes' requestType and responseType.",
      ),
      globalParams: about(names, "Values taken from the caller's token (claims), usable as #name."),
      roles: about(names, "Every role the application knows."),
      scopes: about(names, "Every scope the application knows."),
      extensions: about(names, "Postgres extensions to create (CREATE EXTENSION IF NOT EXISTS)."),
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
