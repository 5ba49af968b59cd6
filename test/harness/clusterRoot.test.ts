// The sweep of test clusters that killed runs left behind (clusterRoot.ts): it removes a dead
// cluster's directory and its companion files, and keeps every directory a live postmaster runs
// on (the runner's own cluster lends its postmaster.pid), a fresh one, and anything not named
// like a test cluster.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import t from "tap";
import { sweepStaleClusters } from "./clusterRoot.ts";
import { connect, serverUrl } from "./db.ts";

const HOUR_AGO = (Date.now() - 3_600_000) / 1000;

t.test("sweepStaleClusters", async (t) => {
  const client = await connect(t, serverUrl());
  const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
  const dataDir = rows[0]?.dir as string;
  const pidFile = path.join(dataDir, "postmaster.pid");
  // DATABASE_URL may name a server elsewhere: then no live postmaster.pid is at hand.
  if (!fs.existsSync(pidFile)) {
    t.plan(0, "the cluster's files are not on this machine");
    return;
  }
  const livePid = fs.readFileSync(pidFile, "utf8");
  // A pid that named a process and names none now.
  const deadPid = livePid.replace(/^\d+/, String(spawnSync("true").pid));

  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-"));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  const make = (name: string, pidFile?: string, { old = true } = {}) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    if (pidFile !== undefined) fs.writeFileSync(path.join(dir, "postmaster.pid"), pidFile);
    if (old) fs.utimesSync(dir, HOUR_AGO, HOUR_AGO);
    return dir;
  };
  const companion = (name: string) => {
    const file = path.join(root, name);
    fs.writeFileSync(file, "x");
    fs.utimesSync(file, HOUR_AGO, HOUR_AGO);
  };

  make("api-test-pg-dead", deadPid);
  companion("api-test-pg-dead.password");
  companion("api-test-pg-dead.log");
  make("api-test-pg-realtime-nopid");
  make("api-test-pg-live", livePid);
  make("api-replica-live");
  make(path.join("api-replica-live", "data"), livePid, { old: false });
  fs.utimesSync(path.join(root, "api-replica-live"), HOUR_AGO, HOUR_AGO);
  make("api-replica-dead");
  make(path.join("api-replica-dead", "data"), deadPid, { old: false });
  fs.utimesSync(path.join(root, "api-replica-dead"), HOUR_AGO, HOUR_AGO);
  make("api-test-pg-fresh", deadPid, { old: false });
  make("someone-else", deadPid);

  const removed = sweepStaleClusters(root).sort();
  t.same(removed, [
    "api-replica-dead",
    "api-test-pg-dead",
    "api-test-pg-dead.log",
    "api-test-pg-dead.password",
    "api-test-pg-realtime-nopid",
  ]);
  t.same(fs.readdirSync(root).sort(), [
    "api-replica-live",
    "api-test-pg-fresh",
    "api-test-pg-live",
    "someone-else",
  ]);
  t.ok(
    fs.existsSync(path.join(root, "api-replica-live", "data", "postmaster.pid")),
    "a live pair keeps its files",
  );
});
