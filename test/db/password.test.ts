// The embedded cluster's superuser password is random, made at initdb and kept beside the data
// directory with mode 0600; the old fixed postgres/postgres no longer lets anyone in.

import fs from "node:fs";
import t from "tap";
import { withClient } from "../../db/databases.ts";
import { startEmbedded } from "../../db/postgres.ts";
import { scratchDataDir, whoAmI } from "../harness/cluster.ts";

const withPassword = (url: string, password: string) => {
  const u = new URL(url);
  u.password = password;
  return u.toString();
};

t.test("a new cluster's password is random, stored 0600, and postgres:postgres is refused", async (t) => {
  const dataDir = scratchDataDir(t);
  const server = await startEmbedded({ dataDir, throwaway: true });
  t.teardown(() => server.stop());
  const file = `${dataDir}.password`;
  const stored = fs.readFileSync(file, "utf8").trim();
  t.equal(fs.statSync(file).mode & 0o777, 0o600, "only its owner reads the password file");
  t.match(stored, /^[0-9a-f]{48}$/, "192 random bits");
  t.equal(decodeURIComponent(new URL(server.url).password), stored, "the URL carries the stored password");
  t.equal(await whoAmI(server.url), "postgres");

  await t.rejects(whoAmI(withPassword(server.url, "postgres")), { code: "28P01" }, "TCP, old password");
  const socketDir = fs.realpathSync(dataDir);
  const port = Number(new URL(server.url).port);
  const overSocket = { host: socketDir, port, user: "postgres", database: "postgres" };
  await t.rejects(whoAmI({ ...overSocket, password: "postgres" }), { code: "28P01" }, "socket, old password");
  t.equal(await whoAmI({ ...overSocket, password: stored }), "postgres", "socket, stored password");

  const runner = process.env.TEST_PG_URL;
  if (runner && !process.env.DATABASE_URL) {
    const password = decodeURIComponent(new URL(runner).password);
    t.match(password, /^[0-9a-f]{48}$/, "the test runner's throwaway cluster has a random password too");
    t.not(password, stored, "each cluster gets its own");
  }
});

t.test("a cluster made with the old fixed password gets a random one at its next start", async (t) => {
  const dataDir = scratchDataDir(t);
  const first = await startEmbedded({ dataDir });
  await whoAmI(first.url);
  await withClient(first.url, (c) => c.query(`ALTER ROLE postgres WITH PASSWORD 'postgres'`));
  await first.stop();
  fs.rmSync(`${dataDir}.password`);

  const second = await startEmbedded({ dataDir });
  t.teardown(() => second.stop());
  const stored = fs.readFileSync(`${dataDir}.password`, "utf8").trim();
  t.match(stored, /^[0-9a-f]{48}$/);
  t.equal(fs.statSync(`${dataDir}.password`).mode & 0o777, 0o600);
  t.equal(await whoAmI(second.url), "postgres");
  await t.rejects(whoAmI(withPassword(second.url, "postgres")), { code: "28P01" });
});
