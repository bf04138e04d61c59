-- Tamper evidence (docs/trust-boundary.md): every event carries the digest of its stream's hash
-- chain, over its predecessor's digest and its stored type, data and metadata. Appends write it in
-- the same transaction as the event. Existing events gain their chains here, stream by stream in
-- revision order; teamlog_event_digest is the store package's eventDigest, registered on the
-- connection by the store before it migrates.
ALTER TABLE events ADD COLUMN digest TEXT;
CREATE TEMP TABLE chain_backfill (position INTEGER PRIMARY KEY, digest TEXT NOT NULL);
INSERT INTO chain_backfill (position, digest)
  WITH RECURSIVE chain (position, stream_name, revision, digest) AS (
    SELECT position, stream_name, revision, teamlog_event_digest(NULL, type, data, metadata) FROM events WHERE revision = 0
    UNION ALL
    SELECT e.position, e.stream_name, e.revision, teamlog_event_digest(c.digest, e.type, e.data, e.metadata)
      FROM chain c JOIN events e ON e.stream_name = c.stream_name AND e.revision = c.revision + 1
  )
  SELECT position, digest FROM chain;
UPDATE events SET digest = (SELECT b.digest FROM chain_backfill b WHERE b.position = events.position);
DROP TABLE chain_backfill;
