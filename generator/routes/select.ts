// One query (a route's or a subquery's) compiled into its parts: FROM with joins over the
// tables, WHERE, GROUP BY, the row's JSON object, and its default order. The kinds (kinds/) and
// subqueries (subquery.ts) assemble the parts into statements.
//
// Tables are read directly (`public."<table>"`, see source.ts), not through the API views (which
// were security barriers, never flattened into the query, when this was decided): the planner sees
// the tables themselves, with the masks compiled in. Row-level security still binds every read (the
// function runs as api_owner), and a table with column rules is read through an inline derived
// table that masks those columns exactly as its view does, which Postgres flattens. Sources are
// aliased with the schema's names: the base table by its name, joins by their alias, so every
// reference the loader normalised (`"alias"."column"`) works as written.

import type { Model, ModelTable } from "../model/index.ts";
import { simpleSelector } from "../schema/queries.ts";
import type {
  Column,
  GroupBy,
  Join,
  JoinType,
  OrderBy,
  ResponseProperty,
  WhereCondition,
} from "../schema/types.ts";
import { classifyValue } from "../schema/values.ts";
import { ident, join, type Sql, sql } from "../sql/sql.ts";
import { joinImpliedByPolicies } from "./impliedJoin.ts";
import { nl } from "./layout.ts";
import { type Member, type ObjectForm, objectSql } from "./object.ts";
import { type Access, type Checks, isRestricted } from "./permissions.ts";
import { columnsRead, isScalarSubquery, mayName, rawSql } from "./rawSql.ts";
import { primaryKeyColumns, QueryScope, type Source } from "./scope.ts";
import { plainSourceSql, sourceSql, type Through } from "./source.ts";
import { subquerySql } from "./subquery.ts";
import { joinsOneRow } from "./unique.ts";
import type { RuntimeValues } from "./values.ts";
import { whereSql } from "./where.ts";

export interface QuerySpec {
  table: string;
  joins: readonly Join[];
  where: readonly WhereCondition[];
  orderBy?: OrderBy;
  groupBy?: GroupBy;
  properties: readonly ResponseProperty[];
}

/** A response property, as the query selects it. */
export type Property =
  | { kind: "column"; name: string; expr: Sql; source: Source; column: Column }
  | { kind: "raw"; name: string; expr: Sql }
  /** `rules`: the column rules its objects (nested ones too) apply. */
  | { kind: "subquery"; name: string; expr: Sql; rules: Access[] };

export interface OrderKey {
  expr: Sql;
  descending: boolean;
}

