// The schema file's shape after loading and normalisation (see docs/schema.md).
// The loader fills every defaultable field (roles, scopes, joins, ...) so the rest of the
// generator never has to guess. Names are used exactly as written: they are always quoted in SQL.

export const COLUMN_TYPES = [
  "BIGSERIAL",
  "SERIAL",
  "SMALLSERIAL",
  "BIGINT",
  "INTEGER",
  "INT",
  "MEDIUMINT",
  "SMALLINT",
  "TINYINT",
  "DECIMAL",
  "NUMERIC",
  "REAL",
  "FLOAT",
  "DOUBLE",
  "DOUBLE PRECISION",
  "BOOLEAN",
  "CHAR",
  "VARCHAR",
  "TEXT",
  "TINYTEXT",
  "MEDIUMTEXT",
  "LONGTEXT",
  "ENUM",
  "JSON",
  "JSONB",
  "DATE",
  "DATETIME",
  "TIMESTAMP",
  "TIMESTAMPTZ",
  "TIME",
  "INTERVAL",
  "UUID",
  "BYTEA",
  "BLOB",
  "TINYBLOB",
  "MEDIUMBLOB",
  "LONGBLOB",
] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const FK_ACTIONS = ["NO ACTION", "RESTRICT", "CASCADE", "SET NULL", "SET DEFAULT"] as const;
export type ForeignKeyAction = (typeof FK_ACTIONS)[number];

export const WHERE_OPERATORS = [
  "=",
  "!=",
  "<",
  ">",
  "<=",
  ">=",
  "LIKE",
  "NOT LIKE",
  "STARTS WITH",
  "ENDS WITH",
  "IN",
  "NOT IN",
  "IS",
  "IS NOT",
] as const;
export type WhereOperator = (typeof WHERE_OPERATORS)[number];

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const STANDARD_ROUTE_TYPES = ["ONE", "ARRAY", "PAGED"] as const;
export const CUSTOM_ROUTE_TYPES = ["CUSTOM_ONE", "CUSTOM_ARRAY", "CUSTOM_PAGED"] as const;
export type StandardRouteType = (typeof STANDARD_ROUTE_TYPES)[number];
export type CustomRouteType = (typeof CUSTOM_ROUTE_TYPES)[number];

export const JOIN_TYPES = ["INNER", "LEFT", "RIGHT"] as const;
export type JoinType = (typeof JOIN_TYPES)[number];

export const VALIDATOR_TYPES = ["TYPE_CHECK", "ONE_OF", "MIN", "MAX"] as const;
export type ValidatorType = (typeof VALIDATOR_TYPES)[number];

export interface Column {
  name: string;
  type: ColumnType;
  isNullable: boolean;
  roles: string[];
  scopes: string[];
  /** VARCHAR / CHAR length. */
  length?: number;
  /** ENUM: `'a','b'`; DECIMAL/NUMERIC: `10,2`. */
  value?: string;
  /** Raw SQL expression written by the schema author (trusted). */
  default?: string;
  isPrimary?: boolean;
  isUnique?: boolean;
  hasAutoIncrement?: boolean;
  comment?: string;
  /** The column's previous name: the migration renames instead of dropping and adding. */
  renamedFrom?: string;
  /** Our extension: no view, route, filter, sort or event ever reads it (docs/schema.md "Private columns"). */
  private?: boolean;
}

export interface IndexColumn {
  column?: string;
  /** Raw SQL expression written by the schema author (trusted). */
  expression?: string;
  opclass?: string;
  order?: "ASC" | "DESC";
}

export interface Index {
  name: string;
  /** Normalised: plain names become `{column}`. */
  columns: IndexColumn[];
  isUnique: boolean;
  isPrimaryKey: boolean;
  order?: "ASC" | "DESC";
  /** Partial index predicate, raw SQL (trusted). */
  where?: string;
  /** Index method: btree (default), hash, gin, gist, brin, spgist. */
  using?: string;
}

export interface ForeignKey {
  name: string;
  /** Normalised: `column` becomes a one-element `columns`. */
  columns: string[];
  refTable: string;
  refColumns: string[];
  onDelete: ForeignKeyAction;
  onUpdate: ForeignKeyAction;
}

export interface CheckConstraint {
  name: string;
  /** Raw SQL boolean expression (trusted). */
  check: string;
}

