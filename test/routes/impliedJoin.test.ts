// An INNER join that the policies and a foreign key imply decides no row (generator/routes/
// impliedJoin.ts): a count leaves it out and a page's keys write it LEFT, so Postgres leaves it
// out too. Every part of the proof is needed: without any one of them the join may remove rows,
// and leaving it out would then count and list rows whose joined row the caller cannot see, or
// that have none.

import t, { type Test } from "tap";
import { buildModel } from "../../generator/model/index.ts";
import { joinImpliedByPolicies } from "../../generator/routes/impliedJoin.ts";
import { Checks } from "../../generator/routes/permissions.ts";
import { compileQuery } from "../../generator/routes/select.ts";
import { loadSchema } from "../../generator/schema/index.ts";
import type { Join } from "../../generator/schema/types.ts";
import {
  type ColumnJson,
  column,
  id,
  scratchApp,
  standardRoute,
  table,
  uniqueIndex,
} from "../harness/app.ts";
import { testGatewayForApp } from "../harness/gateway.ts";

type Json = Record<string, unknown>;
const pin = (table: string, columnName: string, global: string, conjunction?: "AND" | "OR") => ({
  tableName: table,
  columnName,
  operator: "=",
  value: `#${global}`,
  ...(conjunction ? { conjunction } : {}),
});
const fk = (name: string, columns: string[], refTable: string, refColumns: string[]) => ({
  name,
  columns,
  refTable,
  refColumns,
  onDelete: "RESTRICT",
  onUpdate: "NO ACTION",
});

const policy = (name: string, where: Json[], access: { roles?: string[]; scopes?: string[] } = {}) => ({
  name,
  roles: access.roles ?? [],
  scopes: access.scopes ?? [],
  where,
});
const cond = (
  table: string,
  columnName: string,
  operator: string,
  value: string,
  conjunction?: "AND" | "OR",
) => ({
  tableName: table,
  columnName,
  operator,
  value,
  ...(conjunction ? { conjunction } : {}),
});

/** The parts a case changes: the team's and the item's policies and columns, the foreign keys. */
interface Parts {
  teamPolicies?: Json[];
  itemPolicies?: Json[];
  teamIdColumn?: ColumnJson;
  foreignKeys?: Json[];
  join?: Partial<Join>;
  /** Joins before the team's (one it may reach through). */
  before?: Join[];
}

const TEAM_PIN = [policy("mine", [pin("team", "id", "teamId")])];
const ITEM_PIN = [policy("mine", [pin("item", "teamId", "teamId")])];

function schemaOf(parts: Parts): Json {
  return {
    database: [
      table(
        "team",
        [
          id(),
          column("orgId", "BIGINT"),
          column("code", "BIGINT", { isUnique: true }),
          column("name", "TEXT"),
          column("open", "BOOLEAN"),
        ],
        {
          policies: parts.teamPolicies ?? TEAM_PIN,
          // The composite foreign key's target.
          indexes: [uniqueIndex("team", ["id", "orgId"]), uniqueIndex("team", ["code"])],
        },
      ),
      // Another table a foreign key of the item's teamId may refer to.
      table("club", [id(), column("name", "TEXT")]),
      table(
        "item",
        [
          id(),
          parts.teamIdColumn ?? column("teamId", "BIGINT"),
          column("orgId", "BIGINT"),
          column("name", "TEXT"),
        ],
        {
          foreignKeys: parts.foreignKeys ?? [fk("item_team_fk", ["teamId"], "team", ["id"])],
          policies: parts.itemPolicies ?? ITEM_PIN,
        },
      ),
    ],
    endpoints: [],
    customTypes: [],
    globalParams: ["teamId", "orgId"],
    roles: ["admin"],
    scopes: ["read"],
  };
}

/** Whether the item's INNER join to its team is implied, and what the count's FROM and keys' FROM make of it. */
function implied(t: Test, parts: Parts): boolean {
  const loaded = loadSchema(schemaOf(parts));
  if (!loaded.schema) throw new Error(JSON.stringify(loaded.errors));
  const join: Join = {
    alias: "t",
    table: "team",
    type: "INNER",
    localColumnName: "teamId",
    foreignColumnName: "id",
    ...parts.join,
  };
  const q = compileQuery(
    {
      table: "item",
      joins: [...(parts.before ?? []), join],
      where: [],
      properties: [{ name: "name", selector: "item.name" }],
    },
    buildModel(loaded.schema),
    new Checks(),
    "",
  );
  const answer = joinImpliedByPolicies(join, q.scope);
  // The count's FROM leaves it out exactly when it is implied (a LEFT join: countFrom.test.ts);
  // the keys' FROM writes it LEFT.
  if (join.type === "INNER") {
    t.equal(/AS "t"/.test(q.plainCountFrom.toString()), !answer, "the count joins it unless implied");
    t.equal(q.countFrom.toString().includes(`AS "t"`), !answer, "the masked count likewise");
  }
  t.match(q.plainFrom.toString(), `${answer ? "LEFT" : join.type} JOIN "public"."team" AS "t"`);
  // A count under a filter keeps the join, masked, LEFT when implied.
  t.match(
    q.filteredCountFrom.toString(),
    new RegExp(`${answer ? "LEFT" : join.type} JOIN [^\\n]* AS "t" ON`),
  );
  return answer;
}