export interface CompiledQuery {
  scope: QueryScope;
  properties: Property[];
  /** The row's JSON object, in the form compileQuery was asked for (object.ts ObjectForm). */
  object: Sql;
  /**
   * The column rules of the restricted properties of the object and of every subquery's: when the
   * caller passes them all, the `all` form of the objects is the answer (kinds/visibility.ts).
   */
  columnRules: Access[];
  /** What follows FROM: the base table and the joins, tables with column rules behind their masks. */
  from: Sql;
  /**
   * The same FROM over the tables themselves, no masks: for choosing rows when nothing that
   * chooses them reads a hidden column (see `readsMaskedColumns`); row security still binds. An
   * INNER join that decides no row is LEFT here (impliedJoin.ts).
   */
  plainFrom: Sql;
  /**
   * `from` and `plainFrom` without the joins that a count of the route's rows under its own where
   * does not need (countNeutralJoins): a LEFT join on a unique key neither adds nor removes rows,
   * nor does an INNER join that the policies and a foreign key imply (impliedJoin.ts).
   * Postgres removes such a LEFT join itself but still reads the joining column from the base table,
   * which keeps an index-only scan from counting (the example's projects: 42 buffers against 4).
   */
  countFrom: Sql;
  /**
   * The joins countFrom leaves out, by alias: under a where that names none of them (a filter on
   * the base table's columns), countFrom counts the same rows as filteredCountFrom.
   */
  countNeutral: readonly string[];
  plainCountFrom: Sql;
  /**
   * `from` for a count under a where that may read any join (a filter, a cursor's condition):
   * every join, an INNER join that decides no row written LEFT (impliedJoin.ts).
   */
  filteredCountFrom: Sql;
  /**
   * `from` with each join as a probe by its unique key, `LEFT JOIN LATERAL (SELECT ... WHERE <ON>
   * OFFSET 0) ... ON true`, where every join adds at most one row and neither the where nor the
   * order reads a joined table: then only the rows a LIMIT keeps are joined, each by an index
   * probe. Postgres's own choice for the example's first project page was a bitmap scan of the
   * company's users, materialized and filtered for every page row (with probes: 2,038k → 1,992k
   * instructions a call). Undefined otherwise. For pages only: a probe per row is the wrong plan for
   * every row of a large table.
   */
  probedFrom?: Sql;
  /**
   * The joins a page may make after its rows are cut (pagedText.ts `deferred`): those that decide
   * no row and that neither the where, another join nor a counted raw selector reads
   * (countNeutralJoins), in order, each as the lateral probe that makes it:
   * `<type> JOIN LATERAL (SELECT alias.<columns> FROM <source> WHERE <ON> OFFSET 0) AS alias ON
   * true`, `columns` those the object reads of it (all where it reads none). Joined after the
   * cut, they are probed for the page's rows only, not for every row the cut numbers.
   */
  deferrable: { alias: string; on: Sql; probe: Sql }[];
  /** `from` without the joins of `aliases` (made after the cut instead). */
  fromWithout(aliases: ReadonlySet<string>): Sql;
  /** The joins of `from` (after its base table), as they follow it there (write.ts reuses them). */
  joinClauses: Sql;
  /** The same joins one by one, each table behind its mask, with its ON condition (write.ts). */
  joins: { source: Sql; on: Sql }[];
  /**
   * The where, join or order conditions (the schema's orderBy) read a column with rules, a private
   * one, or raw SQL.
   */
  readsMaskedColumns: boolean;
  where?: Sql;
  groupBy?: Sql;
  /** The schema's orderBy (none: empty). */
  order: OrderKey[];
  /** Appended to every order so it is total: the primary key, or the groupBy column when grouped. */
  tiebreak: Sql[];
}

const JOIN_SQL = {
  INNER: sql`INNER JOIN`,
  LEFT: sql`LEFT JOIN`,
  RIGHT: sql`RIGHT JOIN`,
} satisfies Record<JoinType, Sql>;

/**
 * Compiles a query. `indent` is the indentation of the query's own lines (FROM, WHERE, ...), for
 * layout only. `through` and `values`: what it reads, and how it reads runtime values (scope.ts).
 */
