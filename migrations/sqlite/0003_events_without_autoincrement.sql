-- Positions come from the rowid (max + 1). AUTOINCREMENT only adds a guarantee for deleted rows,
-- and events are never deleted, so its per-insert bookkeeping in sqlite_sequence is dropped:
-- positions stay monotonic and every existing position is kept.
CREATE TABLE events_next (
  position     INTEGER PRIMARY KEY,
  stream_name  TEXT    NOT NULL,
  revision     INTEGER NOT NULL,
  event_id     TEXT    NOT NULL UNIQUE,
  type         TEXT    NOT NULL,
  data         TEXT    NOT NULL,
  metadata     TEXT,
  recorded_at  INTEGER NOT NULL,
  UNIQUE (stream_name, revision)
);
INSERT INTO events_next SELECT position, stream_name, revision, event_id, type, data, metadata, recorded_at FROM events ORDER BY position;
DROP TABLE events;
ALTER TABLE events_next RENAME TO events;
