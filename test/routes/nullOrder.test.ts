// NULL ordering, one rule everywhere (docs/query-language.md, "NULL ordering"): NULL sorts as if
// larger than every value, Postgres's default, so NULLs come last in ASC and first in DESC, and a
// DESC order is the exact reverse of its ASC. Checked for sortBy ASC/DESC, a route's own orderBy
// (ASC and DESC) and its reversal, subquery orders, a raw SQL sort key, a groupBy key, the
// primary-key tiebreak among equal keys (NULLs included), and page boundaries among NULLs.
// Schema and seed: nulls.schema.json / nulls.seed.sql (ranks 2, NULL, 1, NULL, 2, 3 for ids 1-6).

import fs from "node:fs";
import path from "node:path";
import t from "tap";
import { routeDatabase } from "./helpers.ts";

const SCHEMA = path.join(import.meta.dirname, "nulls.schema.json");
const SEED = fs.readFileSync(path.join(import.meta.dirname, "nulls.seed.sql"), "utf8");
const caller = { role: "user", scopes: [] };

/** ASC: by rank, NULLs last, ties by id; DESC: its exact reverse. */
const RANK_ASC = [3, 1, 5, 6, 2, 4];
const RANK_DESC = [...RANK_ASC].reverse();

interface Row {
  id: number;
  parts?: { id: number }[];
  partsDesc?: { id: number }[];
  groupId?: number | null;
}

t.test("NULL ordering", async (t) => {
  const db = await routeDatabase(t, { schemaFile: SCHEMA, seed: SEED });
  const rows = async (route: string, params: Record<string, unknown> = {}) => {
    const body = (await db.body(`GET /api/v1${route}`, params, caller)) as { data: Row[] };
    return body.data;
  };
  const ids = async (route: string, params: Record<string, unknown> = {}) =>
    (await rows(route, params)).map((r) => r.id);

  t.test("sortBy ASC and DESC", async (t) => {
    t.same(await ids("/item/by-rank", { sortBy: "rank" }), RANK_ASC, "ASC: NULLs last");
    t.same(await ids("/item/by-rank", { sortBy: "rank", sortOrder: "DESC" }), RANK_DESC, "DESC: NULLs first");
    t.same(await ids("/item/by-rank", { sortBy: "item.rank" }), RANK_ASC, "by table.column");
  });

  t.test("page boundaries", async (t) => {
    const pages = async (perPage: number, sortOrder: string) => {
      const out: number[][] = [];
      for (let page = 1; page <= Math.ceil(6 / perPage); page++) {
        out.push(await ids("/item/by-rank", { sortBy: "rank", sortOrder, perPage, page }));
      }
      return out;
    };
    t.same(await pages(2, "ASC"), [
      [3, 1],
      [5, 6],
      [2, 4],
    ]);
    t.same(await pages(5, "ASC"), [[3, 1, 5, 6, 2], [4]], "a boundary between two NULLs");
    t.same(await pages(4, "DESC"), [
      [4, 2, 6, 5],
      [1, 3],
    ]);
    t.same(await pages(1, "DESC"), [[4], [2], [6], [5], [1], [3]], "one row a page: every row once");
    for (const perPage of [1, 2, 3, 4, 5]) {
      for (const sortOrder of ["ASC", "DESC"]) {
        t.same((await pages(perPage, sortOrder)).flat(), sortOrder === "ASC" ? RANK_ASC : RANK_DESC);
      }
    }
  });

  t.test("the route's own orderBy and its reversal", async (t) => {
    t.same(await ids("/item/by-rank"), RANK_ASC, "orderBy rank ASC: as sortBy rank");
    t.same(await ids("/item/by-rank", { sortOrder: "DESC" }), RANK_DESC, "reversed: as sortBy rank DESC");
    t.same(await ids("/item/by-rank", { sortOrder: "NONE" }), [1, 2, 3, 4, 5, 6], "NONE: primary key only");
    t.same(await ids("/item/by-rank-desc"), [2, 4, 6, 1, 5, 3], "orderBy rank DESC: NULLs first");
    t.same(await ids("/item/by-rank-desc", { sortOrder: "DESC" }), [3, 5, 1, 6, 4, 2], "its exact reverse");
    t.same(await ids("/item/by-rank-desc", { filter: { column: "rank", op: "null" } }), [2, 4]);
    const all = (await db.body("GET /api/v1/item/all", {}, caller)) as { data: Row[] };
    t.same(
      all.data.map((r) => r.id),
      [2, 4, 6, 1, 5, 3],
      "an ARRAY route's orderBy DESC: the same",
    );
  });

  t.test("subquery orders", async (t) => {
    const [first] = await rows("/item/by-rank", { filter: { column: "id", op: "eq", value: "1" } });
    t.same(
      first?.parts?.map((p) => p.id),
      [3, 1, 2, 4],
      "orderBy weight ASC: NULLs last, ties by id",
    );
    t.same(
      first?.partsDesc?.map((p) => p.id),
      [2, 4, 1, 3],
      "orderBy weight DESC: NULLs first, ties by id",
    );
  });

  t.test("a raw SQL sort key", async (t) => {
    // half = rank / 2: 1, NULL, 0, NULL, 1, 1.
    t.same(await ids("/item/by-rank", { sortBy: "half" }), [3, 1, 5, 6, 2, 4]);
    t.same(await ids("/item/by-rank", { sortBy: "half", sortOrder: "DESC" }), [4, 2, 6, 5, 1, 3]);
  });

  t.test("a nullable groupBy key", async (t) => {
    const groups = async (params: Record<string, unknown>) =>
      (await rows("/item/per-group", params)).map((r) => r.groupId);
    t.same(await groups({}), [1, 2, null], "the groupBy tiebreak: NULL last");
    t.same(await groups({ sortOrder: "DESC" }), [null, 2, 1]);
    t.same(await groups({ sortBy: "groupId", sortOrder: "DESC" }), [null, 2, 1]);
    t.same(await groups({ perPage: 2, page: 2 }), [null]);
  });
});
