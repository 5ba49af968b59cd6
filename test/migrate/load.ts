// A steady load of reads and writes against a test gateway, for tests that change the database
// under it: several loops, each sending one request after another until stopped, recording when
// each request started and ended and how it was answered.

import type { TestGateway } from "../harness/gateway.ts";

export interface Sent {
  what: string;
  start: number;
  end: number;
  status: number;
  /** The body of an answer that was not a 200. */
  failure?: string;
}

export interface Load {
  /** Requests answered so far. */
  sent(): Sent[];
  /** Stops the loops after their current request; all requests, in order of their start. */
  stop(): Promise<Sent[]>;
}

/** What one request of a loop does: `i` counts the loop's requests. */
export type Step = (
  gw: TestGateway,
  i: number,
) => { what: string; run: () => ReturnType<TestGateway["request"]> };

export function startLoad(gw: TestGateway, loops: number, step: Step): Load {
  const sent: Sent[] = [];
  let running = true;
  const loop = async () => {
    for (let i = 0; running; i++) {
      const { what, run } = step(gw, i);
      const start = performance.now();
      const res = await run();
      const end = performance.now();
      sent.push({
        what,
        start,
        end,
        status: res.statusCode,
        ...(res.statusCode === 200 ? {} : { failure: res.body }),
      });
    }
  };
  const done = Promise.all(Array.from({ length: loops }, loop));
  return {
    sent: () => sent,
    stop: async () => {
      running = false;
      await done;
      return sent.sort((a, b) => a.start - b.start);
    },
  };
}

/** Requests in flight at some moment of [from, to]. */
export function during(sent: readonly Sent[], from: number, to: number): Sent[] {
  return sent.filter((s) => s.start <= to && s.end >= from);
}
