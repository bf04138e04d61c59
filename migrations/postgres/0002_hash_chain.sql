-- Tamper evidence (docs/trust-boundary.md): every event carries the digest of its stream's hash
-- chain, over its predecessor's digest and the stored text of its type, data and metadata (json,
-- kept as written). A BEFORE INSERT trigger writes it in the same transaction as the event, whatever
-- statement inserts it; the stream's row lock, which every append group takes first, keeps the
-- predecessor fixed. teamlog.event_digest is eventDigest of the store package (event-digest.ts)
-- in SQL; a test holds the two to the same answers.
ALTER TABLE teamlog.events ADD COLUMN digest text;

CREATE FUNCTION teamlog.event_digest(p_previous text, p_type text, p_data text, p_metadata text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(
    'teamlog-chain-1' || E'\n' || coalesce(p_previous, '-') || E'\n'
      || octet_length(p_type)::text || ':' || p_type || E'\n'
      || octet_length(p_data)::text || ':' || p_data || E'\n'
      || CASE WHEN p_metadata IS NULL THEN '-' ELSE octet_length(p_metadata)::text || ':' || p_metadata END,
    'UTF8')), 'hex')
$$;

-- Rows inserted earlier by the same statement are visible here, so a batch chains in order.
CREATE FUNCTION teamlog.chain_event() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  NEW.digest := teamlog.event_digest(
    (SELECT p.digest FROM teamlog.events p WHERE p.stream_name = NEW.stream_name AND p.revision = NEW.revision - 1),
    NEW.type, NEW.data::text, NEW.metadata::text);
  RETURN NEW;
END;
$$;

-- Existing events gain their chains, stream by stream in revision order.
WITH RECURSIVE chain (position, transaction_id, stream_name, revision, digest) AS (
  SELECT e.position, e.transaction_id, e.stream_name, e.revision, teamlog.event_digest(NULL, e.type, e.data::text, e.metadata::text)
    FROM teamlog.events e WHERE e.revision = 0
  UNION ALL
  SELECT e.position, e.transaction_id, e.stream_name, e.revision, teamlog.event_digest(c.digest, e.type, e.data::text, e.metadata::text)
    FROM chain c JOIN teamlog.events e ON e.stream_name = c.stream_name AND e.revision = c.revision + 1
)
UPDATE teamlog.events e SET digest = c.digest FROM chain c WHERE e.transaction_id = c.transaction_id AND e.position = c.position;

CREATE TRIGGER events_chain BEFORE INSERT ON teamlog.events FOR EACH ROW EXECUTE FUNCTION teamlog.chain_event();