export function compileQuery(
  spec: QuerySpec,
  model: Model,
  checks: Checks,
  indent: string,
  parent?: QueryScope,
  form: ObjectForm = "either",
  through?: Through,
  values?: RuntimeValues,
): CompiledQuery {
  const scope = new QueryScope(model, parent, through, values);
  const base = scope.add(spec.table, spec.table);
  checks.useTable(base.table);
  const plainFrom: Sql[] = [plainSourceSql(spec.table, spec.table, scope.through)];
  // The joins' sources come last (below): each lists only the columns the query names.
  const joined = spec.joins.map((j) => {
    const source = scope.add(j.alias, j.table);
    checks.useTable(source.table);
    return { join: j, on: joinOn(j, scope) };
  });
  const where = whereSql(spec.where, scope);
  const properties = spec.properties.map((p) => property(p, scope, model, checks, `${indent}    `, form));
  const members: Member[] = properties.map((p) => {
    const access = p.kind === "column" ? columnAccess(p.column) : undefined;
    return access ? { name: p.name, value: p.expr, access } : { name: p.name, value: p.expr };
  });
  const object = objectSql(members, `${indent}  `, form);
  const groupBy = spec.groupBy ? ident(spec.groupBy.tableName, spec.groupBy.columnName) : undefined;
  const order: OrderKey[] = spec.orderBy
    ? [
        {
          expr: ident(spec.orderBy.tableName, spec.orderBy.columnName),
          descending: spec.orderBy.order === "DESC",
        },
      ]
    : [];
  const tiebreak = groupBy
    ? [groupBy]
    : [
        ...primaryKeyColumns(base.table).map((c) => ident(base.name, c)),
        ...spec.joins
          .filter((j) => !joinsOneRow(j, scope.model.table(j.table).table))
          .flatMap((j) => primaryKeyColumns(scope.model.table(j.table).table).map((c) => ident(j.alias, c))),
      ];
  // What the object reads of each table (probes select those columns, below), and what the query
  // names of it: everything that can name a source's columns is the object (its subqueries and
  // raw SQL, which is also all a PAGED route may filter and sort by), the where, the ON conditions,
  // the order and tiebreak. A masking source lists only the named columns: each one it lists costs
  // every execution a column privilege check where api_owner's grants are per column (a table with
  // private columns), and its place in the query tree. Through the views every source is a view,
  // which masks its columns itself (sourceSql).
  const sourceNames = scope.sources.map((source) => source.name);
  const reads = columnsRead(object.toString(), sourceNames);
  const elsewhere =
    scope.through === "tables"
      ? columnsRead(
          [where ?? "", ...joined.map((j) => j.on), ...order.map((o) => o.expr), ...tiebreak].join(" "),
          sourceNames,
        )
      : undefined;
  const names = (source: string, column: string) =>
    elsewhere === undefined || reads(source, column) || elsewhere(source, column);
  const listed = (table: ModelTable, alias: string, always: readonly string[] = []) => {
    const named = table.readable.filter((c) => always.includes(c.name) || names(alias, c.name));
    return sourceSql(table, alias, scope.through, named.length > 0 ? named : undefined);
  };
  // The base table's primary key too, which the kinds read besides (pages' keys, writes' locks).
  const from: Sql[] = [listed(model.table(spec.table), spec.table, primaryKeyColumns(base.table))];
  // The INNER joins that decide no row (impliedJoin.ts): LEFT where rows are only counted or
  // chosen, so Postgres leaves them out wherever nothing reads the joined table (a page's keys,
  // its count).
  const implied = new Set<string>();
  const joinPieces = joined.map(({ join: j, on }) => {
    const masked = listed(model.table(j.table), j.alias);
    if (joinImpliedByPolicies(j, scope)) implied.add(j.alias);
    const countedJoin = JOIN_SQL[implied.has(j.alias) ? "LEFT" : j.type];
    return {
      alias: j.alias,
      table: j.table,
      type: j.type,
      source: masked,
      on,
      masked: sql`${nl(indent)}${JOIN_SQL[j.type]} ${masked} ON ${on}`,
      counted: sql`${nl(indent)}${countedJoin} ${masked} ON ${on}`,
      plain: sql`${nl(indent)}${countedJoin} ${plainSourceSql(j.table, j.alias, scope.through)} ON ${on}`,
    };
  });
  const joinClauses = join(
    joinPieces.map((p) => p.masked),
    "",
  );
  const neutral = countNeutralJoins(spec, scope, countedRaws(properties), implied);
  const counted = joinPieces.filter((p) => !neutral.has(p.alias));
  const rawSqlUsed =
    spec.joins.some((j) => j.custom !== undefined) ||
    spec.where.some((c) => c.custom !== undefined) ||
    properties.some((p) => p.kind === "raw");
  if (rawSqlUsed) checks.useRawSql();
  if (members.length > 0 && members.every((m) => m.access)) {
    checks.requireAnyColumn(members.map((m) => m.access as Access));
  }
  // A probe selects the columns the object reads of its table: nothing else reads a probed join
  // (probeable; a deferred one decides no row and nothing else names it), and `alias.*` would
  // evaluate every masked column's rule for each row (17k of the example's first project page's
  // 1,909k instructions). All of them where the object reads none.
  const probe = (p: (typeof joinPieces)[number]) => {
    const columns = model
      .table(p.table)
      .readable.filter((c) => reads(p.alias, c.name))
      .map((c) => sql`${ident(p.alias)}.${ident(c.name)}`);
    const select = columns.length > 0 ? join(columns) : sql`${ident(p.alias)}.*`;
    return sql`${nl(indent)}${JOIN_SQL[p.type]} LATERAL (SELECT ${select} FROM ${p.source} WHERE ${p.on} OFFSET 0) AS ${ident(p.alias)} ON true`;
  };
  const probed = probeable(spec, scope) ? join([from[0] as Sql, ...joinPieces.map(probe)], "") : undefined;
  return {
    scope,
    properties,
    object,
    columnRules: [
      ...members.flatMap((m) => (m.access ? [m.access] : [])),
      ...properties.flatMap((p) => (p.kind === "subquery" ? p.rules : [])),
    ],
    from: join([...from, joinClauses], ""),
    plainFrom: join([...plainFrom, ...joinPieces.map((p) => p.plain)], ""),
    countFrom: join([...from, ...counted.map((p) => p.masked)], ""),
    countNeutral: [...neutral],
    filteredCountFrom: join([...from, ...joinPieces.map((p) => p.counted)], ""),
    plainCountFrom: join([...plainFrom, ...counted.map((p) => p.plain)], ""),
    joinClauses,
    deferrable: joinPieces
      .filter((p) => p.type === "LEFT" && neutral.has(p.alias))
      .map((p) => ({ alias: p.alias, on: p.on, probe: probe(p) })),
    fromWithout: (aliases) =>
      join([...from, ...joinPieces.filter((p) => !aliases.has(p.alias)).map((p) => p.masked)], ""),
    joins: joinPieces.map(({ source, on }) => ({ source, on })),
    ...(probed ? { probedFrom: probed } : {}),
    readsMaskedColumns: readsMaskedColumns(spec, scope),
    ...(where ? { where } : {}),
    ...(groupBy ? { groupBy } : {}),
    order,
    tiebreak,
  };
}

