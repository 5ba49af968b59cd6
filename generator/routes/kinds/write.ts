// Write routes: POST inserts one row, PUT/PATCH update the one row the route's where selects,
// DELETE deletes what it selects. The kind is chosen by the method; the route's type (ONE,
// ARRAY) only matters for DELETE (ONE: exactly one row, ARRAY: every match).
//
// Writes go to the table `public."<table>"` (as api_owner: row-level security holds, USING and
// WITH CHECK); rows are selected as a read selects them (the tables with the views' column
// masks, select.ts / source.ts), with the route's joins and where, and locked
// (`FOR UPDATE OF <base>`) before anything is written. The response is read back in a second
// statement the same way, by primary key, in the route's response shape (a data-modifying CTE's
// rows are invisible to a sibling SELECT). Where that answers the same, a POST reads the new row
// through its RETURNING in the same statement (insertAnswersAtOnce), a PUT/PATCH selects,
// writes and answers in one `UPDATE ... RETURNING <answer>` (foldsIntoUpdate), and a DELETE of one
// row selects and deletes in one `DELETE ... USING` (remove, selectsAsReadsDo).
//
// Columns written: the request parameters that name a column of the base table, minus path
// parameters (they select, never set) and minus assigned columns (the assignment always wins),
// plus the assignments. An optional parameter the body leaves out is not written, whether it
// reaches its column directly or through an assignment (`{name: "c", value: "$p"}`): POST gives
// the column its default, PUT/PATCH keep the stored value. Writing NULL there instead would
// silently erase data the client never mentioned. The rules are docs/schema.md "Write rules".

import type { ParamWrite } from "../../model/writes.ts";
import type { Assignment, Column, Join, StandardRoute, Table } from "../../schema/types.ts";
import { classifyValue } from "../../schema/values.ts";
import { ident, join, literal, type Sql, sql, trusted } from "../../sql/sql.ts";
import { buildTableModel } from "../../tables/model.ts";
import { tableRef } from "../../tables/names.ts";
import { nl } from "../layout.ts";
import { allowedCall, raise, raiseComputed, SQLSTATE } from "../permissions.ts";
import { primaryKeyColumns } from "../scope.ts";
import { type CompiledQuery, selectSql } from "../select.ts";
import { needsMask } from "../source.ts";
import { returnsAtMostOneRow } from "../unique.ts";
import { CTX, castSql, castType, PARAMS, runtimeValue } from "../values.ts";
import { conflictMessage, notFoundMessage } from "./one.ts";
import type { Kind, KindBody } from "./types.ts";

export const columnForbiddenMessage = (column: string) =>
  `You do not have permission to write the column "${column}"`;

/** A body parameter as a value of its column's type (JSON null is SQL NULL). */
function bodyValue(name: string, column: Column): Sql {
  const type = castType(column);
  if (type === "jsonb") return sql`NULLIF(${PARAMS}->${literal(name)}, 'null'::jsonb)`;
  return runtimeValue(PARAMS, name, column);
}

const present = (name: string): Sql => sql`${PARAMS} ? ${literal(name)}`;

/**
 * A server-chosen assignment's value (`#global`, literal) as a value of the column's type.
 * `$param` assignments are request values: the model's `writes` (model/writes.ts).
 */
function assignmentValue(a: Assignment, column: Column): Sql {
  const form = classifyValue(a.value);
  switch (form.kind) {
    case "global":
      return runtimeValue(CTX, form.name, column);
    case "text":
      return sql`${literal(form.text)}::${castSql(castType(column))}`;
    case "number":
      return sql`${literal(form.value)}::${castSql(castType(column))}`;
    case "boolean":
      return literal(form.value);
    case "null":
      return sql`NULL`;
    default:
      throw new Error(`assignment to "${a.name}": unsupported value ${JSON.stringify(a.value)}`);
  }
}

/** Assignments whose value the server chooses (`#global`, literals), written whatever the body holds. */
const serverAssignments = (route: StandardRoute): Assignment[] =>
  route.assignments.filter((a) => classifyValue(a.value).kind !== "param");

function columnOf(table: Table, name: string): Column {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw new Error(`table "${table.name}" has no column "${name}" (was the schema validated?)`);
  return column;
}

/**
 * A body value reaching a column the caller may not see: A0403, before anything is
 * written. Through an assignment too: `$p` is the client's value whatever column it lands in.
 */
