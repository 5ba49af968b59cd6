-- Realtime, database side (docs/realtime.md "How events are recorded", "Retention").
--
-- The outbox lives in its own schema, `api_realtime`, created idempotently here: the API-layer
-- rebuild drops and recreates schema `api` on every migrate, and the recorded events must survive
-- that. Everything in `api` below is recreated with the layer; the tables in `api_realtime` are not
-- (a change to their shape needs an ALTER here that is safe to run again).
--
-- Order and cursors. Each event has (xid, seq): the writing transaction's id and a sequence
-- number. Ids are taken in one order and committed in another, so a reader that advanced past a
-- gap could lose the event that later fills it. Every event whose xid is below the current
-- snapshot's xmin is settled (committed or rolled back), and every event that can still appear has
-- an xid at or above it. The cursor `api.realtime_head()` returns is therefore "<xmin>:0": a reader
-- that reads in (xid, seq) order and never past the head never skips an event. A cursor is the text
-- "<xid>:<seq>"; clients treat it as opaque.

CREATE SCHEMA IF NOT EXISTS api_realtime;

-- One row per changed row. new_row / old_row: the row images (every column but the private ones),
-- new for insert and update, old for update and delete. The notify columns decide what is sent;
-- the whole image is kept so that row policies can be decided on it later, per subscriber.
CREATE TABLE IF NOT EXISTS api_realtime.outbox (
  xid xid8 NOT NULL DEFAULT pg_catalog.pg_current_xact_id(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL DEFAULT pg_catalog.now(),
  table_name text NOT NULL,
  op text NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
  new_row jsonb,
  old_row jsonb,
  PRIMARY KEY (xid, seq)
);

-- The retention watermark: every event at or before (xid, seq) has been pruned. A reader whose
-- cursor is older gets an error instead of silently missing events. One row.
CREATE TABLE IF NOT EXISTS api_realtime.pruned (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  xid xid8 NOT NULL,
  seq bigint NOT NULL
);
INSERT INTO api_realtime.pruned (xid, seq) VALUES ('0', 0) ON CONFLICT DO NOTHING;

-- Events with an xid below this one were recorded by an earlier API layer (an earlier schema):
-- their images may hold columns that were dropped or became private since, so they are read by
-- picking the current notify columns by name; later ones (the current layer's images) by removing
-- the other columns, which is several times cheaper. Set by every layer rebuild
-- (generator/realtime/index.ts). One row.
CREATE TABLE IF NOT EXISTS api_realtime.layer (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  xid xid8 NOT NULL
);
INSERT INTO api_realtime.layer (xid) VALUES ('0') ON CONFLICT DO NOTHING;

-- The cursor text parsed; A0400 when it is not one of ours. NULL stays NULL.
CREATE FUNCTION api.realtime_cursor(cursor text, OUT xid xid8, OUT seq bigint)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
  IF cursor IS NULL THEN
    RETURN;
  END IF;
  IF cursor !~ '^[0-9]{1,20}:[0-9]{1,19}$' THEN
    RAISE EXCEPTION 'The event cursor is not valid' USING ERRCODE = 'A0400';
  END IF;
  xid := split_part(cursor, ':', 1)::xid8;
  seq := split_part(cursor, ':', 2)::bigint;
EXCEPTION
  WHEN numeric_value_out_of_range OR invalid_text_representation THEN
    RAISE EXCEPTION 'The event cursor is not valid' USING ERRCODE = 'A0400';
END
$fn$;

-- The current safe cursor: every event at or before it is settled, and none can appear there later.
CREATE FUNCTION api.realtime_head() RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())::text OPERATOR(pg_catalog.||) ':0';

-- A0410 when (xid, seq) is older than the retention window (events after it may have been pruned).
-- Called by api.realtime_events after it has read, so a prune that committed meanwhile is seen.
CREATE FUNCTION api.realtime_check_retained(after_xid xid8, after_seq bigint) RETURNS void
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
  IF EXISTS (SELECT 1 FROM api_realtime.pruned p WHERE (after_xid, after_seq) < (p.xid, p.seq)) THEN
    RAISE EXCEPTION 'The events after this cursor are no longer kept: resubscribe without since'
      USING ERRCODE = 'A0410';
  END IF;
END
$fn$;

-- Deletes the oldest events recorded before now() - keep, at most `batch` per call, and returns how
-- many it deleted (call again while it returns `batch`). Only a prefix in cursor order is removed,
-- so the watermark says exactly what is gone; only settled events (below the head) are removed.
-- Writers are never blocked: deletes lock only the old rows, which no writer touches. Two callers
-- (several gateway instances) do not wait for each other: the second one skips.
CREATE FUNCTION api.realtime_prune(keep interval, batch integer DEFAULT 10000) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  w_xid xid8;
  w_seq bigint;
  b_xid xid8;
  b_seq bigint;
  deleted bigint;
BEGIN
  IF keep IS NULL OR keep < interval '0' OR batch IS NULL OR batch < 1 THEN
    RAISE EXCEPTION 'realtime_prune needs a non-negative interval and a positive batch' USING ERRCODE = 'A0400';
  END IF;
  SELECT p.xid, p.seq INTO w_xid, w_seq FROM api_realtime.pruned p FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  -- The longest prefix (in cursor order, after the watermark, below the head) of old events.
  SELECT f.xid, f.seq INTO b_xid, b_seq
  FROM (
    SELECT e.xid, e.seq, bool_and(e.created_at < now() - keep) OVER (ORDER BY e.xid, e.seq) AS all_old
    FROM (
      SELECT o.xid, o.seq, o.created_at FROM api_realtime.outbox o
      WHERE (o.xid, o.seq) > (w_xid, w_seq) AND o.xid < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY o.xid, o.seq
      LIMIT batch
    ) e
  ) f
  WHERE f.all_old
  ORDER BY f.xid DESC, f.seq DESC
  LIMIT 1;
  IF b_xid IS NULL THEN
    RETURN 0;
  END IF;
  DELETE FROM api_realtime.outbox o WHERE (o.xid, o.seq) > (w_xid, w_seq) AND (o.xid, o.seq) <= (b_xid, b_seq);
  GET DIAGNOSTICS deleted = ROW_COUNT;
  UPDATE api_realtime.pruned SET xid = b_xid, seq = b_seq;
  RETURN deleted;
END
$fn$;