const open = (conjunction?: "AND" | "OR") => cond("team", "open", "IS", "TRUE", conjunction);
const named = (conjunction: "AND" | "OR") => cond("item", "name", "=", "'x'", conjunction);
const composite = fk("item_team_fk", ["teamId", "orgId"], "team", ["id", "orgId"]);
const team = (...policies: Json[]) => ({ teamPolicies: policies });
const item = (...policies: Json[]) => ({ itemPolicies: policies });

t.test("implied: each visible item's team is visible to the same caller", async (t) => {
  const cases: [Parts, string][] = [
    [{}, "the team's policy pins the column the item's policy pins"],
    [team(), "the team has no policies: every team is visible"],
    [team(policy("all", [])), "a policy without conditions shows every team"],
    [
      team(policy("mine_or_open", [pin("team", "id", "teamId"), open("OR")])),
      "one OR group of the team's is the pin",
    ],
    [
      item(policy("mine", [pin("item", "teamId", "teamId"), named("AND")], { roles: ["admin"] })),
      "the item's policy may ask more, and only of some roles",
    ],
    [
      {
        ...team(policy("org", [pin("team", "orgId", "orgId")])),
        ...item(policy("org", [pin("item", "orgId", "orgId")])),
        foreignKeys: [composite],
      },
      "a composite foreign key pairs the pinned columns",
    ],
  ];
  for (const [parts, why] of cases) t.ok(implied(t, parts), why);
});

t.test("not implied: without any one part of the proof the join may remove rows", async (t) => {
  const twin: Join = {
    alias: "twin",
    table: "item",
    type: "INNER",
    localColumnName: "id",
    foreignColumnName: "id",
  };
  const cases: [Parts, string][] = [
    [{ join: { type: "LEFT" } }, "a LEFT join is another rule (countFrom.test.ts)"],
    [{ join: { custom: `"t"."id" = "item"."teamId"` } }, "a raw ON"],
    [{ join: { foreignColumnName: "orgId" } }, "not on a unique key of the team"],
    [{ foreignKeys: [] }, "no foreign key: an item may name a team that is not there"],
    [
      { foreignKeys: [fk("item_club_fk", ["teamId"], "club", ["id"])] },
      "the foreign key refers to another table",
    ],
    [{ join: { foreignColumnName: "code" } }, "the join reads another unique column than the key refers to"],
    [
      { foreignKeys: [composite], join: { localColumnName: "orgId", foreignColumnName: "orgId" } },
      "a column of a composite key that is not unique alone: the join adds rows",
    ],
    [{ before: [twin], join: { localTableAlias: "twin" } }, "the join reaches through another join"],
    [
      team(policy("not_mine", [{ ...pin("team", "id", "teamId"), operator: "!=" }])),
      "the team's condition compares otherwise than equal",
    ],
    [
      { teamIdColumn: column("teamId", "BIGINT", { isNullable: true }) },
      "a nullable key column: the foreign key checks no row where it is NULL",
    ],
    [
      { foreignKeys: [composite], ...item(policy("org", [pin("item", "orgId", "orgId")])) },
      "the team's pin is on a column the item's policy does not pin",
    ],
    [team(policy("open", [open()])), "the team's policy asks what the item's does not imply"],
    [
      team(policy("mine_and_open", [pin("team", "id", "teamId"), open("AND")])),
      "the pin with more in its group",
    ],
    [
      team(policy("mine", [pin("team", "id", "teamId")], { roles: ["admin"] })),
      "the team's policy is for one role",
    ],
    [
      team(policy("mine", [pin("team", "id", "teamId")], { scopes: ["read"] })),
      "the team's policy asks a scope",
    ],
    [team(policy("org", [pin("team", "id", "orgId")])), "the team's policy pins another global"],
    [item(), "the item has no policies: every item is visible, not every team"],
    [item(...ITEM_PIN, policy("all", [])), "another policy shows every item"],
    [
      item(policy("mine_or_named", [pin("item", "teamId", "teamId"), named("OR")])),
      "an OR group without the pin",
    ],
    [{ teamIdColumn: column("teamId", "INTEGER") }, "the global cast to another type on each side"],
  ];
  for (const [parts, why] of cases) t.notOk(implied(t, parts), why);
});

