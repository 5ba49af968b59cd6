// The plan check's machinery (not a test file): a seeded copy of a template, a route function
// called as the gateway calls it with every statement it runs explained (auto_explain, ANALYZE
// and BUFFERS, sent back as notices), or, for the requests the gateway answers with its own
// statement (gateway/routes/pagedStatement.ts, readStatement.ts), that statement or batch run as
// the gateway runs it; the hand-written statement explained the same way, and the comparison.
// Counts of buffers and rows do not depend on how busy the machine is; timings would.

import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Test } from "tap";
import { CellQuery, type CellStatement } from "../../gateway/cellQuery.ts";
import { sentRequest } from "../../gateway/routes/sentRequest.ts";
import { buildModel } from "../../generator/model/index.ts";
import { guardStatements, pageGuardName } from "../../generator/routes/guards.ts";
import { routeFunctionName, routeFunctionStatementsFor } from "../../generator/routes/index.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { TemplateName } from "../harness/templates.ts";

const harness = () => import("../harness/db.ts");

export const REPO = path.resolve(import.meta.dirname, "../..");
export const read = (file: string) => fs.readFileSync(path.resolve(REPO, file), "utf8");

/** The caller context as the gateway builds it. */
export type Ctx = { role: string | null; scopes: string[] } & Record<string, unknown>;

export interface PlanCase {
  /** "GET /api/v1/..." plus a label when a route has several cases. */
  name: string;
  route: string;
  params: Record<string, unknown>;
  ctx: Ctx;
  /** The best statement for the same answer, on the tables as a superuser (no row security). */
  sql: string;
  values?: unknown[];
  /**
   * Calls before the measured one (default 5: plpgsql may switch to a generic plan after five
   * custom ones). 0 for statements that take no parameter, whose first plan is already the
   * generic one (plan nodes count execution buffers only, so the first call's planning and
   * catalog reads do not show): it keeps the big ARRAY routes of the Restura fixture cheap.
   */
  warmCalls?: number;
}

/** What a plan touched: shared buffers (hit + read), rows read by scans, per table and seq-scanned. */
export interface PlanStats {
  buffers: number;
  rows: number;
  rowsByTable: Map<string, number>;
  seqScans: Map<string, number>;
  text: string[];
}

/** The allowance over the hand-written plan. Counts, not timings: a busy machine cannot move them. */
export const BOUNDS = { bufferFactor: 3, bufferSlack: 50, rowFactor: 3, rowSlack: 200, bigTable: 1000 };

// A route function's plpgsql statements may switch to a generic plan after five custom ones:
// five calls warm it, the sixth is measured, as a long-lived gateway connection runs it.
const WARM_CALLS = 5;
const JSON_OID = 114;

export interface PlanDb {
  su: pg.Client;
  gw: pg.Client;
  functionName(route: string): string;
  /** The gateway's own statement for a case, when it answers the case itself. */
  ownStatement(c: Pick<PlanCase, "route" | "params" | "ctx">): CellStatement | undefined;
  /** The route function's parameters as the gateway sends them (a cursor decoded: cursor.ts). */
  functionParams(c: Pick<PlanCase, "route" | "params">): Record<string, unknown>;
  bigTables: Set<string>;
}

/**
 * A copy of `template` with `seeds` run into it (once per test file), and two connections.
 * `extraRoutes` (schema JSON) join the first endpoint group; their functions are created in the
 * copy, so routes beyond the app's own are checked without migrating another database.
 */
