// The Restura fixture (shared/fixtures/restura-example) loads unchanged: every GET standard route
// compiles, and returns exactly what expected/restura.json says for the rows of restura.seed.sql.

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { exact, RESTURA_FIXTURE, RESTURA_SEED, routeDatabase } from "./helpers.ts";

interface Case {
  route: string;
  params: unknown;
  ctx: { role: string | null; scopes: string[] } & Record<string, unknown>;
  body?: unknown;
  error?: string;
}

const cases: Case[] = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "expected/restura.json"), "utf8"),
);

t.test("Restura fixture", async (t) => {
  const db = await routeDatabase(t, {
    schemaFile: RESTURA_FIXTURE,
    template: "tpl_restura",
    seed: RESTURA_SEED,
  });

  t.test("every GET standard route is covered", async (t) => {
    const covered = new Set(cases.map((c) => c.route));
    for (const group of db.schema.endpoints) {
      for (const route of group.routes) {
        if (route.method !== "GET" || route.type.startsWith("CUSTOM")) continue;
        t.ok(covered.has(`GET ${group.baseUrl}${route.path}`), `GET ${group.baseUrl}${route.path}`);
      }
    }
  });

  for (const c of cases) {
    t.test(`${c.route} ${JSON.stringify(c.params)} as ${c.ctx.role ?? "anonymous"}`, async (t) => {
      const outcome = await db.call(c.route, c.params, c.ctx);
      if (c.error !== undefined) {
        t.same(outcome.ok ? outcome.text : `${outcome.code}: ${outcome.message}`, c.error);
      } else {
        t.ok(outcome.ok, outcome.ok ? "succeeds" : `${outcome.code}: ${outcome.message}`);
        if (outcome.ok) exact(t, outcome.body, c.body);
      }
    });
  }

  t.test("the custom join compares $date with a timestamptz column", async (t) => {
    const ctx = { role: "user", scopes: ["read:user"] };
    const at = (date: string) => db.body("GET /api/v1/user/before", { date }, ctx);
    exact(t, await at("2024-01-01"), { data: [] });
    exact(t, await at("2024-01-02T10:00:00.000001Z"), {
      data: [{ id: 1, firstName: "Bill", lastName: "Lumbergh", companyName: "Initech" }],
    });
  });
});
