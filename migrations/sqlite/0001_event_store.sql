-- The event store: one row per event; revision is dense per stream, position is the global order.
CREATE TABLE events (
  position     INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_name  TEXT    NOT NULL,
  revision     INTEGER NOT NULL,
  event_id     TEXT    NOT NULL UNIQUE,
  type         TEXT    NOT NULL,
  data         TEXT    NOT NULL,
  metadata     TEXT,
  recorded_at  INTEGER NOT NULL,
  UNIQUE (stream_name, revision)
);