export interface WhereCondition {
  tableName?: string;
  columnName?: string;
  operator?: WhereOperator;
  /** `#global`, `$param`, `"table"."column"`, `'literal'`, a number, or (for IN) an array. */
  value?: string | number | boolean | null | (string | number)[];
  conjunction?: "AND" | "OR";
  /** Raw SQL (trusted). */
  custom?: string;
}

/** Our extension: row-level policies compiled to Postgres RLS. */
export interface Policy {
  name: string;
  roles: string[];
  scopes: string[];
  where: WhereCondition[];
}

export interface Table {
  name: string;
  columns: Column[];
  indexes: Index[];
  foreignKeys: ForeignKey[];
  checkConstraints: CheckConstraint[];
  roles: string[];
  scopes: string[];
  notify?: "ALL" | string[];
  policies: Policy[];
  comment?: string;
  renamedFrom?: string;
}

export interface Join {
  alias: string;
  table: string;
  type: JoinType;
  localColumnName?: string;
  foreignColumnName?: string;
  localTable?: string;
  localTableAlias?: string;
  /** Raw ON clause (trusted); may reference `$param` and `#global`. */
  custom?: string;
}

export interface OrderBy {
  tableName: string;
  columnName: string;
  order: "ASC" | "DESC";
}

export interface GroupBy {
  tableName: string;
  columnName: string;
}

export interface Subquery {
  table: string;
  joins: Join[];
  where: WhereCondition[];
  properties: ResponseProperty[];
  orderBy?: OrderBy;
  groupBy?: GroupBy;
}

export interface ResponseProperty {
  name: string;
  /** `table.column`, `alias.column`, or raw SQL (trusted). */
  selector?: string;
  subquery?: Subquery;
  /** Declared TypeScript type of a raw selector (Restura). */
  type?: string;
}

export interface Validator {
  type: ValidatorType;
  value: string | number | (string | number | boolean)[];
}

export interface RequestParam {
  name: string;
  required: boolean;
  isNullable?: boolean;
  validator: Validator[];
}

export interface Assignment {
  name: string;
  value: string | number | boolean | null;
}

export interface Deprecation {
  date: string;
  message?: string;
  alternate?: string;
}

/** Our extension: request limits per key and time window (docs/schema.md "Rate limits"). */
export interface RateLimit {
  max: number;
  /** Milliseconds (the file may say `"1 minute"`). */
  timeWindow: number;
  /** `ip`, `body.<field>`, `query.<field>`, `params.<name>`: one counter per key. */
  keys: string[];
}

interface RouteBase {
  name: string;
  description: string;
  method: HttpMethod;
  path: string;
  roles: string[];
  scopes: string[];
  request: RequestParam[];
  deprecation?: Deprecation;
  rateLimit?: RateLimit;
}

export interface StandardRoute extends RouteBase {
  type: StandardRouteType;
  table: string;
  joins: Join[];
  where: WhereCondition[];
  assignments: Assignment[];
  response: ResponseProperty[];
  orderBy?: OrderBy;
  groupBy?: GroupBy;
  /** PAGED: how `total` is counted unless the request says (docs/schema.md "Routes"); default exact. */
  total?: TotalMode;
}

export type TotalMode = "exact" | "planned" | "estimated";

export interface CustomRoute extends RouteBase {
  type: CustomRouteType;
  responseType: string;
  requestType?: string;
  /** Normalised to upper case. */
  fileUploadType?: "SINGLE" | "MULTIPLE";
  /** Handler method name; derived from method + path when absent. */
  action?: string;
}

export type Route = StandardRoute | CustomRoute;

export interface EndpointGroup {
  name: string;
  description: string;
  baseUrl: string;
  routes: Route[];
}

export interface Schema {
  database: Table[];
  endpoints: EndpointGroup[];
  /** TypeScript source strings (Restura also allows one string). */
  customTypes: string[];
  globalParams: string[];
  roles: string[];
  scopes: string[];
  extensions: string[];
}

export function isStandardRoute(route: Route): route is StandardRoute {
  return (STANDARD_ROUTE_TYPES as readonly string[]).includes(route.type);
}

/** One finding of the loader: `path` is a JSON path like `endpoints[0].routes[3].where[1].columnName`. */
export interface Diagnostic {
  path: string;
  message: string;
}

export interface LoadResult {
  /** Present when there are no errors. */
  schema?: Schema;
  errors: Diagnostic[];
  warnings: Diagnostic[];
  /** Each route's JSON path (`endpoints[0].routes[3]`) -> `METHOD /full/path`, to name routes in messages. */
  routes?: Record<string, string>;
}
