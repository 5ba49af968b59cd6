// Tenant isolation over HTTP. The seed has two companies (Acme 1, Globex 2). For every GET
// standard route of the example app, for callers of both companies, and on the paged route for
// filters that name the other company's rows (by name, by id, with `or` and `!` tricks), for sorts
// on every sortable column and for pages past the end:
// - no id of the other company's rows appears (ids of each table and every foreign key, checked
//   against a superuser query), and no text value found only in the other company's rows;
// - no hidden column appears: every object has exactly the keys the permission oracle allows, and
//   no value of a column hidden from the caller (password hashes, billing e-mail, last login);
// - ONE routes asked for the other company's ids answer 404.
// Requests the gateway refuses (400 for a filter on an unknown column, 422) are fine: they show
// nothing.

import type pg from "pg";
import t, { type Test } from "tap";
import type { ResponseProperty, StandardRoute, Table } from "../../generator/schema/types.ts";
import { testGateway } from "../harness/gateway.ts";
import {
  type Caller,
  expectFor,
  type GetRoute,
  getStandardRoutes,
  loadExampleSchema,
  rowsOf,
  sampleUrl,
  shapeProblems,
  USERS,
  urlFor,
} from "./helpers.ts";

const schema = loadExampleSchema();
const routes = getStandardRoutes(schema);
const tables = new Map(schema.database.map((x) => [x.name, x]));

/** Callers with the scopes their seeded users are granted (example/README.md). */
const CALLERS: { label: string; who: Caller; own: number; other: number }[] = [
  {
    label: "admin of 1",
    who: { ...USERS.admin1, scopes: ["billing:read", "tasks:write"] },
    own: 1,
    other: 2,
  },
  { label: "manager of 1", who: { ...USERS.manager1, scopes: ["tasks:write"] }, own: 1, other: 2 },
  { label: "member of 1", who: { ...USERS.member1, scopes: ["tasks:write"] }, own: 1, other: 2 },
  {
    label: "admin of 2",
    who: { ...USERS.admin2, scopes: ["billing:read", "tasks:write"] },
    own: 2,
    other: 1,
  },
  {
    label: "manager of 2",
    who: { ...USERS.manager2, scopes: ["billing:read", "tasks:write"] },
    own: 2,
    other: 1,
  },
  { label: "member of 2", who: { ...USERS.member2, scopes: [] }, own: 2, other: 1 },
];

/** The SQL that lists a table's rows of one company ($1), as `to_jsonb` objects, or null. */
function companyRowsSql(table: Table): string | null {
  const names = table.columns.map((c) => c.name);
  const q = (n: string) => `"${n.replaceAll('"', '""')}"`;
  if (table.name === "company") return `SELECT to_jsonb(x) AS row FROM public.company x WHERE x.id = $1`;
  if (names.includes("companyId")) {
    return `SELECT to_jsonb(x) AS row FROM public.${q(table.name)} x WHERE x."companyId" = $1`;
  }
  if (names.includes("taskId")) {
    return `SELECT to_jsonb(x) AS row FROM public.${q(table.name)} x
            JOIN public.task t ON t.id = x."taskId" WHERE t."companyId" = $1`;
  }
  return null;
}

interface CompanyData {
  /** Table -> primary key ids of the company's rows. */
  ids: Map<string, Set<number>>;
  /** Every string value in the company's rows (JSON columns too). */
  strings: Set<string>;
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, into);
  else if (value && typeof value === "object") for (const v of Object.values(value)) collectStrings(v, into);
}

async function companyData(su: pg.Client, company: number): Promise<CompanyData> {
  const data: CompanyData = { ids: new Map(), strings: new Set() };
  for (const table of schema.database) {
    const sql = companyRowsSql(table);
    if (sql === null) throw new Error(`table ${table.name}: no way to tell its company`);
    const { rows } = await su.query<{ row: Record<string, unknown> }>(sql, [company]);
    if (table.columns.some((c) => c.name === "id")) {
      data.ids.set(table.name, new Set(rows.map((r) => Number(r.row.id))));
    }
    for (const r of rows) collectStrings(r.row, data.strings);
  }
  return data;
}