function columnChecks(writes: readonly ParamWrite[], indent: string): Sql[] {
  const out: Sql[] = [];
  for (const p of writes) {
    const access = p.column.access;
    if (!access) continue;
    out.push(
      sql`IF ${present(p.param)} AND NOT ${allowedCall(access)} THEN${nl(`${indent}  `)}${raiseComputed(
        SQLSTATE.forbidden,
        literal(columnForbiddenMessage(p.column.name)),
      )}${nl(indent)}END IF;`,
    );
  }
  return out;
}

/** `_api_k0`, `_api_k1`, ...: the primary key of the row written. */
function keyVars(table: Table): { column: string; variable: Sql; type: Sql }[] {
  return primaryKeyColumns(table).map((column, i) => ({
    column,
    variable: trusted(`_api_k${i}`),
    type: castSql(castType(columnOf(table, column))),
  }));
}

function keyDeclarations(table: Table): Sql[] {
  return keyVars(table).map((k) => sql`${k.variable} ${k.type};`);
}

/** The base row's primary key equals the key variables. */
function keyMatch(alias: string, table: Table): Sql {
  return join(
    keyVars(table).map((k) => sql`${ident(alias, k.column)} = ${k.variable}`),
    " AND ",
  );
}

/**
 * Selects (as reads do: tables, masks, joins and where) and locks at most two matching rows; none is
 * A0404, two A0409. The key variables then hold the one row's primary key. When the schema proves
 * that at most one row can match (unique.ts), the row is read straight into them and nothing
 * counts: one aggregate fewer per write.
 */
function lockOne(
  route: StandardRoute,
  q: CompiledQuery,
  table: Table,
  indent: string,
  single: boolean,
): Sql[] {
  const inner = `${indent}  `;
  const keys = keyVars(table);
  const base = q.scope.base.name;
  const notFound = raise(SQLSTATE.notFound, notFoundMessage(route.table));
  if (single) {
    const lines: Sql[] = [
      sql`SELECT ${join(keys.map((k) => ident(base, k.column)))} INTO ${join(keys.map((k) => k.variable))}`,
      sql`FROM ${q.from}`,
    ];
    if (q.where) lines.push(sql`WHERE ${q.where}`);
    lines.push(sql`FOR UPDATE OF ${ident(base)};`);
    return [join(lines, `\n${indent}`), notFoundUnlessFound(route, indent)];
  }
  const clauses: Sql[] = [
    sql`SELECT ${join(keys.map((k, i) => sql`${ident(base, k.column)} AS ${trusted(`k${i}`)}`))}`,
    sql`FROM ${q.from}`,
  ];
  if (q.where) clauses.push(sql`WHERE ${q.where}`);
  clauses.push(sql`LIMIT 2`, sql`FOR UPDATE OF ${ident(base)}`);
  const firsts = keys.map((_k, i) => sql`(array_agg(_api_s.${trusted(`k${i}`)}))[1]`);
  const into = keys.map((k) => k.variable);
  return [
    sql`SELECT count(*), ${join(firsts)} INTO _api_count, ${join(into)} FROM (${nl(inner)}${join(clauses, `\n${inner}`)}${nl(indent)}) AS _api_s;`,
    sql`IF _api_count = 0 THEN${nl(inner)}${notFound}${nl(indent)}ELSIF _api_count > 1 THEN${nl(inner)}${raise(SQLSTATE.conflict, conflictMessage(route.table))}${nl(indent)}END IF;`,
  ];
}

/** A0404 when the statement before selected no row. */
function notFoundUnlessFound(route: StandardRoute, indent: string): Sql {
  return sql`IF NOT FOUND THEN${nl(`${indent}  `)}${raise(SQLSTATE.notFound, notFoundMessage(route.table))}${nl(indent)}END IF;`;
}

/** lockOne's row count, where it needs one. */
const countDeclaration = (single: boolean): Sql[] => (single ? [] : [sql`_api_count bigint;`]);

/** The written row in the route's response shape, by primary key; `{"data": null}` when a join hides it. */
function readBack(q: CompiledQuery, table: Table, indent: string): Sql[] {
  const inner = `${indent}  `;
  const select = selectSql(q, inner, { where: keyMatch(q.scope.base.name, table), limit: literal(1) });
  return [
    sql`SELECT _api_r.j INTO _api_row FROM (${nl(inner)}${select}${nl(indent)}) AS _api_r;`,
    sql`RETURN json_build_object('data', _api_row);`,
  ];
}

