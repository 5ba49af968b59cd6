// Private columns (`"private": true`, our extension, docs/schema.md "Private columns"): values no
// caller may ever read, such as a password hash. The API layer leaves them out of the views and
// gives the roles behind the API no SELECT on them (generator/api/views.ts, grants.ts); this
// check refuses, at load time, every place of the schema that would read one: a standard route's
// response, where, join, orderBy, groupBy (and so its filters and sorts, which are only returned
// columns), a write route's parameters or assignments, raw SQL naming it, a policy's where and a
// notify list. It runs after the reference checks, which rewrote every table reference to the
// name the query knows it by (the base table's name or a join's alias).

import { tokenize } from "../sql/rawSqlLexer.ts";
import type { Context } from "./context.ts";
import { at } from "./paths.ts";
import {
  isStandardRoute,
  type Join,
  type ResponseProperty,
  type StandardRoute,
  type WhereCondition,
} from "./types.ts";

const message = (table: string, column: string) =>
  `column "${column}" of table "${table}" is private: no route, filter, policy or event may read it ` +
  "(write it from a custom handler through req.service, see docs/handlers.md)";

interface QueryShape {
  table: string;
  joins: Join[];
  where: WhereCondition[];
  orderBy?: { tableName: string; columnName: string };
  groupBy?: { tableName: string; columnName: string };
}

/** Name the query knows a table by -> the table's name, innermost query first. */
type Names = Map<string, string>[];

