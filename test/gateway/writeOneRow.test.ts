// ONE writes (PATCH, DELETE) select the row they change as reads do, and must tell "no row" (404)
// from "more than one" (409). Where the schema proves at most one row can match (a unique key
// pinned by `=`, generator/routes/unique.ts), the function locks the row with SELECT INTO and
// FOUND and counts nothing; elsewhere it counts. A proof that held where it should not would
// change an arbitrary row of several: the 409s below fail then.

import t from "tap";
import { column, id, scratchApp, standardRoute, table, uniqueIndex } from "../harness/app.ts";
import { type Claims, testGatewayForApp } from "../harness/gateway.ts";

const param = (name: string, type: string, required = true) => ({
  name,
  required,
  validator: [{ type: "TYPE_CHECK", value: type }],
});

const route = (method: string, path: string, where: unknown[], request: unknown[]) =>
  standardRoute(method, path, "note", method === "DELETE" ? [] : ["id", "title", "label"], {
    roles: ["admin"],
    where,
    request,
  });

const byTitle = [
  { tableName: "note", columnName: "groupId", operator: "=", value: "#groupId" },
  { tableName: "note", columnName: "title", operator: "=", value: "$title", conjunction: "AND" },
];
const byLabel = [{ tableName: "note", columnName: "label", operator: "=", value: "$label" }];

const schema = {
  database: [
    table(
      "note",
      [
        id(),
        column("groupId", "BIGINT"),
        column("title", "VARCHAR", { length: 100 }),
        column("label", "TEXT"),
      ],
      {
        indexes: [uniqueIndex("note", ["groupId", "title"])],
      },
    ),
  ],
  endpoints: [
    {
      name: "V1",
      description: "",
      baseUrl: "/api/v1",
      routes: [
        // (groupId, title) is a unique key: proven one row.
        route("PATCH", "/note/by-title/:title", byTitle, [
          param("title", "string"),
          param("label", "string", false),
        ]),
        route("DELETE", "/note/by-title/:title", byTitle, [param("title", "string")]),
        // label is not unique: counted.
        route("PATCH", "/note/by-label/:label", byLabel, [
          param("label", "string"),
          param("title", "string", false),
        ]),
        route("DELETE", "/note/by-label/:label", byLabel, [param("label", "string")]),
      ],
    },
  ],
  customTypes: [],
  globalParams: ["groupId"],
  roles: ["admin"],
  scopes: [],
};

const SEED = `
  INSERT INTO "note" ("id", "groupId", "title", "label") VALUES
    (1, 1, 'one', 'twin'), (2, 1, 'two', 'twin'), (3, 1, 'three', 'alone'), (4, 2, 'one', 'other');
  SELECT setval(pg_get_serial_sequence('"public"."note"', 'id'), 4);`;

const admin: Claims = { role: "admin", scopes: [], groupId: 1 };

t.test("ONE writes: 404, 409 and the one row, counted or proven", async (t) => {
  const app = scratchApp(t, schema);
  const gw = await testGatewayForApp(t, app.dir, SEED);
  const send = async (method: "PATCH" | "DELETE", url: string, payload?: Record<string, unknown>) => {
    const res = await gw.request({ method, url, as: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const notes = async () =>
    (await gw.su.query(`SELECT "id"::int, "title", "label" FROM "note" ORDER BY "id"`)).rows;
  const before = await notes();

  t.test("the proven routes count nothing; the others do", async (t) => {
    const { rows } = await gw.su.query(
      `SELECT p.proname, pg_get_functiondef(p.oid) AS def FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'api' AND p.proname LIKE '% /api/v1/note/%'`,
    );
    t.equal(rows.length, 4);
    for (const { proname, def } of rows as { proname: string; def: string }[]) {
      const proven = proname.includes("by-title");
      t.equal(def.includes("count(*)"), !proven, `${proname}: ${proven ? "no count" : "counts"}`);
      t.equal(def.includes("IF NOT FOUND"), proven, `${proname}: ${proven ? "FOUND" : "no FOUND"}`);
    }
  });

  t.test("a non-unique where matching two rows: 409, nothing changed", async (t) => {
    const patch = await send("PATCH", "/api/v1/note/by-label/twin", { title: "renamed" });
    t.equal(patch.status, 409, JSON.stringify(patch.body));
    t.match(patch.body, { error: { message: "More than one note matches the request" } });
    const del = await send("DELETE", "/api/v1/note/by-label/twin");
    t.equal(del.status, 409, JSON.stringify(del.body));
    t.same(await notes(), before, "no row changed or deleted");
  });

  t.test("no row: 404 from both forms, nothing changed", async (t) => {
    const misses: [string, Record<string, unknown>][] = [
      ["/api/v1/note/by-label/none", { title: "x" }],
      ["/api/v1/note/by-title/none", { label: "x" }],
    ];
    for (const [url, body] of misses) {
      t.equal((await send("PATCH", url, body)).status, 404, `PATCH ${url}`);
      t.equal((await send("DELETE", url)).status, 404, `DELETE ${url}`);
    }
    t.same(await notes(), before);
  });

  t.test("one row: changed, through either form", async (t) => {
    const proven = await send("PATCH", "/api/v1/note/by-title/one", { label: "relabelled" });
    t.equal(proven.status, 200, JSON.stringify(proven.body));
    t.same(proven.body, { data: { id: 1, title: "one", label: "relabelled" } });
    const counted = await send("PATCH", "/api/v1/note/by-label/alone", { title: "three again" });
    t.equal(counted.status, 200, JSON.stringify(counted.body));
    t.same(counted.body, { data: { id: 3, title: "three again", label: "alone" } });
    t.equal((await send("DELETE", "/api/v1/note/by-title/two")).status, 200);
    t.same(await notes(), [
      { id: 1, title: "one", label: "relabelled" },
      { id: 3, title: "three again", label: "alone" },
      { id: 4, title: "one", label: "other" },
    ]);
  });
});