/** POST: one INSERT, then the row read back; or both in one statement (insertAnswersAtOnce). */
export const post: Kind = (route, compile) => {
  const q0 = compile("");
  const table = q0.scope.base.table;
  const model = buildTableModel(table);
  const atOnce = insertAnswersAtOnce(route, q0);
  return {
    declare: atOnce ? [sql`_api_row json;`] : [sql`_api_row json;`, ...keyDeclarations(table)],
    statements: (indent) => {
      const q = compile(`${indent}  `);
      const columns: Sql[] = [];
      const values: Sql[] = [];
      for (const p of q.scope.model.routeOf(route).writes) {
        const value = bodyValue(p.param, p.column.column);
        columns.push(ident(p.column.name));
        if (p.required) {
          values.push(value);
          continue;
        }
        // Absent: what the column would get if the INSERT did not name it.
        const m = model.columns.find((c) => c.name === p.column.name);
        const fallback = m?.identity
          ? sql`nextval(pg_get_serial_sequence(${literal(tableRef(table.name).toString())}, ${literal(p.column.name)}))`
          : m?.default !== undefined
            ? sql`(${trusted(m.default)})`
            : sql`NULL`;
        values.push(sql`CASE WHEN ${present(p.param)} THEN ${value} ELSE ${fallback} END`);
      }
      for (const a of serverAssignments(route)) {
        columns.push(ident(a.name));
        values.push(assignmentValue(a, columnOf(table, a.name)));
      }
      const target = sql`${tableRef(table.name)} AS ${ident(route.table)}`;
      const checks = columnChecks(q.scope.model.routeOf(route).writes, indent);
      const insert = (at: string) =>
        columns.length === 0
          ? sql`INSERT INTO ${target} DEFAULT VALUES`
          : sql`INSERT INTO ${target} (${join(columns)})${nl(at)}VALUES (${join(values)})`;
      if (atOnce) return [...checks, ...insertAndAnswer(route, q, insert(`${indent}  `), indent)];
      const keys = keyVars(table);
      const returning = sql`RETURNING ${join(keys.map((k) => ident(route.table, k.column)))} INTO ${join(keys.map((k) => k.variable))}`;
      return [...checks, sql`${insert(indent)}${nl(indent)}${returning};`, ...readBack(q, table, indent)];
    },
  };
};

/**
 * Whether the INSERT and the read-back can be one statement, `WITH _api_w AS (INSERT ...
 * RETURNING *) SELECT <object> FROM _api_w AS "<table>" <joins>`, answering the same (58k of the
 * example's POST /task's 1,015k instructions): a statement's other reads see the tables as they
 * were before its INSERT and the new row only through the CTE, so
 * - answersFromWrittenRow: no join reads the table written (it would miss the new row), the
 *   object reads columns only, the base table has no column masks (the CTE's rows are the
 *   table's own; the object applies column rules itself, this keeps the answer's source what the
 *   read-back's was);
 * - no join is RIGHT (it would add rows without the new one) or raw SQL (which may read anything).
 * Row security is the same: the INSERT's RETURNING applies the table's SELECT policies to the
 * new row, as it did with the key alone. The answer is the row as inserted, BEFORE triggers
 * included, not what an AFTER trigger changes later.
 */
function insertAnswersAtOnce(route: StandardRoute, q: CompiledQuery): boolean {
  return (
    answersFromWrittenRow(route, q) && route.joins.every((j) => j.type !== "RIGHT" && j.custom === undefined)
  );
}

/**
 * What a write that answers from the row it writes (RETURNING) needs, whatever the write: the
 * statement's other reads see the tables as they were before it, so no join may read the table
 * written and the object may read nothing but columns (a subquery or raw SQL could read that
 * table); and the base table has no column masks, since the written row is the table's own.
 */
function answersFromWrittenRow(route: StandardRoute, q: CompiledQuery): boolean {
  return (
    !needsMask(q.scope.model.table(route.table)) &&
    route.joins.every((j) => j.table !== route.table) &&
    q.properties.every((p) => p.kind === "column")
  );
}