export function checkPrivateColumns(ctx: Context): void {
  const privateOf = new Map<string, Set<string>>();
  for (const table of ctx.schema.database) {
    const names = new Set(table.columns.filter((c) => c.private === true).map((c) => c.name));
    if (names.size > 0 && !privateOf.has(table.name)) privateOf.set(table.name, names);
  }
  ctx.schema.database.forEach((table, ti) => {
    const tp = `database[${ti}]`;
    table.columns.forEach((c, ci) => {
      if (c.private === true && c.isPrimary === true) {
        ctx.diag.error(
          at(at(at(tp, "columns"), ci), "private"),
          "a primary key cannot be private: views, writes and joins need it",
        );
      }
    });
  });
  if (privateOf.size === 0) return;

  const isPrivate = (table: string | undefined, column: string | undefined) =>
    table !== undefined && column !== undefined && privateOf.get(table)?.has(column) === true;
  const report = (path: string, table: string, column: string) =>
    ctx.diag.error(path, message(table, column));

  /** Raw SQL naming a private column of a table it can see (a quoted or a bare identifier). */
  const checkRaw = (text: string, tables: Iterable<string>, path: string) => {
    // Quoted names match exactly; bare words are folded to lower case, as Postgres does.
    const names = new Set<string>();
    for (const token of tokenize(text)) {
      if (token.kind === "ident") names.add(token.name);
      else if (token.kind === "other") {
        for (const w of token.text.match(/[A-Za-z_]\w*/g) ?? []) names.add(w.toLowerCase());
      }
    }
    for (const table of new Set(tables)) {
      for (const column of privateOf.get(table) ?? []) if (names.has(column)) report(path, table, column);
    }
  };

  ctx.schema.database.forEach((table, ti) => {
    const tp = `database[${ti}]`;
    if (Array.isArray(table.notify)) {
      table.notify.forEach((name, i) => {
        if (isPrivate(table.name, name)) report(at(at(tp, "notify"), i), table.name, name);
      });
    }
    table.policies.forEach((policy, pi) => {
      const names: Names = [new Map([[table.name, table.name]])];
      checkConditions(policy.where, at(at(at(tp, "policies"), pi), "where"), names);
    });
  });

  function resolve(names: Names, name: string | undefined): string | undefined {
    if (name === undefined) return undefined;
    for (const scope of names) {
      const table = scope.get(name);
      if (table !== undefined) return table;
    }
    return undefined;
  }
  function allTables(names: Names): string[] {
    return names.flatMap((scope) => [...scope.values()]);
  }

  function checkConditions(list: WhereCondition[], path: string, names: Names): void {
    list.forEach((c, i) => {
      const p = at(path, i);
      if (c.custom !== undefined) {
        checkRaw(c.custom, allTables(names), at(p, "custom"));
        return;
      }
      const table = resolve(names, c.tableName);
      if (table !== undefined && isPrivate(table, c.columnName)) {
        report(at(p, "columnName"), table, c.columnName as string);
      }
      // A value `"alias"."column"` compares with another column.
      const ref = typeof c.value === "string" ? /^"((?:[^"]|"")+)"\."((?:[^"]|"")+)"$/.exec(c.value) : null;
      if (ref) {
        const other = resolve(names, (ref[1] as string).replaceAll('""', '"'));
        const column = (ref[2] as string).replaceAll('""', '"');
        if (other !== undefined && isPrivate(other, column)) report(at(p, "value"), other, column);
      }
    });
  }

  function checkQuery(q: QueryShape, path: string, outer: Names): Names {
    const own = new Map([[q.table, q.table]]);
    const names: Names = [own, ...outer];
    q.joins.forEach((j, i) => {
      const p = at(at(path, "joins"), i);
      own.set(j.alias, j.table);
      if (j.custom !== undefined) {
        checkRaw(j.custom, allTables(names), at(p, "custom"));
        return;
      }
      const local =
        j.localTableAlias !== undefined ? resolve(names, j.localTableAlias) : (j.localTable ?? q.table);
      if (local !== undefined && isPrivate(local, j.localColumnName)) {
        report(at(p, "localColumnName"), local, j.localColumnName as string);
      }
      if (isPrivate(j.table, j.foreignColumnName)) {
        report(at(p, "foreignColumnName"), j.table, j.foreignColumnName as string);
      }
    });
    checkConditions(q.where, at(path, "where"), names);
    for (const key of ["orderBy", "groupBy"] as const) {
      const clause = q[key];
      const table = clause ? resolve(names, clause.tableName) : undefined;
      if (clause && table !== undefined && isPrivate(table, clause.columnName)) {
        report(at(at(path, key), "columnName"), table, clause.columnName);
      }
    }
    return names;
  }

  function checkProperties(list: ResponseProperty[], path: string, names: Names): void {
    list.forEach((prop, i) => {
      const p = at(path, i);
      if (prop.selector !== undefined) {
        const simple = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(prop.selector.trim());
        const table = simple ? resolve(names, simple[1]) : undefined;
        if (simple && table !== undefined) {
          if (isPrivate(table, simple[2])) report(at(p, "selector"), table, simple[2] as string);
        } else {
          checkRaw(prop.selector, allTables(names), at(p, "selector"));
        }
      }
      if (prop.subquery !== undefined) {
        const sp = at(p, "subquery");
        const inner = checkQuery(prop.subquery, sp, names);
        checkProperties(prop.subquery.properties, at(sp, "properties"), inner);
      }
    });
  }

  function checkWrites(route: StandardRoute, path: string): void {
    if (route.method === "GET") return;
    const inPath = new Set(route.path.split("/").flatMap((s) => (s.startsWith(":") ? [s.slice(1)] : [])));
    route.request.forEach((param, i) => {
      if (!inPath.has(param.name) && isPrivate(route.table, param.name)) {
        report(at(at(at(path, "request"), i), "name"), route.table, param.name);
      }
    });
    route.assignments.forEach((a, i) => {
      if (isPrivate(route.table, a.name))
        report(at(at(at(path, "assignments"), i), "name"), route.table, a.name);
    });
  }

  ctx.schema.endpoints.forEach((group, gi) => {
    group.routes.forEach((route, ri) => {
      if (!isStandardRoute(route)) return;
      const path = `endpoints[${gi}].routes[${ri}]`;
      const names = checkQuery(route, path, []);
      checkProperties(route.response, at(path, "response"), names);
      checkWrites(route, path);
    });
  });
}
