// The realtime client (client/realtime.ts) against the real gateway over real WebSockets:
// authentication by the first message, events by callback and by async iterator, reconnects
// through a TCP relay the test cuts (a network failure the server did not choose) that resume
// each subscription with `since` (nothing lost, nothing duplicated, in order), exponential
// backoff while the server is unreachable, a refused subscription, and token renewal.

import t from "tap";
import type { RealtimeEvent } from "../../client/realtime.ts";
import { token } from "../harness/gateway.ts";
import {
  exampleDatabase,
  insertTasks,
  liveGateway,
  nodeClient,
  relay,
  sleep,
  until,
} from "./systemHarness.ts";

const ACME_MEMBER = { role: "member", userId: 3, companyId: 1, scopes: ["tasks:write"] };

t.test("realtime client over the real gateway", async (t) => {
  const { url, su } = await exampleDatabase(t);
  const gw = await liveGateway(t, url);

  t.test("auth message, then events by callback and by iterator", async (t) => {
    const client = nodeClient(t, { url: gw.ws, token: token(ACME_MEMBER) });
    const seen: RealtimeEvent[] = [];
    const confirmed: string[] = [];
    const sub = client.subscribe("task", {
      onEvent: (e) => seen.push(e),
      onSubscribed: (id) => confirmed.push(id),
    });
    await until(() => confirmed.length === 1, "subscribed");
    t.equal(sub.status, "active");
    const [id] = await insertTasks(su, ["by callback"]);
    await until(() => seen.length === 1, "the event");
    t.match(seen[0], {
      type: "event",
      table: "task",
      op: "insert",
      key: { id },
      data: { title: "by callback" },
    });
    t.equal(sub.lastEventId, seen[0]?.eventId, "the cursor is the last delivered event");

    const iterated: string[] = [];
    const reading = (async () => {
      for await (const event of sub) {
        iterated.push(String(event.data?.title));
        if (iterated.length === 2) break;
      }
    })();
    await insertTasks(su, ["iter 1", "iter 2"]);
    await reading;
    t.same(iterated, ["iter 1", "iter 2"], "the iterator yields events in order");
    t.equal(sub.status, "ended", "leaving the loop unsubscribes");
  });

  t.test("a refused subscription ends with the server's error", async (t) => {
    const client = nodeClient(t, { url: gw.ws, token: token(ACME_MEMBER) });
    const errors: string[] = [];
    const sub = client.subscribe("no_such_table", { onError: (e) => errors.push(e.code) });
    const outcome = await (async () => {
      try {
        for await (const _ of sub) return "an event";
        return "ended quietly";
      } catch (error) {
        return (error as { code: string }).code;
      }
    })();
    t.not(outcome, "an event");
    t.not(outcome, "ended quietly", "the iterator throws the error");
    t.same(errors, [outcome], "onError got the same code");
    t.equal(sub.status, "ended");
  });

  t.test("reconnects after the network drops and resumes with since", async (t) => {
    const net = await relay(t, gw.port);
    const client = nodeClient(t, { url: `ws://127.0.0.1:${net.port}/realtime`, token: token(ACME_MEMBER) });
    const titles: string[] = [];
    let subscribedTimes = 0;
    client.subscribe("task", {
      filter: "(title,sw,drop-)",
      onEvent: (e) => titles.push(String(e.data?.title)),
      onSubscribed: () => subscribedTimes++,
    });
    await until(() => subscribedTimes === 1, "subscribed");
    await insertTasks(su, ["drop-1", "drop-2"]);
    await until(() => titles.length === 2, "the first two events");
    net.cut();
    // Written while the client is away: only `since` can bring them.
    await insertTasks(su, ["drop-3", "drop-4", "drop-5"]);
    await until(() => subscribedTimes === 2, "the resubscription after the reconnect");
    await insertTasks(su, ["drop-6"]);
    await until(() => titles.length >= 6, "the missed and the new events");
    await sleep(300);
    t.same(
      titles,
      ["drop-1", "drop-2", "drop-3", "drop-4", "drop-5", "drop-6"],
      "nothing lost, no duplicate",
    );
    t.ok(net.accepted.length >= 2, "it did reconnect");
  });

  t.test("many drops during a steady stream: every event once, in order", async (t) => {
    const net = await relay(t, gw.port);
    const client = nodeClient(t, { url: `ws://127.0.0.1:${net.port}/realtime`, token: token(ACME_MEMBER) });
    const titles: string[] = [];
    let subscribed = false;
    client.subscribe("task", {
      filter: "(title,sw,storm-)",
      onEvent: (e) => titles.push(String(e.data?.title)),
      onSubscribed: () => {
        subscribed = true;
      },
    });
    await until(() => subscribed, "subscribed");
    const expected = Array.from({ length: 120 }, (_, i) => `storm-${i}`);
    const writing = (async () => {
      for (const title of expected) {
        await insertTasks(su, [title]);
        await sleep(5);
      }
    })();
    const cutting = (async () => {
      for (let i = 0; i < 6; i++) {
        await sleep(150);
        net.cut();
      }
    })();
    await Promise.all([writing, cutting]);
    await until(() => titles.length >= expected.length, `all ${expected.length} events`, 20_000);
    await sleep(300);
    t.equal(titles.length, expected.length, "no duplicate");
    t.same(titles, expected, "in order, none lost");
    t.ok(net.accepted.length >= 4, `reconnected after the drops (${net.accepted.length} connections)`);
  });

  t.test("backoff grows while the server is unreachable", async (t) => {
    const net = await relay(t, gw.port);
    net.refusing = true;
    const client = nodeClient(t, {
      url: `ws://127.0.0.1:${net.port}/realtime`,
      token: token(ACME_MEMBER),
      reconnect: { initialDelayMs: 100, maxDelayMs: 10_000, factor: 2 },
    });
    let subscribed = false;
    client.subscribe("task", {
      onSubscribed: () => {
        subscribed = true;
      },
    });
    await sleep(2_500);
    const attempts = net.accepted.length;
    // 100, 200, 400, 800, 1600 ms, each times 0.5-1: 3 to 6 attempts fit in 2.5 s; without
    // backoff there would be hundreds.
    t.ok(attempts >= 3 && attempts <= 7, `attempts in 2.5 s: ${attempts}`);
    const gaps = net.accepted.slice(1).map((at, i) => at - (net.accepted[i] as number));
    t.ok((gaps.at(-1) ?? 0) > (gaps[0] ?? 0), `later gaps are longer (${gaps.join(", ")} ms)`);
    net.refusing = false;
    await until(() => subscribed, "subscribed once the server is reachable", 8_000);
    t.equal(client.connectionState, "open");
  });

  t.test("an expired token pauses the subscription; setToken resumes it without loss", async (t) => {
    const client = nodeClient(t, { url: gw.ws, token: token(ACME_MEMBER, { expiresIn: 2 }) });
    const titles: string[] = [];
    const errors: string[] = [];
    let subscribedTimes = 0;
    const sub = client.subscribe("task", {
      filter: "(title,sw,renew-)",
      onEvent: (e) => titles.push(String(e.data?.title)),
      onError: (e) => errors.push(e.code),
      onSubscribed: () => subscribedTimes++,
    });
    await until(() => subscribedTimes === 1, "subscribed");
    await insertTasks(su, ["renew-1"]);
    await until(() => titles.length === 1, "the first event");
    await until(() => errors.length > 0, "the expiry", 5_000);
    t.same(errors, ["UNAUTHORIZED"], "the subscription ended with UNAUTHORIZED");
    t.equal(sub.status, "paused");
    await insertTasks(su, ["renew-2"]);
    await sleep(300);
    t.same(titles, ["renew-1"], "nothing delivered while expired");
    client.setToken(token(ACME_MEMBER));
    await until(() => titles.length === 2, "the event written while expired, after the renewal");
    await insertTasks(su, ["renew-3"]);
    await until(() => titles.length === 3, "a live event");
    t.same(titles, ["renew-1", "renew-2", "renew-3"]);
    t.equal(sub.status, "active");
  });
});
