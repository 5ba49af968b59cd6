// `make bench`'s report: one markdown table per app, printed, and written to docs/benchmarks.md
// with the machine's facts and the command when asked (BENCH_WRITE_DOCS=1).

import fs from "node:fs";
import path from "node:path";

export interface Side {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time of the server process per request served, microseconds. */
  cpu: number;
  /** CPU time of the whole Postgres cluster per request while this server was loaded, microseconds. */
  pgCpu: number;
  /** Resident memory at its highest after a round, MB. */
  rss: number;
}

export interface Result {
  app: string;
  name: string;
  gateway: Side;
  baseline: Side;
  pgbench?: { gateway?: number | undefined; baseline?: number | undefined; underRls?: number | undefined };
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  postgres: string;
  loadBefore: number;
  loadAfter: number;
  /** CPU other processes used during the run, in CPUs (0.25: a quarter of one); absent without /proc. */
  otherCpuShare?: number;
  minutes: number;
  settings: Record<string, number>;
}

const DOCS = path.resolve(import.meta.dirname, "../docs/benchmarks.md");

const n = (x: number | undefined, digits = 0) =>
  x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(digits);

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? n(a / b, 2) : "-");

function table(results: Result[]): string {
  const rows = [
    "| case | req/s gateway | req/s hand-written | ratio | p50 / p99 ms gateway | p50 / p99 ms hand-written | gateway RSS MB | server CPU µs per request gateway / hand-written | Postgres CPU µs per request gateway / hand-written | pgbench tps gateway statement / hand-written / hand-written under row security | ceiling ratio | ceiling ratio under row security |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    const g = r.gateway;
    const b = r.baseline;
    rows.push(
      `| ${r.name} | ${n(g.rps)} | ${n(b.rps)} | **${n(g.rps / b.rps, 2)}** | ${n(g.p50)} / ${n(g.p99)} | ` +
        `${n(b.p50)} / ${n(b.p99)} | ${n(g.rss)} | ${n(g.cpu)} / ${n(b.cpu)} | ${n(g.pgCpu)} / ${n(b.pgCpu)} | ` +
        `${r.pgbench ? `${n(r.pgbench.gateway)} / ${n(r.pgbench.baseline)} / ${n(r.pgbench.underRls)}` : "-"} | ` +
        `${ratio(r.pgbench?.gateway, r.pgbench?.baseline)} | ${ratio(r.pgbench?.gateway, r.pgbench?.underRls)} |`,
    );
  }
  return rows.join("\n");
}

