import t from "tap";
import {
  exact,
  RESTURA_FIXTURE,
  RESTURA_SEED,
  readExpected,
  replayExpected,
  routeDatabase,
} from "./helpers.ts";

const cases = readExpected("restura");

t.test("Restura fixture", async (t) => {
  const db = await routeDatabase(t, {
    schemaFile: RESTURA_FIXTURE,
    template: "tpl_restura",
    seed: RESTURA_SEED,
  });

  replayExpected(t, db, cases);

  t.test("the custom join compares $date with a timestamptz column", async (t) => {
    const ctx = { role: "user", scopes: ["read:user"] };
    const at = (date: string) => db.body("GET /api/v1/user/before", { date }, ctx);
    exact(t, await at("2024-01-01"), { data: [] });
    exact(t, await at("2024-01-02T10:00:00.000001Z"), {
      data: [{ id: 1, firstName: "Bill", lastName: "Lumbergh", companyName: "Initech" }],
    });
  });
});
