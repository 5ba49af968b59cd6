// Realtime metrics on the gateway's /metrics registry (docs/operations.md "Metrics"), present only
// when metrics are on: live subscriptions, events sent, and the delay from the writing
// transaction's commit (as the outbox records it) to the send.

import { Counter, Gauge, Histogram, type Registry } from "prom-client";

export interface RealtimeMetrics {
  subscribers: Gauge;
  delivered: Counter;
  lag: Histogram;
}

/** Seconds: a few ms when idle, up to the poll interval when a NOTIFY was lost, more under load. */
const LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function realtimeMetrics(registry: Registry): RealtimeMetrics {
  return {
    subscribers: new Gauge({
      name: "realtime_subscriptions",
      help: "Live realtime subscriptions on this instance",
      registers: [registry],
    }),
    delivered: new Counter({
      name: "realtime_events_delivered_total",
      help: "Realtime events sent to subscribers (one per subscription that received it)",
      registers: [registry],
    }),
    lag: new Histogram({
      name: "realtime_delivery_lag_seconds",
      help: "Time from the writing transaction's commit (as the outbox records it) to sending the event",
      buckets: LAG_BUCKETS,
      registers: [registry],
    }),
  };
}
