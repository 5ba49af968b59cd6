// Normalisation of endpoint groups and routes (see normalize.ts): defaults filled, Restura's
// spellings made canonical. Where values are refined later by the reference checks.

import { rateLimit } from "./rateLimit.ts";
import { arr, bool, defined, type Obj, obj, optBool, optStr, str, strs, upperWords } from "./read.ts";
import type {
  Assignment,
  CustomRoute,
  EndpointGroup,
  GroupBy,
  Join,
  JoinType,
  OrderBy,
  RequestParam,
  ResponseProperty,
  Route,
  StandardRoute,
  Subquery,
  Validator,
  WhereCondition,
  WhereOperator,
} from "./types.ts";
import { CUSTOM_ROUTE_TYPES } from "./types.ts";

const sortOrder = (v: unknown): "ASC" | "DESC" | undefined => (v === "ASC" || v === "DESC" ? v : undefined);

export function endpointGroup(raw: unknown): EndpointGroup {
  const g = obj(raw);
  return {
    name: str(g.name),
    description: str(g.description),
    baseUrl: str(g.baseUrl),
    routes: arr(g.routes).map(route),
  };
}

function route(raw: unknown): Route {
  const r = obj(raw);
  const base = {
    name: str(r.name),
    description: str(r.description),
    method: str(r.method) as Route["method"],
    path: normalizePath(str(r.path)),
    roles: strs(r.roles),
    scopes: strs(r.scopes),
    request: arr(r.request).map(requestParam),
    deprecation: isDeprecation(r.deprecation) ? deprecation(r.deprecation) : undefined,
    rateLimit: r.rateLimit === undefined ? undefined : rateLimit(r.rateLimit),
  };
  if ((CUSTOM_ROUTE_TYPES as readonly string[]).includes(str(r.type))) {
    const upload = optStr(r.fileUploadType)?.toUpperCase();
    return defined<CustomRoute>({
      ...base,
      type: str(r.type) as CustomRoute["type"],
      responseType: str(r.responseType),
      requestType: optStr(r.requestType),
      fileUploadType: upload as CustomRoute["fileUploadType"],
      action: optStr(r.action),
    });
  }
  return defined<StandardRoute>({
    ...base,
    type: str(r.type) as StandardRoute["type"],
    table: str(r.table),
    joins: arr(r.joins).map(join),
    where: arr(r.where).map(where),
    assignments: arr(r.assignments).map(assignment),
    response: arr(r.response).map(responseProperty),
    orderBy: r.orderBy === undefined ? undefined : orderBy(r.orderBy),
    groupBy: r.groupBy === undefined ? undefined : groupBy(r.groupBy),
    total: r.total === undefined ? undefined : (str(r.total) as StandardRoute["total"]),
  });
}

/** Trailing slashes are ignored: `/user/` is `/user`; the root path stays `/`. */
export function normalizePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" && path.startsWith("/") ? "/" : trimmed;
}

const isDeprecation = (v: unknown): v is Obj => typeof v === "object" && v !== null;
function deprecation(d: Obj) {
  return defined({ date: str(d.date), message: optStr(d.message), alternate: optStr(d.alternate) });
}

function requestParam(raw: unknown): RequestParam {
  const p = obj(raw);
  return defined<RequestParam>({
    name: str(p.name),
    required: bool(p.required),
    isNullable: optBool(p.isNullable),
    validator: arr(p.validator).map((v) => {
      const o = obj(v);
      return { type: str(o.type), value: Array.isArray(o.value) ? [...o.value] : o.value } as Validator;
    }),
  });
}

export function where(raw: unknown): WhereCondition {
  const w = obj(raw);
  const value = w.value;
  const scalar = value === null || ["string", "number", "boolean"].includes(typeof value);
  return defined<WhereCondition>({
    tableName: optStr(w.tableName),
    columnName: optStr(w.columnName),
    operator: w.operator === undefined ? undefined : (upperWords(str(w.operator)) as WhereOperator),
    value: scalar || Array.isArray(value) ? (value as WhereCondition["value"]) : undefined,
    conjunction: w.conjunction === "AND" || w.conjunction === "OR" ? w.conjunction : undefined,
    custom: optStr(w.custom),
  });
}

function join(raw: unknown): Join {
  const j = obj(raw);
  return defined<Join>({
    alias: str(j.alias),
    table: str(j.table),
    type: str(j.type) as JoinType,
    localColumnName: optStr(j.localColumnName),
    foreignColumnName: optStr(j.foreignColumnName),
    localTable: optStr(j.localTable),
    localTableAlias: optStr(j.localTableAlias),
    custom: optStr(j.custom),
  });
}

function assignment(raw: unknown): Assignment {
  const a = obj(raw);
  const v = a.value;
  const value =
    v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as Assignment["value"]) : null;
  return { name: str(a.name), value };
}

function responseProperty(raw: unknown): ResponseProperty {
  const p = obj(raw);
  return defined<ResponseProperty>({
    name: str(p.name),
    selector: optStr(p.selector),
    subquery: p.subquery === undefined ? undefined : subquery(p.subquery),
    type: optStr(p.type),
  });
}

function subquery(raw: unknown): Subquery {
  const s = obj(raw);
  return defined<Subquery>({
    table: str(s.table),
    joins: arr(s.joins).map(join),
    where: arr(s.where).map(where),
    properties: arr(s.properties).map(responseProperty),
    orderBy: s.orderBy === undefined ? undefined : orderBy(s.orderBy),
    groupBy: s.groupBy === undefined ? undefined : groupBy(s.groupBy),
  });
}

function orderBy(raw: unknown): OrderBy {
  const o = obj(raw);
  return { tableName: str(o.tableName), columnName: str(o.columnName), order: sortOrder(o.order) ?? "ASC" };
}

function groupBy(raw: unknown): GroupBy {
  const g = obj(raw);
  return { tableName: str(g.tableName), columnName: str(g.columnName) };
}
