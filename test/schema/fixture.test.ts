import fs from "node:fs";
import t from "tap";
import { loadSchema } from "../../generator/schema/index.ts";
import type { CustomRoute, StandardRoute } from "../../generator/schema/types.ts";
import { RESTURA_FIXTURE } from "../harness/fixtures.ts";
import { err, type Raw } from "./fixtures.ts";

const raw = (): Raw => JSON.parse(fs.readFileSync(RESTURA_FIXTURE, "utf8"));

t.test("the Restura example loads unchanged, with zero errors and the expected warnings", async (t) => {
  const r = loadSchema(raw());
  t.same(r.errors, []);
  const undeclared = (route: number) =>
    ["athlete", "fan", "recruiter"].map((role, i) =>
      err(`endpoints[0].routes[${route}].roles[${i + 1}]`, `role "${role}" is not declared in roles`),
    );
  t.same(r.warnings, [
    ...undeclared(10),
    ...undeclared(11),
    err(
      "endpoints[0].routes[19].where[0].value",
      "bare word \"bill\" is read as the text 'bill'; quote it to say so",
    ),
  ]);
  t.ok(r.schema);
});

t.test("the Restura example is normalised", async (t) => {
  const schema = loadSchema(raw()).schema;
  if (!schema) throw new Error("no schema");
  t.equal(schema.database.length, 4);
  const user = schema.database.find((x) => x.name === "user");
  t.same(user?.foreignKeys, [
    {
      name: "user_companyId_company_id_fk",
      columns: ["companyId"],
      refTable: "company",
      refColumns: ["id"],
      onDelete: "NO ACTION",
      onUpdate: "NO ACTION",
    },
  ]);
  t.same(user?.indexes[0], {
    name: "PRIMARY",
    columns: [{ column: "id" }],
    isUnique: true,
    isPrimaryKey: true,
    order: "ASC",
  });
  t.same(user?.notify, ["id", "firstName", "lastName", "email", "phone"]);
  t.same(user?.policies, []);
  t.same(
    user?.columns.find((c) => c.name === "accountStatus"),
    {
      name: "accountStatus",
      type: "ENUM",
      isNullable: false,
      roles: [],
      scopes: [],
      value: "'banned','view_only','active'",
      default: "'view_only'",
    },
  );
  t.same(schema.extensions, []);
  t.equal(schema.customTypes.length, 4);
  const routes = schema.endpoints[0]?.routes ?? [];
  const avatar = routes[0] as CustomRoute;
  t.same(avatar, {
    name: "/user/me/avatar",
    description: "Uploading a users avatar and updating the user",
    method: "POST",
    path: "/user/me/avatar",
    roles: ["admin", "user"],
    scopes: [],
    request: [],
    type: "CUSTOM_ONE",
    responseType: "boolean",
    fileUploadType: "SINGLE",
  });
  const like = routes[19] as StandardRoute;
  t.same(like.where, [{ tableName: "user", columnName: "firstName", operator: "NOT LIKE", value: "'bill'" }]);
  const counts = routes[22] as StandardRoute;
  t.same(counts.response[2], {
    name: "orderCount",
    selector: '(SELECT COUNT(*) FROM "order"                 WHERE "order"."userId" = "user"."id")',
    type: "number",
  });
  const deprecated = routes.find((x) => x.name === "Get My User (Deprecated)");
  t.same(deprecated?.deprecation, {
    date: "2025-12-22T20:50:59.010Z",
    message: "This endpoint is deprecated. Please use /user/me instead.",
  });
});

t.test("many problems are reported at once, sorted by path", async (t) => {
  const s = raw();
  s.database[0].columns[0].isNulable = false;
  s.database[1].columns[5].type = "DECIMEL";
  s.database[3].foreignKeys[0].refTable = "compnay";
  s.endpoints[0].routes[1].where[0].columnName = "emial";
  s.endpoints[0].routes[2].responseType = "AuthRespnse";
  s.endpoints[0].routes[20].joins[1].localTableAlias = "userId_usr";
  s.endpoints[0].routes[21].joins[0].custom += " AND #tenant = 1";
  const r = loadSchema(s);
  t.same(
    r.errors.map((e) => e.path),
    [
      "database[0].columns[0].isNulable",
      "database[1].columns[5].type",
      "database[3].foreignKeys[0].refTable",
      "endpoints[0].routes[1].where[0].columnName",
      "endpoints[0].routes[2].responseType",
      "endpoints[0].routes[20].joins[1].localTableAlias",
      "endpoints[0].routes[21].joins[0].custom",
    ],
  );
  t.same(
    r.errors[3],
    err(
      "endpoints[0].routes[1].where[0].columnName",
      'table "user" has no column "emial" (did you mean "email"?)',
    ),
  );
  t.equal(r.schema, undefined);
});

t.test("loading is deterministic", async (t) => {
  const s = raw();
  s.endpoints[0].routes[1].where[0].columnName = "emial";
  s.database[0].columns[0].type = "nope";
  t.same(loadSchema(s), loadSchema(JSON.parse(JSON.stringify(s))));
  t.equal(JSON.stringify(loadSchema(raw())), JSON.stringify(loadSchema(raw())));
});
