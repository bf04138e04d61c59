-- One row per stream with its last revision: expected-revision checks and stream listings
-- read one row instead of scanning the stream's index.
CREATE TABLE streams (
  stream_name    TEXT    PRIMARY KEY,
  last_revision  INTEGER NOT NULL,
  last_position  INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO streams (stream_name, last_revision, last_position)
  SELECT stream_name, MAX(revision), MAX(position) FROM events GROUP BY stream_name;