/** Key -> table whose ids its values are (the table's `id`, or the table a foreign key points at). */
interface IdTree {
  ids: Record<string, string>;
  nested: Record<string, IdTree>;
}

function idTree(base: string, joins: StandardRoute["joins"], props: ResponseProperty[]): IdTree {
  const scope = new Map([[base, base], ...joins.map((j) => [j.alias, j.table] as const)]);
  const tree: IdTree = { ids: {}, nested: {} };
  for (const p of props) {
    if (p.subquery) {
      tree.nested[p.name] = idTree(p.subquery.table, p.subquery.joins, p.subquery.properties);
      continue;
    }
    const m = p.selector ? /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/.exec(p.selector) : null;
    const table = m ? tables.get(scope.get(m[1] as string) ?? "") : undefined;
    if (!m || !table) continue;
    if (m[2] === "id") tree.ids[p.name] = table.name;
    const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === m[2]);
    if (fk) tree.ids[p.name] = fk.refTable;
  }
  return tree;
}

/** Ids of the other company found in the objects, as messages. */
function foreignIds(objects: Record<string, unknown>[], tree: IdTree, other: CompanyData, at = ""): string[] {
  const found: string[] = [];
  for (const o of objects) {
    for (const [key, table] of Object.entries(tree.ids)) {
      const v = o[key];
      if (typeof v === "number" && other.ids.get(table)?.has(v)) found.push(`${at}${key} = ${v} (${table})`);
    }
    for (const [key, inner] of Object.entries(tree.nested)) {
      if (Array.isArray(o[key]))
        found.push(...foreignIds(o[key] as Record<string, unknown>[], inner, other, `${at}${key}.`));
    }
  }
  return found;
}