/** The INSERT (`insert`: up to its values) and the answer read through its RETURNING. */
function insertAndAnswer(route: StandardRoute, q: CompiledQuery, insert: Sql, indent: string): Sql[] {
  const inner = `${indent}  `;
  const from = sql`_api_w AS ${ident(route.table)}${q.joinClauses}`;
  // The CTE holds the new row alone: the route's where is not the read-back's (nor was it).
  const select = selectSql(q, inner, { from, where: sql`true`, limit: literal(1) });
  return [
    sql`WITH _api_w AS (${nl(inner)}${insert}${nl(inner)}RETURNING ${ident(route.table)}.*${nl(indent)})${nl(indent)}SELECT _api_r.j INTO _api_row FROM (${nl(inner)}${select}${nl(indent)}) AS _api_r;`,
    sql`RETURN json_build_object('data', _api_row);`,
  ];
}

/**
 * Whether a write's own statement can select its rows as a read does (selectedAsReadsDo): the
 * base table has no column masks (the write's target is the table itself, so what its where reads
 * of it must be what the caller may see), and every join is INNER (`FROM` and `USING` join that
 * way: a LEFT join's missing row would drop the row).
 */
function selectsAsReadsDo(route: StandardRoute, q: CompiledQuery): boolean {
  return !needsMask(q.scope.model.table(route.table)) && route.joins.every((j) => j.type === "INNER");
}

/**
 * PUT / PATCH: lock the one row the where selects, UPDATE it by primary key, read it back; or, when
 * one statement answers the same (foldsIntoUpdate), UPDATE and answer in one.
 */
export const update: Kind = (route, compile) => {
  const q0 = compile("");
  const table = q0.scope.base.table;
  const single = returnsAtMostOneRow(route, q0.scope);
  const writes = q0.scope.model.routeOf(route).writes;
  const assignments = serverAssignments(route);
  const written = new Set([...writes.map((w) => w.column.name), ...assignments.map((a) => a.name)]);
  const folded = written.size > 0 && foldsIntoUpdate(route, q0, single, written);
  return {
    declare: folded
      ? [sql`_api_row json;`]
      : [sql`_api_row json;`, ...countDeclaration(single), ...keyDeclarations(table)],
    statements: (indent) => {
      const q = compile(`${indent}  `);
      const sets: Sql[] = [];
      for (const p of writes) {
        const col = ident(p.column.name);
        const value = bodyValue(p.param, p.column.column);
        sets.push(
          p.required
            ? sql`${col} = ${value}`
            : sql`${col} = CASE WHEN ${present(p.param)} THEN ${value} ELSE ${ident(route.table, p.column.name)} END`,
        );
      }
      for (const a of assignments) {
        sets.push(sql`${ident(a.name)} = ${assignmentValue(a, columnOf(table, a.name))}`);
      }
      const checks = columnChecks(writes, indent);
      const target = sql`UPDATE ${tableRef(table.name)} AS ${ident(route.table)}${nl(indent)}SET ${join(sets, `,\n${indent}    `)}`;
      if (folded) return [...checks, ...updateAndAnswer(route, q, target, indent)];
      const out = [...checks, ...lockOne(route, q, table, indent, single)];
      if (sets.length > 0) out.push(sql`${target}${nl(indent)}WHERE ${keyMatch(route.table, table)};`);
      return [...out, ...readBack(q, table, indent)];
    },
  };
};

/**
 * Whether the UPDATE itself can select the row and give the answer, `UPDATE ... FROM <joins>
 * WHERE <joins' ON> AND <where> RETURNING <object>`, where lock, UPDATE and read-back would answer
 * the same (two statements fewer, a sixth of a PATCH's cost):
 * - at most one row matches (unique.ts), so there is no A0409 to tell apart;
 * - the base table has no column masks: the UPDATE's target is the table itself, and what the
 *   where and the object read of it must be what the caller may see;
 * - every join is INNER: `FROM` joins that way (a LEFT join's missing row would drop the row);
 * - no join reads the table written, or a column the UPDATE writes: `FROM` reads the tables as
 *   they were, so a row joined to itself would answer with its old values, and a task moved to
 *   another project with the old project;
 * - the object reads columns only: no subquery or raw SQL, which in RETURNING would see the
 *   tables as they were before the UPDATE, where the read-back sees them after.
 * Row security is the same: an UPDATE whose where reads the table applies the table's SELECT
 * policies to the row it selects and, as a check, to the row it writes, as the lock and the
 * read-back did. The answer is the row as written, BEFORE triggers included; what an AFTER
 * trigger changes later in the row is not in it.
 */
