// The total of a PAGED route under its own where is counted without the joins it does not need
// (generator/routes/select.ts countFrom), so Postgres can count on an index alone: the example's
// projects of company 1 by the (companyId, name) index, without reading the 43 rows' pages.

import path from "node:path";
import t from "tap";
import { gatewayPlans, planDatabase, REPO, read } from "./plan.ts";

const MEMBER = { role: "member", scopes: ["tasks:write"], companyId: 1, userId: 1050 };

interface ExplainedNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: ExplainedNode[];
}

/** The aggregates over `project` alone, `count(*)`: each one's scans of the table. */
function countScans(plans: unknown[]): string[][] {
  const found: string[][] = [];
  const scans = (node: ExplainedNode): string[] => [
    ...(node["Relation Name"] === "project" ? [node["Node Type"]] : []),
    ...(node.Plans ?? []).flatMap(scans),
  ];
  const walk = (node: ExplainedNode) => {
    if (node["Node Type"] === "Aggregate") {
      const own = scans(node);
      if (own.length > 0 && !JSON.stringify(node).includes('"Relation Name":"task"')) found.push(own);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const root of plans as ExplainedNode[]) walk(root);
  return found;
}

t.test("the default request's total is counted on an index alone", async (t) => {
  const db = await planDatabase(t, "tpl_example", path.join(REPO, "example/api.schema.json"), [
    read("example/seed.sql"),
    read("test/plans/example.scale.sql"),
    "VACUUM (ANALYZE) project",
  ]);
  // Page 1 (one statement), a deep page and the reversed order (static keys-first statements).
  for (const params of [{}, { page: 12, perPage: 10 }, { sortOrder: "DESC" }]) {
    const { body, plans } = await gatewayPlans(db, { route: "GET /api/v1/project", params, ctx: MEMBER });
    t.match(body, /"total" ?: ?43\b/, `${JSON.stringify(params)}: company 1's projects`);
    const counts = countScans(plans);
    t.ok(counts.length > 0, `${JSON.stringify(params)}: the count is found in the plans`);
    for (const scans of counts)
      t.same(scans, ["Index Only Scan"], `${JSON.stringify(params)}: counted on an index alone`);
  }
});
