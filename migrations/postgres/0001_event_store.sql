-- The event store, in the schema "teamlog" (the migration runner creates it and its
-- schema_migrations table under an advisory lock, then applies this in the same transaction).
--
-- $all order is (transaction_id, position): the id of the writing transaction, then an identity
-- within it. Readers of $all only read rows whose transaction id is below the horizon
-- pg_snapshot_xmin(pg_current_snapshot()): every transaction below it has ended, so no row can
-- appear later behind a position a reader has passed (docs/scale-out.md).
CREATE TABLE teamlog.events (
  transaction_id xid8        NOT NULL DEFAULT pg_current_xact_id(),
  position       bigint      GENERATED ALWAYS AS IDENTITY,
  stream_name    text        NOT NULL,
  revision       bigint      NOT NULL,
  event_id       text        NOT NULL,
  type           text        NOT NULL,
  -- json, not jsonb: the writer's text is kept as written (key order, number forms).
  data           json        NOT NULL,
  metadata       json,
  recorded_at    timestamptz NOT NULL,
  PRIMARY KEY (transaction_id, position),
  UNIQUE (stream_name, revision),
  UNIQUE (event_id)
);

-- One row per stream with its last revision: expected-revision checks read one row, and the row
-- is the stream's lock while an append group writes. last_revision -1 is a stream locked by a
-- group before its first event (removed again at the end of the group if nothing was written).
CREATE TABLE teamlog.streams (
  stream_name         text   PRIMARY KEY,
  last_revision       bigint NOT NULL,
  last_transaction_id xid8,
  last_position       bigint
);

-- One append group (the appends of one client's event-loop turn) in one transaction. Streams are
-- locked in name order first, so groups on other connections never deadlock; each append then
-- runs in its own block, a subtransaction, so its failure undoes only its own writes. The shared
-- append rules for a retried batch stay in the client: a batch with a stored id comes back as
-- 'stored' with what is stored.
CREATE FUNCTION teamlog.append_group(
  p_streams  text[],
  p_expected text[],
  p_counts   int[],
  p_recorded timestamptz[],
  p_ids      text[],
  p_types    text[],
  p_data     json[],
  p_metadata json[]
) RETURNS TABLE (outcome text, last_revision bigint, transaction_id text, last_position bigint, stored json)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_transaction xid8;
  v_stream text;
  v_expected text;
  v_first int := 1;
  v_until int;
  v_last bigint;
  v_position bigint;
  v_stored json;
BEGIN
  -- An append returns once its commit is durable, whatever the session asked for.
  IF current_setting('synchronous_commit') = 'off' THEN
    PERFORM set_config('synchronous_commit', 'on', true);
  END IF;
  FOR v_stream IN SELECT DISTINCT s FROM unnest(p_streams) AS s ORDER BY s LOOP
    INSERT INTO teamlog.streams (stream_name, last_revision) VALUES (v_stream, -1) ON CONFLICT (stream_name) DO NOTHING;
    PERFORM 1 FROM teamlog.streams s WHERE s.stream_name = v_stream FOR UPDATE;
  END LOOP;
  v_transaction := pg_current_xact_id();

  FOR i IN 1 .. coalesce(array_length(p_streams, 1), 0) LOOP
    v_stream := p_streams[i];
    v_expected := p_expected[i];
    v_until := v_first + p_counts[i] - 1;
    BEGIN
      SELECT json_agg(json_build_object('id', e.event_id, 'stream', e.stream_name, 'revision', e.revision::text,
                                        'transaction', e.transaction_id::text, 'position', e.position::text))
        INTO v_stored FROM teamlog.events e WHERE e.event_id = ANY (p_ids[v_first:v_until]);
      SELECT s.last_revision INTO v_last FROM teamlog.streams s WHERE s.stream_name = v_stream;
      IF v_stored IS NOT NULL THEN
        RETURN QUERY SELECT 'stored', NULL::bigint, NULL::text, NULL::bigint, v_stored;
      ELSIF NOT (CASE v_expected WHEN 'any' THEN true WHEN 'no_stream' THEN v_last = -1
                 WHEN 'stream_exists' THEN v_last >= 0 ELSE v_last = v_expected::bigint END) THEN
        RETURN QUERY SELECT 'wrong_expected_version', v_last, NULL::text, NULL::bigint, NULL::json;
      ELSIF v_until < v_first THEN
        RETURN QUERY SELECT 'appended', v_last, s.last_transaction_id::text, s.last_position, NULL::json
          FROM teamlog.streams s WHERE s.stream_name = v_stream;
      ELSE
        WITH written AS (
          INSERT INTO teamlog.events (transaction_id, stream_name, revision, event_id, type, data, metadata, recorded_at)
          SELECT v_transaction, v_stream, v_last + e.n, e.id, e.type, e.data, e.metadata, p_recorded[i]
            FROM unnest(p_ids[v_first:v_until], p_types[v_first:v_until], p_data[v_first:v_until], p_metadata[v_first:v_until])
                 WITH ORDINALITY AS e(id, type, data, metadata, n)
          RETURNING teamlog.events.position
        )
        SELECT max(w.position) INTO v_position FROM written w;
        v_last := v_last + p_counts[i];
        UPDATE teamlog.streams s SET last_revision = v_last, last_transaction_id = v_transaction, last_position = v_position
          WHERE s.stream_name = v_stream;
        RETURN QUERY SELECT 'appended', v_last, v_transaction::text, v_position, NULL::json;
      END IF;
    EXCEPTION WHEN unique_violation THEN
      -- An id another transaction stored after the check above (in another stream).
      SELECT json_agg(json_build_object('id', e.event_id, 'stream', e.stream_name, 'revision', e.revision::text,
                                        'transaction', e.transaction_id::text, 'position', e.position::text))
        INTO v_stored FROM teamlog.events e WHERE e.event_id = ANY (p_ids[v_first:v_until]);
      RETURN QUERY SELECT 'stored', NULL::bigint, NULL::text, NULL::bigint, v_stored;
    END;
    v_first := v_until + 1;
  END LOOP;

  DELETE FROM teamlog.streams s WHERE s.stream_name = ANY (p_streams) AND s.last_revision = -1;
END;
$$;

-- Wakes live subscriptions after a group committed. A transaction of its own, sent after the
-- append's commit, with synchronous_commit off: NOTIFY serialises committing transactions
-- cluster-wide, so it must not wait for a WAL flush, and nothing in it needs to be durable.
CREATE FUNCTION teamlog.notify_appended(p_transaction text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_notify('teamlog_appended', p_transaction);
END;
$$;