export async function planDatabase(
  t: Test,
  template: TemplateName,
  schemaFile: string,
  seeds: string[],
  extraRoutes: unknown[] = [],
): Promise<PlanDb> {
  const json = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
  json.endpoints[0].routes.push(...extraRoutes);
  const loaded = loadSchema(json);
  if (!loaded.schema) throw new Error(`${schemaFile} does not load`);
  const schema = loaded.schema;
  const { testDatabase } = await harness();
  const url = await testDatabase(t, template);
  const rawJson = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === JSON_OID ? (v: string) => v : pg.types.getTypeParser(oid, format as "text")) as never,
  };
  const open = async () => {
    const client = new pg.Client({ connectionString: url, types: rawJson });
    await client.connect();
    t.teardown(() => client.end());
    return client;
  };
  const su = await open();
  for (const seed of seeds) await su.query(seed);
  const group = schema.endpoints[0];
  for (const route of group?.routes.slice(group.routes.length - extraRoutes.length) ?? []) {
    if (!("table" in route)) throw new Error(`extra route ${route.path} is not a standard route`);
    for (const statement of routeFunctionStatementsFor(schema, route, group as NonNullable<typeof group>))
      await su.query(statement);
  }
  // The gateway's own pages are valid in a layer of this schema, the extra routes' included.
  for (const statement of guardStatements(pageGuardName(schema))) await su.query(statement);
  // Route functions set UTC for themselves; the hand-written statements need the same.
  await su.query("SET timezone = 'UTC'");

  // The gateway's side: a superuser session loads auto_explain (a non-superuser may not), then
  // becomes api_gateway for the calls, as the gateway's own login is.
  const gw = await open();
  await gw.query(`LOAD 'auto_explain'`);
  for (const setting of [
    "auto_explain.log_analyze = on",
    "auto_explain.log_buffers = on",
    "auto_explain.log_timing = off",
    "auto_explain.log_nested_statements = on",
    "auto_explain.log_format = json",
    "auto_explain.log_level = notice",
    "auto_explain.log_min_duration = -1",
  ]) {
    await gw.query(`SET ${setting}`);
  }
  await gw.query("SET SESSION AUTHORIZATION api_gateway");

  const names = new Map<string, string>();
  for (const group of schema.endpoints) {
    for (const route of group.routes)
      names.set(`${route.method} ${group.baseUrl}${route.path}`, routeFunctionName(route, group));
  }
  const { rows } = await su.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace
       AND reltuples > $1`,
    [BOUNDS.bigTable],
  );
  const model = buildModel(schema);
  const sent = new Map(model.routes.map((r) => [r.key, sentRequest(model, r)]));
  return {
    su,
    gw,
    bigTables: new Set(rows.map((r) => r.relname)),
    ownStatement: (c) => sent.get(c.route)?.own(c.params, c.ctx),
    functionParams: (c) => sent.get(c.route)?.params(c.params) ?? { ...c.params },
    functionName: (route) => {
      const name = names.get(route);
      if (!name) throw new Error(`no standard route ${route}`);
      return name;
    },
  };
}

/** Calls the route function as the gateway does; the last call's statements explained. */
export async function gatewayPlan(db: PlanDb, c: PlanCase): Promise<{ body: string; stats: PlanStats }> {
  const { body, plans } = await gatewayPlans(db, c);
  return { body, stats: statsOf(plans) };
}

/** The root plan node of every statement a call of the route function ran (after the warm calls). */
export async function gatewayPlans(
  db: PlanDb,
  c: Pick<PlanCase, "route" | "params" | "ctx" | "warmCalls">,
): Promise<{ body: string; plans: unknown[] }> {
  const warmCalls = c.warmCalls ?? WARM_CALLS;
  const own = db.ownStatement(c);
  // The gateway's own batch, run as the gateway runs it (a CellQuery): every statement counts.
  if (own)
    return lastRunPlans(
      db,
      warmCalls,
      () => runCell(db.gw, own),
      () => true,
    );
  const fn = db.functionName(c.route).replaceAll('"', '""');
  const call = `SELECT api."${fn}"($1, $2) AS body`;
  const values = [JSON.stringify(db.functionParams(c)), JSON.stringify(c.ctx)];
  const run = async () => (await db.gw.query(call, values)).rows[0].body as string;
  // The call itself is the top-level statement; its numbers include the function's statements.
  return lastRunPlans(db, warmCalls, run, (text) => text !== call);
}

/** `run` after `warmCalls` runs, with the root plan node of each statement it ran that `keep` keeps. */
async function lastRunPlans(
  db: PlanDb,
  warmCalls: number,
  run: () => Promise<string>,
  keep: (queryText: string) => boolean,
): Promise<{ body: string; plans: unknown[] }> {
  for (let i = 0; i < warmCalls; i++) await run();
  const plans: unknown[] = [];
  const onNotice = (notice: { message?: string }) => {
    const message = notice.message ?? "";
    const at = message.indexOf("plan:\n");
    if (at < 0) return;
    const explained = JSON.parse(message.slice(at + 6)) as { "Query Text": string; Plan: unknown };
    if (keep(explained["Query Text"])) plans.push(explained.Plan);
  };
  await setExplain(db.gw, 0);
  db.gw.on("notice", onNotice);
  try {
    return { body: await run(), plans };
  } finally {
    db.gw.off("notice", onNotice);
    await setExplain(db.gw, -1);
  }
}

/** A CellStatement's cell, run on `client` as the gateway's pool runs it. */
function runCell(client: pg.Client, statement: CellStatement): Promise<string> {
  return new Promise((resolve, reject) => {
    client.query(
      new CellQuery(statement) as never,
      ((error: Error | null, result?: pg.QueryArrayResult) =>
        error ? reject(error) : resolve(result?.rows[0]?.[0] as string)) as never,
    );
  });
}

async function setExplain(gw: pg.Client, minDuration: number): Promise<void> {
  await gw.query("RESET SESSION AUTHORIZATION");
  await gw.query(`SET auto_explain.log_min_duration = ${minDuration}`);
  await gw.query("SET SESSION AUTHORIZATION api_gateway");
}

/** Runs the hand-written statement (its answer) and explains it. */
export async function handPlan(db: PlanDb, c: PlanCase): Promise<{ body: string; stats: PlanStats }> {
  const values = c.values ?? [];
  const { rows } = await db.su.query({ text: c.sql, values, rowMode: "array" });
  const body = (rows[0] as unknown[] | undefined)?.[0];
  if (typeof body !== "string") throw new Error(`${c.name}: the hand-written statement returned no JSON`);
  const explained = await db.su.query({
    text: `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${c.sql}`,
    values,
  });
  const plan = explainedPlan(explained.rows[0]["QUERY PLAN"]);
  return { body, stats: statsOf([plan]) };
}

/** The root plan node of an EXPLAIN (FORMAT JSON) answer (json arrives as text on these connections). */
export function explainedPlan(queryPlan: unknown): unknown {
  const parsed = (typeof queryPlan === "string" ? JSON.parse(queryPlan) : queryPlan) as { Plan: unknown }[];
  return parsed[0]?.Plan;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

const SCANS = new Set(["Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Tid Scan"]);

/** Buffers of each statement's root (which include its children, subplans and initplans). */
export function statsOf(plans: unknown[]): PlanStats {
  const stats: PlanStats = { buffers: 0, rows: 0, rowsByTable: new Map(), seqScans: new Map(), text: [] };
  for (const root of plans as PlanNode[]) {
    stats.buffers += (root["Shared Hit Blocks"] ?? 0) + (root["Shared Read Blocks"] ?? 0);
    walk(root, 0);
  }
  return stats;

  function walk(node: PlanNode, depth: number): void {
    const loops = node["Actual Loops"] ?? 0;
    const touched = Math.round(
      ((node["Actual Rows"] ?? 0) +
        (node["Rows Removed by Filter"] ?? 0) +
        (node["Rows Removed by Index Recheck"] ?? 0)) *
        loops,
    );
    const relation = node["Relation Name"];
    if (SCANS.has(node["Node Type"])) {
      stats.rows += touched;
      if (relation) stats.rowsByTable.set(relation, (stats.rowsByTable.get(relation) ?? 0) + touched);
    }
    if (node["Node Type"] === "Seq Scan" && relation)
      stats.seqScans.set(relation, (stats.seqScans.get(relation) ?? 0) + touched);
    const buffers = (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0);
    stats.text.push(
      `${"  ".repeat(depth)}${node["Node Type"]}${relation ? ` on ${relation}` : ""} rows=${touched} buffers=${buffers}`,
    );
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  }
}

/** Why the gateway's plan is out of bounds against the hand-written one; empty when it is not. */
export function overBounds(gateway: PlanStats, hand: PlanStats, bigTables: Set<string>): string[] {
  const problems: string[] = [];
  const maxBuffers = BOUNDS.bufferFactor * hand.buffers + BOUNDS.bufferSlack;
  if (gateway.buffers > maxBuffers)
    problems.push(`buffers ${gateway.buffers} > ${maxBuffers} (hand-written ${hand.buffers})`);
  const maxRows = BOUNDS.rowFactor * hand.rows + BOUNDS.rowSlack;
  if (gateway.rows > maxRows) problems.push(`rows ${gateway.rows} > ${maxRows} (hand-written ${hand.rows})`);
  // A Seq Scan is a regression when it reads rows of a big table that the hand-written plan
  // reaches by index without reading them; reading the whole table either way is the planner's
  // fair choice (a seq scan beats an index scan there), not a regression.
  for (const [table, rows] of gateway.seqScans) {
    const handRows = hand.rowsByTable.get(table) ?? 0;
    if (
      bigTables.has(table) &&
      !hand.seqScans.has(table) &&
      rows > BOUNDS.rowFactor * handRows + BOUNDS.rowSlack
    )
      problems.push(
        `Seq Scan on ${table} (${rows} rows) where the hand-written plan reads ${handRows} by index`,
      );
  }
  return problems;
}

/**
 * One subtest per case: the two answers are the same JSON (so the comparison is honest), and the
 * gateway's statements stay within BOUNDS of the hand-written one. A case in `knownBad` must
 * still be out of bounds: the test fails when it starts passing, so the entry gets removed.
 */
export function checkPlans(t: Test, db: PlanDb, cases: PlanCase[], knownBad: ReadonlySet<string>): void {
  for (const name of knownBad) {
    if (!cases.some((c) => c.name === name)) throw new Error(`KNOWN_BAD names no case: ${name}`);
  }
  for (const c of cases) {
    t.test(c.name, async (t) => {
      const hand = await handPlan(db, c);
      const gateway = await gatewayPlan(db, c);
      t.equal(
        JSON.stringify(JSON.parse(gateway.body), null, 1),
        JSON.stringify(JSON.parse(hand.body), null, 1),
        "the hand-written statement answers exactly as the route does",
      );
      t.ok(gateway.stats.text.length > 0, "the gateway's statements were explained");
      const problems = overBounds(gateway.stats, hand.stats, db.bigTables);
      const summary =
        `buffers ${gateway.stats.buffers} vs hand-written ${hand.stats.buffers}, ` +
        `rows ${gateway.stats.rows} vs ${hand.stats.rows}`;
      t.comment(`${c.name}: ${summary}`);
      if (knownBad.has(c.name)) {
        t.ok(
          problems.length > 0,
          `known bad, still out of bounds (${summary}): remove it from KNOWN_BAD once this fails`,
        );
      } else {
        t.same(problems, [], `within bounds (${summary})`, {
          gatewayPlan: gateway.stats.text.join("\n"),
          handWrittenPlan: hand.stats.text.join("\n"),
        });
      }
    });
  }
}
