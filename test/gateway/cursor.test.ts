// Cursors the gateway decodes for the route function's fast path (gateway/routes/cursor.ts,
// generator/routes/kinds/pagedKeyset.ts keysetFastPath): only what Postgres would decode to the
// same JSON, of the own order's shape, is decoded; and through the gateway, on real Postgres, the
// answers are the bytes the function gives when it decodes the cursor itself, with `$after` sent.

import path from "node:path";
import t from "tap";
import type { AuthResult } from "../../gateway/auth/types.ts";
import type { ApiError } from "../../gateway/errors.ts";
import { decodedCursor } from "../../gateway/routes/cursor.ts";
import type { RouteRequest } from "../../gateway/routes/standard.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { testGateway } from "../harness/gateway.ts";
import { EXAMPLE_DIR, recordingRunner, routeBothWays } from "./helpers.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

t.test("what the gateway decodes", async (t) => {
  // As Postgres writes it (json_build_object's spacing), from docs/query-language.md.
  t.equal(
    decodedCursor("eyJzIiA6ICIiLCAibyIgOiAiQVNDIiwgImsiIDogWzJdfQ", 1),
    '{"s" : "", "o" : "ASC", "k" : [2]}',
  );
  t.equal(decodedCursor("", 1), "", "the first page");
  const big = '{"s":"","o":"ASC","k":[9007199254740993]}';
  t.equal(decodedCursor(b64(big), 1), big, "the text itself: a bigint past 2^53 keeps its digits");
  t.equal(decodedCursor(b64('{"s":"","o":"ASC","k":["a",2]}'), 2), '{"s":"","o":"ASC","k":["a",2]}');
  const refused: [string, unknown][] = [
    ["another number of keys", b64('{"s":"","o":"ASC","k":[1,2]}')],
    ["another sortBy", b64('{"s":"name","o":"ASC","k":[1]}')],
    ["no sortBy", b64('{"o":"ASC","k":[1]}')],
    ["another sortOrder", b64('{"s":"","o":"DESC","k":[1]}')],
    ["keys not an array", b64('{"s":"","o":"ASC","k":1}')],
    ["not an object", b64("[1]")],
    ["null", b64("null")],
    ["not JSON", b64("{s:''}")],
    ["an escape (\\u0000 is no jsonb)", b64('{"s":"","o":"ASC","k":["\\u0000"]}')],
    ["not UTF-8", Buffer.from([0x7b, 0xff, 0x7d]).toString("base64url")],
    ["characters base64url lacks", "eyJz+/"],
    ["padding", `${b64('{"s":"","o":"ASC","k":[1]}')}=`],
    ["a lone last character", `${b64('{"s":"","o":"ASC","k":[1]}')}A`.slice(0, 41)],
    ["not a string", 5],
  ];
  for (const [why, after] of refused) t.equal(decodedCursor(after, 1), undefined, why);
});

type Outcome = { status: number; headers: Record<string, string>; body: string } | { error: string };

const auth = (role: string, globals: Record<string, number>): AuthResult =>
  ({ user: { role, scopes: [], globals } }) as AuthResult;

for (const app of [
  {
    template: "tpl_restura" as const,
    dir: path.dirname(RESTURA_FIXTURE),
    route: "GET /api/v1/user/paged",
    as: auth("user", { companyId: 1, userId: 2 }),
    // No row policy, table or column rule reads the caller: the gateway sends the page itself
    // (gateway/routes/keysetStatement.ts).
    own: true,
  },
  {
    template: "tpl_example" as const,
    dir: EXAMPLE_DIR,
    route: "GET /api/v1/project",
    as: auth("admin", { companyId: 1, userId: 1 }),
    own: false,
  },
]) {
  t.test(
    `${app.template}: cursor pages through the gateway answer as the function decoding them`,
    async (t) => {
      const gw = await testGateway(t, app.template);
      // Without the model the gateway decodes nothing: the function's general path answers.
      const { functionOnly: general, asServed: fast } = routeBothWays(app.dir, app.route);
      const sent: unknown[][] = [];
      const texts: string[] = [];
      const db = recordingRunner(gw.pool, (config) => {
        sent.push(config.values ?? []);
        texts.push(config.text);
      });
      const run = async (route: typeof fast, qs: string, prefer?: string): Promise<Outcome> => {
        const request: RouteRequest = {
          query: Object.fromEntries(new URLSearchParams(qs)),
          params: {},
          body: undefined,
          ...(prefer ? { headers: { prefer } } : {}),
        };
        try {
          return await route(db, app.as, request);
        } catch (error) {
          const e = error as ApiError;
          return { error: `${e.code}: ${e.message}` };
        }
      };
      for (const prefer of [undefined, "count=planned"]) {
        let after = "";
        let pages = 0;
        for (; pages < 5; pages++) {
          const qs = `perPage=1&after=${encodeURIComponent(after)}`;
          const expected = await run(general, qs, prefer);
          sent.length = 0;
          texts.length = 0;
          const got = await run(fast, qs, prefer);
          t.same(got, expected, `${prefer ?? "exact"}: ${qs}`);
          const values = sent[0] ?? [];
          if (app.own) {
            // Bound as $4 (NULL on the first page); the request and the caller, which the page's
            // text does not read, as NULL (gateway/routes/unreadValues.ts).
            t.same(values.slice(0, 2), [null, null], `${qs}: no request or caller bound unread`);
            t.equal(values[3] === null, after === "", `${qs}: the cursor bound decoded`);
          } else t.match(String(values[0]), /"\$after":/, `${qs}: the gateway sent the cursor decoded`);
          t.equal(
            /^SELECT "api"\."GET /.test(texts[0] ?? ""),
            !app.own,
            `${qs}: ${app.own ? "the gateway's own statement" : "the route function"}`,
          );
          if (!("body" in got)) break;
          const next = (JSON.parse(got.body) as { next?: string | null }).next;
          if (typeof next !== "string") break;
          after = next;
        }
        t.ok(pages >= 2, `${pages + 1} pages walked`);
      }
      // The page's size and the cursor as the gateway's own statement binds them ($3, $4), the
      // order its `next` names written in: the default size, a lowercase `asc` (the function's
      // cursor says ASC), a page past the last row (no `next`), each from the first page and
      // from a cursor, in both count modes.
      const second = await run(general, "perPage=1&after=");
      const cursor = "body" in second ? (JSON.parse(second.body) as { next: string }).next : "";
      t.type(cursor, "string", "a cursor after the first row");
      for (const prefer of [undefined, "count=planned"]) {
        for (const from of ["", cursor]) {
          for (const rest of ["", "&sortOrder=asc&perPage=2", "&perPage=100", "&sortOrder=ASC&perPage=1"]) {
            const qs = `after=${encodeURIComponent(from)}${rest}`;
            texts.length = 0;
            const got = await run(fast, qs, prefer);
            t.ok("body" in got, `${qs}: answered`);
            t.same(got, await run(general, qs, prefer), `${prefer ?? "exact"}: ${qs}`);
            t.equal(/^SELECT "api"\."GET /.test(texts[0] ?? ""), !app.own, `${qs}: the statement`);
          }
        }
      }
      const last = await run(fast, "perPage=100&after=");
      t.match("body" in last ? last.body : "", /"next" : null/, "a page that is not full has no next cursor");
      // Requests the fast path does not take: the same answer or refusal.
      for (const qs of ["after=&page=2", "after=xyz", "after=&sortOrder=DESC", "after=&sortBy=id"]) {
        t.same(await run(fast, qs), await run(general, qs), qs);
      }
    },
  );
}
