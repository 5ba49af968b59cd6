// A child process of the realtime bench holding the bulk of the subscribers: it only counts the
// events they receive, so that receiving hundreds of thousands of messages per second does not
// slow the bench's writer or its latency-sampling subscribers (which live in the parent).
// Protocol with the parent (process.send): start {url, table, count, tokens} -> {ready} or
// {failed}; "count" -> {delivered, dropped, errors}; "reset"; "close" -> exits.

import { subscribe } from "./realtimeLoad.ts";

interface Start {
  url: string;
  table: string;
  count: number;
  tokens: string[];
}

process.once("message", async (start: Start) => {
  try {
    const subscribers = await subscribe(start.url, start.table, start.count, start.tokens, new Map(), 0);
    process.on("message", async (command: string) => {
      if (command === "count") {
        process.send?.({
          delivered: subscribers.delivered(),
          dropped: subscribers.dropped(),
          errors: subscribers.errors(),
        });
      } else if (command === "reset") {
        subscribers.reset();
        process.send?.({ reset: true });
      } else if (command === "close") {
        await subscribers.close();
        process.exit(0);
      }
    });
    process.send?.({ ready: true });
  } catch (error) {
    process.send?.({ failed: String(error) });
    process.exit(1);
  }
});