/**
 * Whether the joins can be probes (CompiledQuery.probedFrom): there are some, each adds at most
 * one row (unique.ts), and neither the where nor the order reads any of them, nor raw SQL.
 */
function probeable(spec: QuerySpec, scope: QueryScope): boolean {
  const base = scope.base.name;
  return (
    spec.joins.length > 0 &&
    spec.joins.every((j) => joinsOneRow(j, scope.model.table(j.table).table)) &&
    spec.where.every(
      (c) => c.custom === undefined && c.tableName === base && valuesRead(c).every((a) => a === base),
    ) &&
    (spec.orderBy === undefined || spec.orderBy.tableName === base) &&
    spec.groupBy === undefined
  );
}

/**
 * Raw selectors a count evaluates: those that could change the number of rows (a set-returning
 * call could); a parenthesized scalar subquery cannot.
 */
export function countedRaws(properties: readonly Property[]): Sql[] {
  return properties
    .filter((p) => p.kind === "raw" && !isScalarSubquery(p.expr.toString()))
    .map((p) => p.expr);
}

/**
 * The aliases of the joins a count of the query's rows under its own where can leave out: LEFT
 * joins on a unique key of the joined table (at most one match, and a row without one is kept)
 * and the INNER joins that decide no row (`implied`, impliedJoin.ts), that neither the where, the
 * groupBy, another join, nor a raw selector the count evaluates (`raws`) reads.
 * Raw SQL counts as reading an alias when it may name it (rawSql.ts mayName).
 */
function countNeutralJoins(
  spec: QuerySpec,
  scope: QueryScope,
  raws: readonly Sql[],
  implied: ReadonlySet<string>,
): Set<string> {
  const texts = [
    ...spec.where.flatMap((c) => (c.custom === undefined ? [] : [c.custom])),
    ...spec.joins.flatMap((j) => (j.custom === undefined ? [] : [j.custom])),
    ...raws.map((r) => r.toString()),
  ];
  const read = (alias: string): boolean =>
    spec.groupBy?.tableName === alias ||
    spec.joins.some((j) => j.localTableAlias === alias) ||
    spec.where.some((c) => c.tableName === alias || valuesRead(c).includes(alias)) ||
    texts.some((text) => mayName(text, alias));
  return new Set(
    spec.joins
      .filter(
        (j) =>
          (j.type === "LEFT" || implied.has(j.alias)) &&
          joinsOneRow(j, scope.model.table(j.table).table) &&
          !read(j.alias),
      )
      .map((j) => j.alias),
  );
}

/** The sources a where condition's value reads (`"table"."column"` values). */
function valuesRead(c: WhereCondition): string[] {
  const values = Array.isArray(c.value) ? c.value : [c.value ?? null];
  return values.flatMap((v) => {
    const form = classifyValue(v);
    return form.kind === "column" ? [form.table] : [];
  });
}

