-- One append group as one INSERT (docs/scale-out.md, "Group commit"). The group locks its streams'
-- heads in name order as before, checks every expected revision against them in memory, and writes
-- every appended event with one INSERT and every head with one UPDATE: no lookup before an insert
-- and no subtransaction per append. A retried batch is found when that INSERT meets a unique
-- index (or, for an append its expectation refused, by a lookup of its ids): then the statement
-- is undone (one savepoint per group) and the group is written again
-- append by append (teamlog.append_each, the per-append blocks of 0001), so one append's conflict
-- still fails only that append.
--
-- The chain's digests (0002) are computed here too, in the loop that checks the expectations,
-- from each stream's last digest: the insert trigger now runs only for a row inserted without a
-- digest (by another statement, or append_each), since a trigger call per row cost about as much
-- as the rest of the group. A digest given with the row is kept as given; the audit checks every
-- digest against the stored text either way (docs/trust-boundary.md).
--
-- The function keeps its arguments and answer, so a process still running the code from before
-- this migration calls it unchanged. The notification stays a transaction of its own after the
-- commit (notify_appended): folded into the group, NOTIFY's cluster-wide lock held through the
-- commit's flush measured no faster for one process and slower for many (docs/benchmarks.md).

-- The appends of a group one by one, each in a subtransaction of its own; the caller holds the
-- streams' locks. A batch with a stored id comes back as 'stored' with what is stored.
CREATE FUNCTION teamlog.append_each(
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
  v_transaction xid8 := pg_current_xact_id();
  v_stream text;
  v_expected text;
  v_first int := 1;
  v_until int;
  v_last bigint;
  v_position bigint;
  v_stored json;
BEGIN
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
END;
$$;

CREATE OR REPLACE FUNCTION teamlog.append_group(
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
  v_appends int := coalesce(array_length(p_streams, 1), 0);
  v_transaction xid8;
  -- Per append: whether its expectation held, the stream's last revision after it (or as it
  -- found it), what its events' group index adds to for their revisions, its last position.
  v_ok boolean[] := array_fill(false, ARRAY[v_appends]);
  v_last bigint[] := array_fill(-1::bigint, ARRAY[v_appends]);
  v_base bigint[] := array_fill(0::bigint, ARRAY[v_appends]);
  v_first int[];
  -- Per event: the append it belongs to, and its chain's digest.
  v_owner int[];
  v_digests text[];
  v_previous text;
  v_written int[];
  v_positions bigint[];
  v_stream text;
  v_head bigint;
  v_refused boolean := false;
  v_one_insert boolean := NOT (0 = ANY (p_counts));
  r record;
BEGIN
  -- An append returns once its commit is durable, whatever the session asked for.
  IF current_setting('synchronous_commit') = 'off' THEN
    PERFORM set_config('synchronous_commit', 'on', true);
  END IF;
  -- New streams get a head row first, then every head is locked, both in name order: groups on
  -- other connections never deadlock.
  INSERT INTO teamlog.streams (stream_name, last_revision)
    SELECT DISTINCT s, -1 FROM unnest(p_streams) AS s ORDER BY 1 ON CONFLICT (stream_name) DO NOTHING;
  PERFORM 1 FROM (SELECT 1 FROM teamlog.streams s WHERE s.stream_name = ANY (p_streams) ORDER BY s.stream_name FOR UPDATE) AS locked;
  v_transaction := pg_current_xact_id();

  IF v_one_insert THEN
    v_first := ARRAY(SELECT (sum(u.c) OVER (ORDER BY u.i) - u.c + 1)::int
                       FROM unnest(p_counts) WITH ORDINALITY AS u(c, i) ORDER BY u.i);
    v_owner := ARRAY(SELECT u.i::int FROM unnest(p_counts) WITH ORDINALITY AS u(c, i), generate_series(1, u.c) ORDER BY u.i);
    v_digests := array_fill(NULL::text, ARRAY[coalesce(array_length(p_ids, 1), 0)]);
    -- Appends to one stream in request order, each against the head (and the chain's last
    -- digest) the ones before it left.
    FOR r IN SELECT a.i::int AS i, a.s, a.x, a.c, h.last_revision AS head, p.digest AS previous
               FROM unnest(p_streams, p_expected, p_counts) WITH ORDINALITY AS a(s, x, c, i)
               JOIN teamlog.streams h ON h.stream_name = a.s
               LEFT JOIN teamlog.events p ON p.stream_name = h.stream_name AND p.revision = h.last_revision
              ORDER BY a.s, a.i LOOP
      IF r.s IS DISTINCT FROM v_stream THEN
        v_stream := r.s;
        v_head := r.head;
        v_previous := r.previous;
      END IF;
      IF (CASE r.x WHEN 'any' THEN true WHEN 'no_stream' THEN v_head = -1
               WHEN 'stream_exists' THEN v_head >= 0 ELSE v_head = r.x::bigint END) THEN
        v_ok[r.i] := true;
        v_base[r.i] := v_head + 1 - v_first[r.i];
        v_head := v_head + r.c;
        FOR n IN v_first[r.i] .. v_first[r.i] + r.c - 1 LOOP
          v_previous := teamlog.event_digest(v_previous, p_types[n], p_data[n]::text, p_metadata[n]::text);
          v_digests[n] := v_previous;
        END LOOP;
      ELSE
        v_refused := true;
      END IF;
      v_last[r.i] := v_head;
    END LOOP;
    -- A retried batch is answered as stored whatever it expects now: a refused append is looked up.
    IF v_refused AND EXISTS (SELECT 1 FROM unnest(v_owner, p_ids) AS e(a, id) JOIN teamlog.events x ON x.event_id = e.id
                              WHERE NOT v_ok[e.a]) THEN
      v_one_insert := false;
    END IF;
  END IF;

  IF v_one_insert THEN
    BEGIN
      WITH written AS (
        INSERT INTO teamlog.events (transaction_id, stream_name, revision, event_id, type, data, metadata, recorded_at, digest)
        SELECT v_transaction, p_streams[e.a], v_base[e.a] + e.n, e.id, e.type, e.data, e.metadata, p_recorded[e.a], e.digest
          FROM unnest(v_owner, p_ids, p_types, p_data, p_metadata, v_digests) WITH ORDINALITY AS e(a, id, type, data, metadata, digest, n)
         WHERE v_ok[e.a]
         ORDER BY e.n
        RETURNING teamlog.events.stream_name, teamlog.events.revision, teamlog.events.position
      ), heads AS (
        UPDATE teamlog.streams s
           SET last_revision = w.revision, last_transaction_id = v_transaction, last_position = w.position
          FROM (SELECT DISTINCT ON (x.stream_name) x.stream_name, x.revision, x.position
                  FROM written x ORDER BY x.stream_name, x.revision DESC) AS w
         WHERE s.stream_name = w.stream_name
      )
      SELECT array_agg(a.i::int), array_agg(w.position)
        INTO v_written, v_positions
        FROM written w
        JOIN unnest(p_streams, v_last, v_ok) WITH ORDINALITY AS a(s, l, ok, i)
          ON a.ok AND w.stream_name = a.s AND w.revision = a.l;
    EXCEPTION WHEN unique_violation THEN
      v_one_insert := false;
    END;
  END IF;

  IF v_one_insert THEN
    RETURN QUERY
      SELECT CASE WHEN a.ok THEN 'appended' ELSE 'wrong_expected_version' END, a.l,
             CASE WHEN a.ok THEN v_transaction::text END, p.position, NULL::json
        FROM unnest(v_ok, v_last) WITH ORDINALITY AS a(ok, l, i)
        LEFT JOIN unnest(v_written, v_positions) AS p(i, position) ON p.i = a.i
       ORDER BY a.i;
  ELSE
    v_refused := true;
    RETURN QUERY SELECT * FROM teamlog.append_each(p_streams, p_expected, p_counts, p_recorded, p_ids, p_types, p_data, p_metadata);
  END IF;

  IF v_refused THEN
    DELETE FROM teamlog.streams s WHERE s.stream_name = ANY (p_streams) AND s.last_revision = -1;
  END IF;
END;
$$;

DROP TRIGGER events_chain ON teamlog.events;
CREATE TRIGGER events_chain BEFORE INSERT ON teamlog.events FOR EACH ROW WHEN (NEW.digest IS NULL)
  EXECUTE FUNCTION teamlog.chain_event();
