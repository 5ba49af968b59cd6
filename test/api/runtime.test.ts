// The runtime helpers (sql/*.sql) and compiled where conditions, run by real Postgres.

import t from "tap";
import { compileConditions, globalExpr } from "../../generator/api/index.ts";
import { HELPER_FUNCTIONS } from "../../generator/routes/index.ts";
import type { Table, WhereCondition } from "../../generator/schema/types.ts";
import { rows, seededExample, setCtx } from "./helpers.ts";

t.test("runtime helpers and conditions", async (t) => {
  const { su } = await seededExample(t);
  const one = async (expr: string, values: unknown[] = []) =>
    (await rows<{ v: unknown }>(su, `SELECT ${expr} AS v`, values))[0]?.v;

  t.test("the context: unset, cleared and set", async (t) => {
    await setCtx(su, null);
    t.equal(await one("api.ctx_text('role')"), null, "'' (a reverted local setting) counts as unset");
    await su.query(`RESET "api.ctx.role"`);
    t.equal(await one("api.ctx_text('role')"), null);
    t.equal(await one("api.ctx_text('not-a-key')"), null, "a name that is no setting reads NULL");
    await su.query("BEGIN");
    await su.query(`SELECT api.set_ctx('{"role":"admin","companyId":7}')`);
    t.equal(await one("api.ctx_text('role')"), "admin");
    t.equal(await one("api.ctx_text('companyId')"), "7", "numbers come out as text");
    await su.query(`SELECT api.set_ctx('{"role":"member","scopes":["a"]}')`);
    t.equal(await one("api.ctx_text('companyId')"), null, "a key the new context lacks is unset, not kept");
    t.same(await one("api.ctx_scopes()"), ["a"]);
    t.same(await one("api.ctx()"), { role: "member", scopes: ["a"] }, "the whole context too");
    await su.query("SELECT api.set_ctx(NULL)");
    t.equal(await one("api.ctx_text('role')"), null, "NULL unsets every key");
    t.equal(await one("api.ctx()"), null);
    await su.query(`SELECT api.set_ctx('{"role":"admin"}')`);
    t.equal(await one("api.ctx_text('role')"), "admin");
    await su.query("COMMIT");
    t.equal(await one("api.ctx_text('role')"), null, "transaction-local: gone after commit");
  });

  t.test("has_role, has_scopes, allowed", async (t) => {
    const truth = async () =>
      (
        await rows(
          su,
          `SELECT api.has_role('{}') AS r0, api.has_role('{admin,manager}') AS r1, api.has_role('{member}') AS r2,
                  api.has_scopes('{}') AS s0, api.has_scopes('{a}') AS s1, api.has_scopes('{a,b}') AS s2,
                  api.allowed('{}', '{}') AS a0, api.allowed('{admin}', '{zzz}') AS a1, api.allowed('{}', '{a}') AS a2,
                  api.allowed('{member}', '{}') AS a3`,
        )
      )[0];
    await setCtx(su, { role: "admin", scopes: ["a"] });
    t.same(await truth(), {
      r0: true,
      r1: true,
      r2: false,
      s0: true,
      s1: true,
      s2: false,
      a0: true,
      a1: true, // roles given: the scopes are not consulted (docs/permissions.md, table rule)
      a2: true,
      a3: false,
    });
    await setCtx(su, null);
    t.same(await truth(), {
      r0: true,
      r1: false,
      r2: false,
      s0: true,
      s1: false,
      s2: false,
      a0: true,
      a1: false,
      a2: false,
      a3: false,
    });
    await su.query(`SELECT api.set_ctx('{"role":null,"scopes":"a"}', false)`);
    t.equal(await one("api.has_scopes('{a}')"), false, "scopes that are not a list hold nothing");
    t.equal(await one("api.ctx_scopes()"), null);
    await setCtx(su, null);
  });

  t.test("declared STABLE (IMMUTABLE for like_literal) and PARALLEL SAFE", async (t) => {
    // The runtime of sql/*.sql; route functions (named "GET /...") and their helpers
    // (generator/routes/helpers.ts) are generated. Realtime's functions (realtime_*: triggers,
    // cursors, pruning) are not context helpers; they are tested in test/realtime/db*.test.ts.
    // The guards of the gateway's own statements (read_*, pages_*: generator/routes/guards.ts)
    // are IMMUTABLE `SELECT true`, checked below.
    const helpers = HELPER_FUNCTIONS.map((signature) =>
      signature.slice("api.".length, signature.indexOf("(")),
    );
    const fns = await rows(
      su,
      `SELECT proname AS name, provolatile AS v, proparallel AS p FROM pg_proc
       WHERE pronamespace = 'api'::regnamespace AND proname NOT LIKE '% %' AND proname NOT LIKE 'realtime\\_%'
         AND proname !~ '^(read|pages)_[0-9a-f]{16}$' AND proname <> ALL ($1::text[]) ORDER BY proname`,
      [helpers],
    );
    t.same(fns, [
      { name: "allowed", v: "s", p: "s" },
      { name: "ctx", v: "s", p: "s" },
      { name: "ctx_scopes", v: "s", p: "s" },
      { name: "ctx_text", v: "s", p: "s" },
      { name: "has_role", v: "s", p: "s" },
      { name: "has_scopes", v: "s", p: "s" },
      { name: "like_literal", v: "i", p: "s" },
      // The writer: it sets the settings the others read.
      { name: "set_ctx", v: "v", p: "u" },
    ]);
    const guards = await rows(
      su,
      `SELECT DISTINCT provolatile AS v, proparallel AS p, prosrc AS body, pronargs AS args FROM pg_proc
       WHERE pronamespace = 'api'::regnamespace AND proname ~ '^(read|pages)_[0-9a-f]{16}$'`,
    );
    t.same(guards, [{ v: "i", p: "s", body: "SELECT true", args: 0 }], "the guards: IMMUTABLE SELECT true");
  });

  t.test("compiled conditions run on Postgres and mean what the docs say", async (t) => {
    const task = { name: "task", columns: [] } as unknown as Table;
    const { rows: columns } = await su.query(
      `SELECT column_name AS name, CASE data_type WHEN 'bigint' THEN 'BIGINT' WHEN 'numeric' THEN 'DECIMAL'
         WHEN 'boolean' THEN 'BOOLEAN' WHEN 'date' THEN 'DATE' ELSE 'TEXT' END AS type
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'task'`,
    );
    task.columns = columns.map((c) => ({ ...c, isNullable: true, roles: [], scopes: [] }));
    const ids = async (...where: WhereCondition[]) => {
      const cond = compileConditions(where, {
        column: (_t, name) => task.columns.find((c) => c.name === name),
        global: (name) => globalExpr(name, "bigint"),
      });
      return (
        await rows<{ id: number }>(su, `SELECT id::int FROM public.task WHERE ${cond} ORDER BY id`)
      ).map((r) => r.id);
    };
    const w = (
      columnName: string,
      operator: WhereCondition["operator"],
      value: WhereCondition["value"],
      conjunction?: "AND" | "OR",
    ): WhereCondition => ({
      tableName: "task",
      columnName,
      operator,
      value,
      ...(conjunction ? { conjunction } : {}),
    });
    t.same(await ids(w("title", "LIKE", "'100%'")), [5], "% is literal");
    t.same(await ids(w("title", "LIKE", "'h_2'")), [5], "_ is literal");
    t.same(await ids(w("title", "LIKE", "'CALIBRATE'")), [5], "case-insensitive");
    t.same(await ids(w("title", "STARTS WITH", "'fix'")), [13]);
    t.same(await ids(w("title", "ENDS WITH", "'TRUCKS'")), [9]);
    t.same(await ids(w("title", "NOT LIKE", "'%'")), [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13]);
    t.same(await ids(w("estimateHours", ">=", 80)), [3, 9]);
    t.same(await ids(w("priority", "IN", ["'urgent'"])), [2, 9]);
    t.same(await ids(w("assigneeId", "IS", null)), [4, 7, 11]);
    t.same(await ids(w("done", "IS NOT", true), w("companyId", "=", 2)), [9, 10, 11]);
    t.same(
      await ids(w("id", "=", 1), w("id", "=", 2, "OR"), w("done", "IS", false, "AND")),
      [1],
      "AND before OR",
    );
    t.same(await ids({ custom: `"task"."dueDate" < '2026-01-20'` }), [2, 8, 9]);
    await setCtx(su, { role: null, scopes: [], companyId: 2 });
    t.same(await ids(w("companyId", "=", "#companyId"), w("done", "IS", true)), [12, 13]);
    t.same(await ids({ custom: `"task"."companyId" = #companyId AND "task"."done"` }), [12, 13]);
    // `q` is no global of the example: its setting is made by hand.
    await setCtx(su, { role: null, scopes: [], companyId: 1 });
    await su.query(`SELECT set_config('api.ctx.q', '100%', false)`);
    const patterned = compileConditions([w("title", "LIKE", "#q")], {
      column: (_t, name) => task.columns.find((c) => c.name === name),
      global: (name) => globalExpr(name),
    });
    t.same(
      (await rows(su, `SELECT id::int FROM public.task WHERE ${patterned}`)).map((r) => r.id),
      [5],
      "a global pattern is escaped at run time",
    );
    await setCtx(su, null);
  });
});