t.test("tenant isolation", async (t) => {
  const gw = await testGateway(t, "tpl_example");
  await gw.su.query("SET TIME ZONE 'UTC'"); // to_jsonb writes timestamps as the API does
  const companies = new Map([
    [1, await companyData(gw.su, 1)],
    [2, await companyData(gw.su, 2)],
  ]);
  t.ok((companies.get(2)?.ids.get("project")?.size ?? 0) > 0, "company 2 has projects to leak");

  /** Values of columns hidden from a caller (docs/permissions.md), read as superuser. */
  const secrets = async (who: Caller): Promise<string[]> => {
    const out: string[] = [];
    const { rows: users } = await gw.su.query<{ passwordHash: string; lastLoginOn: string | null }>(
      `SELECT "passwordHash", to_jsonb("lastLoginOn") #>> '{}' AS "lastLoginOn" FROM public."user"`,
    );
    for (const u of users) {
      out.push(u.passwordHash);
      if (who.role !== "admin" && u.lastLoginOn) out.push(u.lastLoginOn);
    }
    if (!who.scopes.includes("billing:read")) {
      const { rows } = await gw.su.query<{ billingEmail: string }>(
        `SELECT "billingEmail" FROM public.company`,
      );
      out.push(...rows.map((r) => r.billingEmail));
    }
    return out;
  };

  for (const c of CALLERS) {
    const own = companies.get(c.own) as CompanyData;
    const other = companies.get(c.other) as CompanyData;
    /** Strings only the other company's rows hold. */
    const otherOnly = new Set([...other.strings].filter((s) => !own.strings.has(s)));
    const hidden = await secrets(c.who);

    t.test(c.label, async (t) => {
      /** A request must show nothing of the other company and no hidden column. */
      const check = async (t: Test, r: GetRoute, url: string, allowForeign = false) => {
        const res = await gw.request({ method: "GET", url, as: c.who });
        const label = url.replace(/^\/api\/v1/, "");
        t.not(res.statusCode, 500, `${label}: no 500`);
        const body = JSON.parse(res.body) as Record<string, unknown>;
        if (res.statusCode !== 200) {
          t.ok([400, 401, 403, 404, 422].includes(res.statusCode), `${label}: ${res.statusCode}`);
          t.type((body.error as { code?: unknown })?.code, "string", `${label}: error envelope`);
          t.notOk("data" in body, `${label}: no data with an error`);
          return { status: res.statusCode, rows: [] as Record<string, unknown>[], body };
        }
        const rows = rowsOf(body);
        const expected = expectFor(schema, r.route, c.who);
        if (expected.status === 200) {
          t.same(shapeProblems(rows, expected.shape), [], `${label}: exactly the visible keys`);
        } else t.fail(`${label}: 200, but the oracle says ${expected.status}`);
        if (!allowForeign) {
          t.same(
            foreignIds(rows, idTree(r.route.table, r.route.joins, r.route.response), other),
            [],
            `${label}: no id of company ${c.other}`,
          );
          const strings = new Set<string>();
          collectStrings(body, strings);
          t.same(
            [...strings].filter((s) => otherOnly.has(s)),
            [],
            `${label}: no text of company ${c.other}`,
          );
        }
        t.same(
          hidden.filter((s) => res.body.includes(JSON.stringify(s).slice(1, -1))),
          [],
          `${label}: no value of a hidden column`,
        );
        return { status: 200, rows, body };
      };

      /** Filters, sorts and pages on a PAGED route. */
      const pagedChecks = async (t: Test, r: GetRoute) => {
        const ownIds = own.ids.get(r.route.table) ?? new Set<number>();
        const otherIds = [...(other.ids.get(r.route.table) ?? [])];
        const otherName = c.other === 1 ? "Acme Robotics" : "Globex Logistics";
        const q = (params: Record<string, string>) => `${r.fullPath}?${new URLSearchParams(params)}`;

        const plain = await check(t, r, q({ perPage: "100" }));
        t.equal(plain.body.total, ownIds.size, `total: the ${ownIds.size} rows of company ${c.own}`);
        t.same(new Set(plain.rows.map((x) => x.id)), ownIds, "exactly the own company's rows");

        const filters = [
          `(companyId,eq,${c.other})`,
          `(company.id,eq,${c.other})`,
          `(companyId_company.id,eq,${c.other})`,
          `(companyName,eq,"${otherName}")`,
          `(companyId_company.name,eq,"${otherName}")`,
          `(company.name,has,${otherName.slice(0, 4)})`,
          `!(companyName,eq,"${c.own === 1 ? "Acme Robotics" : "Globex Logistics"}")`,
          "(name,eq,Website Redesign)",
          "(name,eq,Fleet Telematics)",
          "(name,has,e)",
          `(id,in,${[...ownIds, ...otherIds].join("|")})`,
          ...otherIds.map((id) => `(id,eq,${id})`),
          `${otherIds.map((id) => `(id,eq,${id})`).join("or")}or(id,gte,0)`,
          `(id,gte,0)or(id,lt,0)`,
          "!(id,eq,0)",
          "((id,eq,4)or(name,ne,x))and!(status,eq,nothing)",
          "(status,eq,completed)",
          "(status,in,active|planning|archived|completed)",
          "(ownerFirstName,eq,Gus)",
          "(ownerId_user.firstName,sw,G)",
          "(ownerLastName,notnull)or(ownerLastName,null)",
          "(budget,gt,0)",
          "(budget,null)or(budget,notnull)",
          "(project.settings.integrations,notnull)",
          "(createdOn,gte,2000-01-01)",
          "(dueDate,null)or(dueDate,notnull)",
          "(project.companyId,eq,2)",
          "(user.companyId,eq,2)",
        ];
        for (const filter of filters) {
          const res = await check(t, r, q({ filter, perPage: "100" }));
          if (res.status === 200) {
            t.ok((res.body.total as number) <= ownIds.size, `${filter}: total counts own rows only`);
          }
        }

        const sortable = r.route.response.filter((p) => !p.subquery).map((p) => p.name);
        for (const sortBy of [...sortable, "project.id", "companyId_company.name", "ownerId_user.lastName"]) {
          for (const sortOrder of ["ASC", "DESC", "NONE", "RAND"]) {
            const res = await check(t, r, q({ sortBy, sortOrder, perPage: "100" }));
            if (res.status === 200)
              t.equal(res.body.total, ownIds.size, `sortBy ${sortBy} ${sortOrder}: total`);
          }
        }

        // Page by page with one row per page, then past the end.
        const seen: unknown[] = [];
        for (let page = 1; page <= ownIds.size + 2; page++) {
          const res = await check(t, r, q({ page: String(page), perPage: "1", sortBy: "id" }));
          seen.push(...res.rows.map((x) => x.id));
          t.equal(res.body.total, ownIds.size, `page ${page}: total`);
        }
        t.same(new Set(seen), ownIds, "pages hold exactly the own rows, each once");
        t.equal(seen.length, ownIds.size, "no row twice");
        for (const page of ["50", "1000000"]) {
          const res = await check(t, r, q({ page, perPage: "100" }));
          t.same(res.rows, [], `page ${page}: empty`);
          t.equal(res.body.total, ownIds.size, `page ${page}: total still counts own rows only`);
        }
      };

      for (const r of routes) {
        const expected = expectFor(schema, r.route, c.who);
        t.test(r.name, async (t) => {
          if (expected.status !== 200) {
            const res = await gw.request({ method: "GET", url: sampleUrl(r), as: c.who });
            t.equal(res.statusCode, expected.status, `refused: ${expected.status}`);
            return;
          }
          const params = r.fullPath.includes("/:");
          if (!params) {
            await check(t, r, sampleUrl(r));
          } else if (r.route.table === "company") {
            // The public directory: company 1 is listed, so everyone may see its profile; the other
            // company (2, not listed) is a 404 for everyone, company 2's own users included.
            const one = await check(t, r, urlFor(r.fullPath, { id: "1" }), true);
            t.equal(one.status, 200, "listed company 1: 200");
            const two = await gw.request({ method: "GET", url: urlFor(r.fullPath, { id: "2" }), as: c.who });
            t.equal(two.statusCode, 404, "unlisted company 2: 404");
          } else {
            // ONE by id: each own id answers, each id of the other company is a 404.
            const ownIds = [...(own.ids.get(r.route.table) ?? [])];
            const otherIds = [...(other.ids.get(r.route.table) ?? [])];
            t.ok(ownIds.length > 0 && otherIds.length > 0, "ids of both companies to try");
            for (const id of ownIds) {
              const res = await check(t, r, urlFor(r.fullPath, { id: String(id) }));
              t.equal(res.status, 200, `own ${r.route.table} ${id}: 200`);
            }
            for (const id of otherIds) {
              const res = await gw.request({
                method: "GET",
                url: urlFor(r.fullPath, { id: String(id) }),
                as: c.who,
              });
              t.equal(res.statusCode, 404, `other company's ${r.route.table} ${id}: 404`);
              t.same(
                JSON.parse(res.body),
                { error: { code: "NOT_FOUND", message: `No ${r.route.table} matches the request` } },
                "the usual not-found answer: nothing says the row exists",
              );
            }
          }

          // Routes with a search parameter: values that match the other company's rows.
          const searches: Record<string, string[]> = {
            "GET /api/v1/user/search": ["G", "g", "Gr", "greta", "gus", "gina", "Gruber", "a", "M", "%", "_"],
            "GET /api/v1/task/search": [
              "GPS",
              "footer",
              "trucks",
              "homepage",
              "Negotiate",
              "ar",
              "in",
              "%",
              "__",
            ],
            "GET /api/v1/task/by-priority": ["urgent", "high", "medium", "low"],
          };
          for (const value of searches[r.name] ?? []) {
            const name = r.route.request[0]?.name as string;
            await check(t, r, `${r.fullPath}?${new URLSearchParams({ [name]: value })}`);
          }

          if (r.route.type === "PAGED") await pagedChecks(t, r);
        });
      }
    });
  }
});
