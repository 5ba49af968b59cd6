// `<app>/generated/types.ts`: TypeScript types from the model (docs/generated-output.md). A row
// type per table, and per route its request and response envelope, as the gateway answers:
// LEFT-joined columns may be null, columns behind a column rule are optional (left out for
// callers that may not see them, never null), subqueries are arrays, numbers (DECIMAL too) are
// numbers and dates are strings, as the route functions serialise them. Deterministic: the same
// schema gives the same text.

import type { Model, ModelProperty, ModelRoute, ModelTable, ValueType } from "../model/index.ts";
import { PAGED_PARAMS, type PagedParam, SORT_ORDERS } from "../model/paging.ts";
import { valueType } from "../model/response.ts";
import { isStandardRoute, type RequestParam } from "../schema/types.ts";

const HEADER = `// Generated from api.schema.json by \`make migrate\` / \`make check\`: do not edit.
// What each route accepts and answers (docs/generated-output.md).

/** Any JSON value (JSON and JSONB columns, raw SQL selectors without a declared type). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
`;

const RESTURA_NAMESPACE = `/** What Restura customTypes may extend: Restura's paging parameters. */
export declare namespace Restura {
  interface PageQuery {
    page?: number;
    perPage?: number;
    sortBy?: string;
    sortOrder?: "ASC" | "DESC";
    filter?: string;
  }
}
`;

export function typesSource(model: Model): string {
  const out = [HEADER];
  const custom = model.schema.customTypes.join("\n").trim();
  if (custom) out.push(`// The schema's customTypes, as written.\n${custom}\n`);
  // Restura files may extend Restura's own PageQuery: the paging parameters it stands for.
  if (custom.includes("Restura.")) out.push(RESTURA_NAMESPACE);
  out.push("// Tables: every readable column (private ones never leave the database).\n");
  for (const table of model.tables) out.push(tableType(table));
  out.push("// Routes: the request each accepts and the envelope it answers with.\n");
  const names = routeTypeNames(model.routes);
  const api: string[] = [];
  for (const route of model.routes) {
    const name = names.get(route) as string;
    out.push(routeTypes(route, name));
    api.push(`  ${JSON.stringify(route.key)}: { request: ${name}Request; response: ${name}Response };`);
  }
  out.push(
    `/** Every route by \`METHOD /path\`: its request and response types. */\nexport interface Api {\n${api.join("\n")}\n}\n`,
  );
  return out.join("\n");
}

function tableType(table: ModelTable): string {
  const members = table.readable.map((c) => {
    const optional = c.access ? "?" : "";
    const type = tsType(valueType(c.column)) + (c.nullable ? " | null" : "");
    return `  ${key(c.name)}${optional}: ${type};`;
  });
  return `/** Table "${table.name}". */\nexport interface ${typeName(table.name)}Row {\n${members.join("\n")}\n}\n`;
}