// Over HTTP: an implied join left out changes no answer, and a join that is not implied still
// removes the rows it must, from the page and its total, by every path.
const PAGE = (path: string, join: Json) => ({
  ...standardRoute("GET", path, "item", ["id", "name"], {
    type: "PAGED",
    joins: [{ type: "INNER", localColumnName: "id", foreignColumnName: "id", ...join }],
  }),
  response: [
    { name: "id", selector: "item.id" },
    { name: "name", selector: "item.name" },
    { name: "other", selector: `${join.alias}.name` },
  ],
});

const httpSchema = {
  ...schemaOf({}),
  database: [
    table("team", [id(), column("name", "TEXT")], { policies: TEAM_PIN }),
    // Visible when open: not implied by anything the item's policy says.
    table("club", [id(), column("name", "TEXT"), column("open", "BOOLEAN")], {
      policies: [policy("open", [cond("club", "open", "IS", "TRUE")])],
    }),
    table("guild", [id(), column("name", "TEXT")]),
    table(
      "item",
      [
        id(),
        column("teamId", "BIGINT"),
        column("clubId", "BIGINT"),
        column("guildId", "BIGINT", { isNullable: true }),
        column("name", "TEXT"),
      ],
      {
        foreignKeys: [
          fk("item_team_fk", ["teamId"], "team", ["id"]),
          fk("item_club_fk", ["clubId"], "club", ["id"]),
          fk("item_guild_fk", ["guildId"], "guild", ["id"]),
        ],
        policies: ITEM_PIN,
      },
    ),
  ],
  endpoints: [
    {
      name: "V1",
      description: "",
      baseUrl: "/api/v1",
      routes: [
        PAGE("/item/team", { alias: "t", table: "team", localColumnName: "teamId" }),
        PAGE("/item/club", { alias: "c", table: "club", localColumnName: "clubId" }),
        PAGE("/item/guild", { alias: "g", table: "guild", localColumnName: "guildId" }),
      ],
    },
  ],
};

t.test("over HTTP the answers are the joins' answers", async (t) => {
  const app = scratchApp(t, httpSchema);
  const gw = await testGatewayForApp(
    t,
    app.dir,
    `INSERT INTO "team" ("id", "name") VALUES (1, 'one'), (2, 'two');
     INSERT INTO "club" ("id", "name", "open") VALUES (1, 'open', true), (2, 'closed', false);
     INSERT INTO "guild" ("id", "name") VALUES (1, 'guild');
     INSERT INTO "item" ("id", "teamId", "clubId", "guildId", "name") VALUES
       (1, 1, 1, 1, 'a'), (2, 1, 2, NULL, 'b'), (3, 1, 1, NULL, 'c'), (4, 2, 1, 1, 'd');`,
  );
  const text = async (route: string): Promise<string> =>
    (await gw.su.query(`SELECT pg_get_functiondef(format('api.%I', $1::text)::regproc) AS d`, [route]))
      .rows[0].d;
  t.match(
    await text("GET /api/v1/item/team"),
    `LEFT JOIN "public"."team" AS "t"`,
    "the implied join is LEFT",
  );
  t.notMatch(await text("GET /api/v1/item/club"), `LEFT JOIN "public"."club"`, "the others are not");
  t.notMatch(await text("GET /api/v1/item/guild"), `LEFT JOIN "public"."guild"`);
  const expected: Record<string, { ids: number[]; other: string[] }> = {
    // Item 4 is another team's: row security on the item hides it, the join decides nothing.
    "/item/team": { ids: [1, 2, 3], other: ["one", "one", "one"] },
    // Item 2's club is closed: the caller cannot see it, so the INNER join removes the item.
    "/item/club": { ids: [1, 3], other: ["open", "open"] },
    // Items 2 and 3 have no guild.
    "/item/guild": { ids: [1], other: ["guild"] },
  };
  for (const [path, want] of Object.entries(expected)) {
    // The first page, a filtered and sorted one (keys chosen by a query text), a cursor's first
    // page (a query text counted under the cursor's where).
    for (const query of ["", "?filter=(name,ne,zzz)&sortBy=name&sortOrder=ASC", "?after="]) {
      const res = await gw.request({
        method: "GET",
        url: `/api/v1${path}${query}`,
        as: { role: "admin", teamId: 1 },
      });
      t.equal(res.statusCode, 200, `${path}${query}`);
      const body = res.json() as { data: { id: number; other: string }[]; total: number };
      t.same(
        { ids: body.data.map((r) => r.id), other: body.data.map((r) => r.other), total: body.total },
        { ...want, total: want.ids.length },
        `${path}${query}: its rows and total`,
      );
    }
  }
});