export function writeReport(results: Result[], machine: Machine, notes: string[], writeDocs: boolean): void {
  const apps = [...new Set(results.map((r) => r.app))];
  const tables = apps
    .map(
      (app) =>
        `### ${app === "example" ? "Example app" : "Restura fixture"}\n\n${table(results.filter((r) => r.app === app))}`,
    )
    .join("\n\n");
  console.log(`\n${tables}\n`);
  for (const note of notes) console.log(`note: ${note}`);
  if (!writeDocs) return;
  const s = machine.settings;
  // Busy when other processes took more than a fifth of a CPU on average. The load average cannot
  // tell: the bench's own servers and clients keep it above the CPU count.
  const other = machine.otherCpuShare;
  const busy = other !== undefined ? other > 0.2 : machine.loadBefore > machine.cpus / 2;
  const doc = `# Benchmarks

Written by \`make bench\` (bench/run.ts); do not edit by hand. How to read it and how it is
measured: the end of this page.

## Last run

- Command: \`make bench\` (BENCH_SECONDS=${s.SECONDS}, BENCH_ROUNDS=${s.ROUNDS},
  BENCH_CONNECTIONS=${s.CONNECTIONS}, BENCH_POOL_SIZE=${s.POOL_SIZE}, BENCH_PGBENCH_SECONDS=${s.PGBENCH_SECONDS}), ${n(machine.minutes, 1)} minutes
- Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${n(machine.memoryGb, 1)} GB memory; Node ${machine.node};
  PostgreSQL ${machine.postgres} (embedded, default settings); load average ${n(machine.loadBefore, 1)} before,
  ${n(machine.loadAfter, 1)} after${other !== undefined ? `; other processes used ${n(other * 100, 0)} % of a CPU during the run` : ""}${
    busy
      ? `\n- **The machine was busy** (other work ran alongside the bench). Absolute numbers are low
  and noisy; only the ratios of the interleaved rounds compare the two servers, and even they move
  by 10-20 % between runs.`
      : ""
  }
${notes.map((note) => `- ${note}`).join("\n")}

${tables}

## How it is measured

- Data: the plan check's seeds (\`test/plans/*.scale.sql\`), vacuumed and analyzed before anything
  is timed. The example app: 50 companies, 1,000 users, 2,000 projects, 20,000 tasks, 10,000
  comments. The Restura fixture: 1,000 companies, 10,000 users, 50,000 orders, 100,000 items,
  plus two routes of shapes the fixture lacks
  (\`bench/restura.routes.json\`: a company's users with their orders with their items; a
  company's orders joined to user and company).
- The hand-written server (\`bench/baseline.ts\`, SQL in \`bench/sql.ts\`): Fastify + pg, one
  prepared statement per request on the tables, the JSON built in Postgres and sent on as text. It
  reads the caller from the token without verifying it and validates nothing it does not need: it
  is the ceiling, not a peer. The gateway verifies the token, checks the route's roles, validates
  and coerces every parameter, and calls the route function as \`api_gateway\` (views, row-level
  security, column masks), or, for a filtered or sorted page, sends its own page statement over
  the views with the caller's context in the same batch (docs/architecture.md, "The gateway's own
  page statements"), or, for a ONE or ARRAY read without raw SQL, its own statement over the
  views, after the same context statement where the tables' policies or masks read the caller
  (the same page, "own read statements").
  The issue's first measurement had the gateway beat an earlier version of it on two cases;
  what that version did beyond the ceiling, and this one does not: it verified the token's
  signature on every request (the gateway's cost, not the ceiling's); its PAGED statement counted
  the total with \`count(*) OVER ()\` across every matching row before the LIMIT; its joins lacked
  the tenant predicate. Now the caller is read from the token unverified, the page is cut in a
  derived table before any join or JSON is built, the total is a separate \`count(*)\`, and every
  joined table carries the tenant predicate, so Postgres reaches it by index.
  Its arrays are built over rows sorted in a subquery (\`json_agg\` with its own \`ORDER BY\` cost
  twice the Postgres CPU), and each statement runs in the plan cache mode that measured faster
  for it: its generic plan, except the deep user page, planned per call (\`bench/sql.ts\`
  \`PLANNED_PER_CALL\`). Under Postgres's own choice the example's first project page was planned
  on every call; the gateway beat that version by 1.2-1.6 times on five cases.
- On a shared 2-core VM the ratios of unchanged code move between full runs by up to 0.2 (the
  example's \`GET /task/:id\`: 0.56, then 0.78, on 2026-11-27); compare versions with
  \`BENCH_ONLY\` runs one after the other, not with an older run.
- Both servers answer every case with the same status and JSON (checked before timing; new ids and
  timestamps aside). Rounds alternate between the two servers, ${s.CONNECTIONS} connections each (autocannon),
  after an uncounted warm-up round; req/s, p50 and p99 are medians over the rounds (three by
  default, as the issue that set the bar measured; means of two until 2026-11-29). Each server's
  pool holds ${s.POOL_SIZE} Postgres connections.
- CPU: the server process's user + system time, and the whole Postgres cluster's (postmaster and
  every backend, from /proc), during that server's rounds, divided by the requests served: what one
  request costs each side, in microseconds. A busier server batches more per wake-up, so at
  different throughputs this slightly favours the faster one; \`BENCH_RATE=<req/s>\` offers both
  servers the same load to compare at equal throughput. RSS: the gateway's resident memory,
  highest after a round.
- ratio: gateway req/s over hand-written req/s (1.00: as fast as the ceiling). ceiling ratio: the
  same for the two statements alone under pgbench; where it is well below the HTTP ratio the
  gap is in Postgres (the route function's statement), where it is near 1 the gap is in Node.
- pgbench: the gateway's own statement (\`SELECT api."<route>"(params, ctx)\`, or for the filtered
  and sorted pages its batch, context statement and page, as one pipeline, as \`api_gateway\`) and
  the hand-written one, each alone, prepared, its values bound as parameters as the servers bind them, 4 clients,
  ${s.PGBENCH_SECONDS} s a run, the median of three runs each, alternating: what Postgres can do
  for each without HTTP or Node. The hand-written one runs a third time under the app's row
  security: as api_owner (the role the route functions read as), with the caller's context in
  the session's settings from its start, so it pays the app's policies but no \`set_config\`.
  ceiling ratio under row security: the gateway's statement over that one, the generated code's
  share of the gap (the Restura fixture has no row policies: there it is the ceiling ratio).
  pgbench binds a parameter for every place a statement names it, so where a text names \`$1\`
  several times Postgres parses its value several times: the page batch's request and caller
  JSON about ten times where the gateway's one Bind parses each once (a few percent of the batch,
  against the gateway; the hand-written statements' repeated values are numbers).
- Writes (POST, PATCH, DELETE) change rows: PATCH is spread over many rows, DELETE removes a
  fresh row per request (a fixed number of requests per round instead of a duration: 10,000, made
  just before the case, so no other case reads them). They run after every read case, the custom
  route included, so no read sees the rows POST added.
- req/s: the requests of a round over the time from its start to its last answer. (Until
  2026-11-28 it was the time until autocannon settled the round, on its next whole-second tick:
  a DELETE round, 1,000 requests then, finished in about 0.2 s and took a second by that clock, so
  both servers measured 994 req/s and DELETE a ratio of 1.00. Measured to the last answer, with
  3,000 a round: 0.82; 0.70-0.92 over the next full runs, rounds of about half a second, hence
  10,000 since 2026-11-29.)
- \`BENCH_ONLY=<text>\` runs the cases whose app or name contains it (several texts: \`a|b\`); \`BENCH_SECONDS\`,
  \`BENCH_ROUNDS\`, \`BENCH_CONNECTIONS\`, \`BENCH_POOL_SIZE\`, \`BENCH_PGBENCH_SECONDS\`, \`BENCH_DELETES\`,
  \`BENCH_RATE\` tune it.
  \`BENCH_CPU_PROF=<dir>\` runs both servers under \`node --cpu-prof\` (profiles written there when they
  exit; \`bench/profile.ts <file>\` lists the top self-time functions, \`--against <file>\` sets two
  side by side, \`--under <name>\` shows the inclusive time below a frame).
  \`BENCH_BASELINE=rls\` runs the hand-written statements under the example's row policies, the
  caller's keys set with each (bench/baseline.ts): what the app's policies cost, not the bar.
- Deep pages: \`page=400\` (offset) and the same rows by cursor (\`after\`, keyset), with the exact total
  and with \`Prefer: count=planned\`; the hand-written keyset statements decode the cursor and read
  \`reltuples\` for the planned total.
- The same statements' cost in CPU instructions, which a busy machine cannot move:
  [benchmarks-instructions.md](benchmarks-instructions.md) (\`make bench-instructions\`, also run by
  \`make bench\`).
- Plan regressions are caught by \`make test\` instead (\`test/plans/\`): counts of buffers and
  rows against the hand-written statements, which a busy machine cannot move.
`;
  fs.writeFileSync(DOCS, doc);
  console.log(`wrote ${path.relative(process.cwd(), DOCS)}`);
}
