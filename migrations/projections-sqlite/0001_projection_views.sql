-- Projection views live beside the event store in the same SQLite file. A projection's views and
-- its checkpoint are written in one transaction (see packages/projections/src/sqlite-view-store.ts).
CREATE TABLE projection_checkpoints (
  projection        TEXT    PRIMARY KEY,
  -- Global positions are opaque {commit, prepare} pairs of unsigned 64-bit numbers: kept as text.
  position_commit   TEXT    NOT NULL,
  position_prepare  TEXT    NOT NULL,
  updated_at        INTEGER NOT NULL
) WITHOUT ROWID;

-- One document per session: header facts, lifecycle, event count, events the views could not use.
CREATE TABLE projection_sessions (
  session_id  TEXT PRIMARY KEY,
  facts       TEXT NOT NULL
) WITHOUT ROWID;

-- One document per Lead stream holding Team records: roster, tasks, legacy mailbox, failure.
CREATE TABLE projection_teams (
  lead_session_id  TEXT PRIMARY KEY,
  team_id          TEXT NOT NULL,
  team             TEXT NOT NULL
) WITHOUT ROWID;

-- Every message accepted into a session's inbox, in acceptance order.
CREATE TABLE projection_inbox_entries (
  session_id     TEXT    NOT NULL,
  entry_index    INTEGER NOT NULL,
  item_id        TEXT    NOT NULL,
  message_id     TEXT    NOT NULL,
  list           TEXT,
  origin         TEXT    NOT NULL,
  source_kind    TEXT    NOT NULL,
  source         TEXT    NOT NULL,
  sender_session_id TEXT,
  accepted_seq   INTEGER NOT NULL,
  accepted_time  REAL    NOT NULL,
  normalised     INTEGER NOT NULL,
  status         TEXT    NOT NULL,
  settled_seq    INTEGER,
  settled_time   REAL,
  header         TEXT,
  PRIMARY KEY (session_id, entry_index)
) WITHOUT ROWID;
CREATE INDEX projection_inbox_entries_message ON projection_inbox_entries (message_id);

-- The two pending lists of each inbox, as entry indexes.
CREATE TABLE projection_inbox_lists (
  session_id  TEXT PRIMARY KEY,
  next_turn   TEXT NOT NULL,
  next_step   TEXT NOT NULL
) WITHOUT ROWID;

-- Message ids each session's log holds, with the first seq (the legacy view's targetHasMessage).
CREATE TABLE projection_held_messages (
  session_id  TEXT    NOT NULL,
  message_id  TEXT    NOT NULL,
  seq         INTEGER NOT NULL,
  PRIMARY KEY (session_id, message_id)
) WITHOUT ROWID;