function foldsIntoUpdate(
  route: StandardRoute,
  q: CompiledQuery,
  single: boolean,
  written: ReadonlySet<string>,
): boolean {
  const base = q.scope.base.name;
  const readsWritten = (j: Join) =>
    (j.localTableAlias ?? base) === base && written.has(j.localColumnName ?? "");
  return (
    single && selectsAsReadsDo(route, q) && answersFromWrittenRow(route, q) && !route.joins.some(readsWritten)
  );
}

/** The UPDATE (`target`: through its SET) that selects the row as the where does and answers with it. */
function updateAndAnswer(route: StandardRoute, q: CompiledQuery, target: Sql, indent: string): Sql[] {
  const lines: Sql[] = [target, ...selectedAsReadsDo(q, sql`FROM`, indent)];
  lines.push(sql`RETURNING ${q.object} INTO _api_row;`);
  return [
    join(lines, `\n${indent}`),
    notFoundUnlessFound(route, indent),
    sql`RETURN json_build_object('data', _api_row);`,
  ];
}

/**
 * The lines after an UPDATE's SET or a DELETE's target that select the rows as a read does: the
 * joined tables behind their masks (`FROM` or `USING`: both join that way, as INNER joins) and
 * a WHERE of the joins' conditions and the route's where.
 */
function selectedAsReadsDo(q: CompiledQuery, keyword: Sql, indent: string): Sql[] {
  const lines: Sql[] = [];
  const sources = q.joins.map((j) => j.source);
  if (sources.length > 0) lines.push(sql`${keyword} ${join(sources, `,${nl(`${indent}  `)}`)}`);
  const conditions = [...q.joins.map((j) => j.on), ...(q.where ? [sql`(${q.where})`] : [])];
  if (conditions.length > 0) lines.push(sql`WHERE ${join(conditions, " AND ")}`);
  return lines;
}

/** DELETE: ONE deletes exactly one row (A0404 / A0409 otherwise), ARRAY every match. `{"data": true}`. */
export const remove: Kind = (route, compile): KindBody => {
  const q0 = compile("");
  const { scope } = q0;
  const table = scope.base.table;
  if (route.type === "ONE") {
    const single = returnsAtMostOneRow(route, scope);
    // One row at most (no A0409 to tell apart) selected by the DELETE itself, `DELETE ... USING
    // <joins> WHERE <joins' ON> AND <where>`, FOUND for A0404, where the lock and a DELETE by
    // primary key would do the same (the lock: 28k of the 632k instructions of the example's
    // DELETE /task/:id). Row security: a DELETE whose where reads the table applies its SELECT
    // policies with its DELETE ones, the lock (`FOR UPDATE`) the SELECT and UPDATE ones; the
    // generated policies are one for all commands, so both select the same rows.
    const atOnce = single && selectsAsReadsDo(route, q0);
    return {
      declare: atOnce ? [] : [...countDeclaration(single), ...keyDeclarations(table)],
      statements: (indent) => {
        const q = compile(`${indent}  `);
        if (atOnce) {
          const target = sql`DELETE FROM ${tableRef(table.name)} AS ${ident(route.table)}`;
          return [
            sql`${join([target, ...selectedAsReadsDo(q, sql`USING`, indent)], `\n${indent}`)};`,
            notFoundUnlessFound(route, indent),
            sql`RETURN json_build_object('data', true);`,
          ];
        }
        return [
          ...lockOne(route, q, table, indent, single),
          sql`DELETE FROM ${tableRef(table.name)} AS ${ident(route.table)} WHERE ${keyMatch(route.table, table)};`,
          sql`RETURN json_build_object('data', true);`,
        ];
      },
    };
  }
  return {
    declare: [],
    statements: (indent) => {
      const inner = `${indent}  `;
      const q = compile(inner);
      const pk = primaryKeyColumns(table);
      const base = q.scope.base.name;
      const target = "_api_target";
      const clauses: Sql[] = [sql`SELECT ${join(pk.map((c) => ident(base, c)))}`, sql`FROM ${q.from}`];
      if (q.where) clauses.push(sql`WHERE ${q.where}`);
      return [
        sql`DELETE FROM ${tableRef(table.name)} AS ${ident(target)}${nl(indent)}WHERE (${join(pk.map((c) => ident(target, c)))}) IN (${nl(inner)}${join(clauses, `\n${inner}`)}${nl(indent)});`,
        sql`RETURN json_build_object('data', true);`,
      ];
    },
  };
};
