// The time zone of each gateway connection's session, as Postgres reports it. TimeZone is one of
// the settings Postgres sends the client whenever it changes (a ParameterStatus message), and at
// start-up: so the zone is known at all times without asking, whoever changed it (a server whose
// default is another zone, a handler's `SET TimeZone`). The gateway's own read statements render
// timestamps as the route functions do, in UTC (their `SET timezone`); a statement that needs it
// sets the session's zone first where the connection is not in UTC (cellQuery.ts `utc`).

import pg from "pg";

const zones = new WeakMap<object, string>();

/** A pg.Client that keeps its session's reported TimeZone (pool.ts uses it for every pool). */
export class ZoneTrackingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const connection = (this as unknown as { connection: pg.Connection }).connection;
    connection.on("parameterStatus", (message: { parameterName: string; parameterValue: string }) => {
      if (message.parameterName === "TimeZone") zones.set(connection, message.parameterValue);
    });
  }
}

/** Whether the session of `connection` renders timestamps in UTC (unknown: no). */
export function inUtc(connection: pg.Connection): boolean {
  return zones.get(connection) === "UTC";
}

/** Sets the session's zone (a session setting: the next statements on this connection need none). */
export const SET_UTC = "SET TimeZone = 'UTC'";