/** Whether the where, join or orderBy read raw SQL or a column that is private or has rules. */
function readsMaskedColumns(spec: QuerySpec, scope: QueryScope): boolean {
  const masked = (alias: string, column: string | undefined): boolean => {
    const source = scope.resolve(alias);
    const c =
      source && column !== undefined ? scope.model.table(source.table.name).column(column) : undefined;
    return !c || c.private || c.access !== undefined;
  };
  for (const c of spec.where) {
    if (c.custom !== undefined || masked(c.tableName as string, c.columnName)) return true;
    for (const value of Array.isArray(c.value) ? c.value : [c.value ?? null]) {
      const form = classifyValue(value);
      if (
        form.kind === "column"
          ? masked(form.table, form.column)
          : form.kind === "bare" || form.kind === "invalid"
      )
        return true;
    }
  }
  const order = spec.orderBy;
  if (order && masked(order.tableName, order.columnName)) return true;
  return spec.joins.some(
    (j) =>
      j.custom !== undefined ||
      masked(j.localTableAlias ?? scope.base.name, j.localColumnName) ||
      masked(j.alias, j.foreignColumnName),
  );
}

function joinOn(j: Join, scope: QueryScope): Sql {
  if (j.custom !== undefined) return sql`(${rawSql(j.custom, scope)})`;
  if (j.localColumnName === undefined || j.foreignColumnName === undefined) {
    throw new Error(`join "${j.alias}" needs localColumnName and foreignColumnName, or custom`);
  }
  const local = j.localTableAlias ?? scope.base.name;
  return sql`${ident(j.alias, j.foreignColumnName)} = ${ident(local, j.localColumnName)}`;
}

function property(
  p: ResponseProperty,
  scope: QueryScope,
  model: Model,
  checks: Checks,
  indent: string,
  form: ObjectForm,
): Property {
  if (p.subquery) {
    const { expr, rules } = subquerySql(p.subquery, model, checks, indent, scope, form);
    return { kind: "subquery", name: p.name, expr, rules };
  }
  if (p.selector === undefined)
    throw new Error(`response property "${p.name}" needs a selector or a subquery`);
  const simple = simpleSelector(p.selector);
  if (simple) {
    const source = scope.resolve(simple.name);
    if (source) {
      const column = scope.column(simple.name, simple.column);
      return { kind: "column", name: p.name, expr: ident(source.name, simple.column), source, column };
    }
  }
  return { kind: "raw", name: p.name, expr: sql`(${rawSql(p.selector, scope)})` };
}

/** The column rule when the column has one. */
export function columnAccess(column: Column): Access | undefined {
  return isRestricted(column) ? { roles: column.roles, scopes: column.scopes } : undefined;
}

/** `ORDER BY` keys: the given keys, then the tiebreak columns not already there. */
export function orderList(keys: readonly OrderKey[], tiebreak: readonly Sql[], descending: boolean): Sql {
  const seen = new Set(keys.map((k) => k.expr.toString()));
  const all = [
    ...keys.map((k) => sql`${k.expr} ${k.descending !== descending ? sql`DESC` : sql`ASC`}`),
    ...tiebreak
      .filter((t) => !seen.has(t.toString()))
      .map((t) => sql`${t} ${descending ? sql`DESC` : sql`ASC`}`),
  ];
  return join(all);
}

export interface SelectOptions {
  /** Replaces the query's own WHERE (PAGED adds the filter). */
  where?: Sql;
  orderBy?: Sql;
  limit?: Sql;
  /** The select list; default the row's object `AS j`. */
  select?: Sql;
  /** Replaces the query's FROM (a count's: `countFrom`). */
  from?: Sql;
}

/** `SELECT <object> AS j FROM ... WHERE ... GROUP BY ... ORDER BY ... LIMIT ...`, one clause a line. */
export function selectSql(q: CompiledQuery, indent: string, options: SelectOptions = {}): Sql {
  const where = options.where ?? q.where;
  const clauses: Sql[] = [
    sql`SELECT ${options.select ?? sql`${q.object} AS j`}`,
    sql`FROM ${options.from ?? q.from}`,
  ];
  if (where) clauses.push(sql`WHERE ${where}`);
  if (q.groupBy) clauses.push(sql`GROUP BY ${q.groupBy}`);
  if (options.orderBy) clauses.push(sql`ORDER BY ${options.orderBy}`);
  if (options.limit) clauses.push(sql`LIMIT ${options.limit}`);
  return join(clauses, `\n${indent}`);
}
