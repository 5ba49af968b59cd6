// What a route kind contributes to its function: local variables and statements. The query is
// compiled by the caller at whatever indentation the statements end up at.

import type { StandardRoute } from "../../schema/types.ts";
import type { Sql } from "../../sql/sql.ts";
import type { ObjectForm } from "../object.ts";
import type { CompiledQuery } from "../select.ts";

/** The route's query compiled at `indent`, its objects in `form` (default `either`). */
export type Compile = (indent: string, form?: ObjectForm) => CompiledQuery;

export interface KindBody {
  declare: Sql[];
  statements: (indent: string) => Sql[];
  /** Statements of helper functions the route's function calls (created before it). */
  helpers?: string[];
}

/** Names a kind may need besides the route function's own. */
export interface KindNames {
  /** PAGED: the function that builds a page's rows from their keys (pagedKeys.ts). */
  page: string;
}

export type Kind = (route: StandardRoute, compile: Compile, names: KindNames) => KindBody;
