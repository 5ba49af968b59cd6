// The resolved model of a validated schema: what every later stage needs to know, worked out once
// (docs/architecture.md "The model"). Emitters and the gateway read these facts instead of
// walking the schema's raw lists again, so a rule such as "which columns does an event carry" or
// "which globals does a route read" is stated in one place.

import type { Access } from "../routes/permissions.ts";
import type { Column, EndpointGroup, HttpMethod, Policy, Route, Schema, Table } from "../schema/types.ts";
import type { PgType, PgTypeName } from "../tables/columnType.ts";
import type { ConstraintIndex } from "./constraints.ts";
import type { FilterColumns } from "./filterColumns.ts";
import type { ModelProperty, ValueType } from "./response.ts";
import type { ParamWrite } from "./writes.ts";

export type { Access, FilterColumns, ModelProperty, ParamWrite, PgType, PgTypeName, ValueType };

/** A table's column with what its rules mean. */
export interface ModelColumn {
  readonly name: string;
  /** The schema's column, as loaded. */
  readonly column: Column;
  readonly nullable: boolean;
  /** Part of the primary key. */
  readonly primaryKey: boolean;
  /** `private: true`: no view, route, filter, sort or event ever reads it. */
  readonly private: boolean;
  /** The column rule (roles/scopes); undefined when everyone who may read the table sees it. */
  readonly access: Access | undefined;
  /** The Postgres type every schema spelling of the column's type resolves to. */
  readonly pgType: PgType;
  /** ENUM columns: the values, in order. */
  readonly enumValues: readonly string[] | undefined;
}

export interface ModelTable {
  readonly name: string;
  /** The schema's table, as loaded. */
  readonly table: Table;
  readonly columns: readonly ModelColumn[];
  /** Every column but the private ones, in order. */
  readonly readable: readonly ModelColumn[];
  /** The primary key's columns, in key order. */
  readonly primaryKey: readonly ModelColumn[];
  /** The table rule; undefined when the table has none. */
  readonly access: Access | undefined;
  readonly policies: readonly Policy[];
  /**
   * The columns realtime events carry: `notify` ("ALL": every readable column; never a private
   * one). Undefined when the table has no `notify`.
   */
  readonly notify: readonly ModelColumn[] | undefined;
  /** The columns the row policies read; "all" when a policy has raw SQL (it may read any). */
  readonly policyColumns: readonly ModelColumn[] | "all";
  /** The globals (without `#`, never `role`/`scopes`) the row policies mention, sorted. */
  readonly policyGlobals: readonly string[];
  column(name: string): ModelColumn | undefined;
}

export type RouteKind = Route["type"];

export interface ModelRoute {
  readonly route: Route;
  readonly group: EndpointGroup;
  readonly method: HttpMethod;
  /** The group's baseUrl and the route's path: what clients call. */
  readonly path: string;
  /** `METHOD /full/path`: how messages and logs name the route. */
  readonly key: string;
  /** Standard routes: the name of the route's function in schema `api`. */
  readonly functionName: string | undefined;
  readonly kind: RouteKind;
  /** The route rule; undefined when anyone may call it. */
  readonly access: Access | undefined;
  /** `:name` segments of the path, in order. */
  readonly pathParams: readonly string[];
  /** Where the declared request parameters come from: the query string (GET, DELETE) or the body. */
  readonly paramsIn: "query" | "body";
  /** The `#global`s the route reads anywhere (standard routes; custom routes: none), sorted. */
  readonly globals: readonly string[];
  /** The `$param`s the route reads anywhere (standard routes), sorted. */
  readonly mentionedParams: readonly string[];
  /** Standard routes: the base table. */
  readonly table: ModelTable | undefined;
  /** Standard routes: each property of the objects the route answers with (model/response.ts). */
  readonly response: readonly ModelProperty[];
  /**
   * Standard routes other than GET: the columns request parameters reach, each value checked
   * against its column (DELETE writes none, but its parameters naming columns are checked alike).
   */
  readonly writes: readonly ParamWrite[];
  /** Standard routes: what callers may filter and sort on, by name (model/filterColumns.ts). */
  readonly filterColumns: FilterColumns;
}

export interface Model {
  readonly schema: Schema;
  readonly tables: readonly ModelTable[];
  readonly routes: readonly ModelRoute[];
  /** The table of that name; throws when there is none (the schema was validated). */
  table(name: string): ModelTable;
  /** The table of that name, if any (raw SQL may name anything). */
  findTable(name: string): ModelTable | undefined;
  /** The model of one of the schema's routes; throws for a route of another schema. */
  routeOf(route: Route): ModelRoute;
  /** Every constraint by table and name, as the DDL names them (for constraint-violation errors). */
  readonly constraints: ConstraintIndex;
  /** The tables with `notify`, in schema order. */
  readonly notifyTables: readonly ModelTable[];
  /** Each `#global`'s Postgres cast type, inferred from the columns it meets (api/globals.ts). */
  readonly globalTypes: ReadonlyMap<string, string>;
}