function routeTypes(route: ModelRoute, name: string): string {
  const r = route.route;
  const doc = `/** ${route.key}${r.description ? `: ${r.description.replace(/\*\//g, "* /")}` : ""} */\n`;
  const request = requestType(route);
  let item: string;
  if (isStandardRoute(r)) {
    item = objectType(route.response, "");
  } else {
    item = r.responseType;
  }
  const envelope =
    isStandardRoute(r) && r.method === "DELETE"
      ? "{ data: true }"
      : route.kind === "PAGED" || route.kind === "CUSTOM_PAGED"
        ? `{ data: ${name}Item[]; total: number; next?: string | null }`
        : route.kind === "ARRAY" || route.kind === "CUSTOM_ARRAY"
          ? `{ data: ${name}Item[] }`
          : `{ data: ${name}Item }`;
  return `${doc}export type ${name}Item = ${item};\nexport interface ${name}Request ${request}\nexport type ${name}Response = ${envelope};\n`;
}

function requestType(route: ModelRoute): string {
  const r = route.route;
  const path = route.pathParams.map((p) => `    ${key(p)}: string | number;`);
  if (!isStandardRoute(r) && r.requestType) {
    return `{\n  path: {${path.length ? `\n${path.join("\n")}\n  ` : ""}};\n  ${route.paramsIn}: ${r.requestType};\n}`;
  }
  const inPath = new Set(route.pathParams);
  const params = r.request.filter((p) => !inPath.has(p.name)).map((p) => paramMember(route, p));
  if (route.kind === "PAGED") {
    // The paging parameters every PAGED route takes (docs/query-language.md), unless declared.
    const declared = new Set(r.request.map((p) => p.name));
    for (const name of PAGED_PARAMS) if (!declared.has(name)) params.push(`    ${name}?: ${PAGING[name]};`);
  }
  const block = (members: string[]) => (members.length ? `{\n${members.join("\n")}\n  }` : "{}");
  return `{\n  path: ${block(path)};\n  ${route.paramsIn}: ${block(params)};\n}`;
}

const PAGING: Record<PagedParam, string> = {
  page: "number",
  perPage: "number",
  filter: "string",
  sortBy: "string",
  sortOrder: SORT_ORDERS.map((o) => JSON.stringify(o)).join(" | "),
  after: "string",
};

function paramMember(route: ModelRoute, p: RequestParam): string {
  // The validators decide what the gateway accepts (docs/schema.md "Request parameters").
  const check = p.validator.find((v) => v.type === "TYPE_CHECK")?.value;
  const oneOf = p.validator.find((v) => v.type === "ONE_OF")?.value;
  const declared = typeof check === "string" ? check : undefined;
  const isArray = declared?.endsWith("[]") === true;
  const kind = isArray ? declared?.slice(0, -2) : declared;
  const column = route.table?.column(p.name);
  let type: string;
  if (Array.isArray(oneOf)) type = oneOf.map((v) => JSON.stringify(v)).join(" | ");
  else if (kind) type = kind === "object" ? "{ [key: string]: Json }" : kind;
  else if (column && !column.private) type = tsType(valueType(column.column));
  else type = "Json";
  if (isArray) type = `(${type})[]`;
  if (p.isNullable === true) type += " | null";
  return `    ${key(p.name)}${p.required ? "" : "?"}: ${type};`;
}

function objectType(properties: readonly ModelProperty[], indent: string): string {
  if (properties.length === 0) return "Record<string, never>";
  const members = properties.map((p) => {
    const type = p.items
      ? `Array<${objectType(p.items, `${indent}  `)}>`
      : tsType(p.type) + (p.nullable ? " | null" : "");
    return `${indent}  ${key(p.name)}${p.optional ? "?" : ""}: ${type};`;
  });
  return `{\n${members.join("\n")}\n${indent}}`;
}

function tsType(type: ValueType): string {
  switch (type.kind) {
    case "number":
    case "boolean":
      return type.kind;
    case "string":
      return "string";
    case "enum":
      return type.values.length ? type.values.map((v) => JSON.stringify(v)).join(" | ") : "string";
    case "declared":
      return type.type;
    case "json":
    case "unknown":
      return "Json";
  }
}

/** A property name as TypeScript accepts it. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** `user_role` -> `UserRole`. */
function typeName(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z_]/.test(name) ? name : `T${name}`;
}

/** `GET /api/v1/user/:id` in group `/api/v1` -> `GetUserById`; unique (a suffix when two meet). */
export function routeTypeNames(routes: readonly ModelRoute[]): Map<ModelRoute, string> {
  const out = new Map<ModelRoute, string>();
  const taken = new Set<string>();
  for (const route of routes) {
    const segments = route.route.path.split("/").filter(Boolean);
    const words = segments.map((s) => (s.startsWith(":") ? `By ${s.slice(1)}` : s));
    const base = typeName(`${route.method.toLowerCase()} ${words.join(" ")}`);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    out.set(route, name);
  }
  return out;
}
