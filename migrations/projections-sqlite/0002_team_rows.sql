-- The Team view as rows instead of one JSON document per team: a commit writes the members, tasks,
-- legacy messages and record facts a batch changed, not the whole team (which grows with the log).
-- Views are derived data: instead of converting the old documents, this empties every view and
-- checkpoint, and the next catch-up rebuilds them from the store (rebuild = catch-up from zero).
DELETE FROM projection_checkpoints;
DELETE FROM projection_sessions;
DELETE FROM projection_inbox_entries;
DELETE FROM projection_inbox_lists;
DELETE FROM projection_held_messages;
DROP TABLE projection_teams;

-- One row per Lead stream holding Team records of its own team (roster, tasks and mailbox below).
CREATE TABLE projection_teams (
  lead_session_id   TEXT    PRIMARY KEY,
  team_id           TEXT    NOT NULL,
  scope             TEXT,
  next_task_number  INTEGER NOT NULL,
  has_records       INTEGER NOT NULL,
  -- The team's first rule violation, as JSON {seq, type, reason}; NULL while it has none.
  failure           TEXT
) WITHOUT ROWID;

-- Members in order of first appearance (first_seq) with their latest snapshot (JSON).
CREATE TABLE projection_team_members (
  lead_session_id  TEXT    NOT NULL,
  member_id        TEXT    NOT NULL,
  first_seq        INTEGER NOT NULL,
  seq              INTEGER NOT NULL,
  snapshot         TEXT    NOT NULL,
  PRIMARY KEY (lead_session_id, member_id)
) WITHOUT ROWID;

-- Tasks in order of first appearance (first_seq) with their latest snapshot (JSON).
CREATE TABLE projection_team_tasks (
  lead_session_id  TEXT    NOT NULL,
  task_id          TEXT    NOT NULL,
  first_seq        INTEGER NOT NULL,
  seq              INTEGER NOT NULL,
  snapshot         TEXT    NOT NULL,
  PRIMARY KEY (lead_session_id, task_id)
) WITHOUT ROWID;

-- The legacy mailbox: every queued message (JSON snapshot) in queued order, and its delivery.
CREATE TABLE projection_team_messages (
  lead_session_id  TEXT    NOT NULL,
  message_id       TEXT    NOT NULL,
  source_version   INTEGER NOT NULL,
  queued_seq       INTEGER NOT NULL,
  delivered_seq    INTEGER,
  message          TEXT    NOT NULL,
  PRIMARY KEY (lead_session_id, message_id)
) WITHOUT ROWID;

-- Team records of the Lead's own team that the fold considered (the era audit reads them), in order.
CREATE TABLE projection_team_records (
  lead_session_id  TEXT    NOT NULL,
  record_index     INTEGER NOT NULL,
  seq              INTEGER NOT NULL,
  type             TEXT    NOT NULL,
  version          INTEGER NOT NULL,
  time             REAL    NOT NULL,
  normalised       INTEGER NOT NULL,
  PRIMARY KEY (lead_session_id, record_index)
) WITHOUT ROWID;

-- `team/message/delivered` records naming another target than the queued message, in order.
CREATE TABLE projection_team_mismatches (
  lead_session_id      TEXT    NOT NULL,
  mismatch_index       INTEGER NOT NULL,
  message_id           TEXT    NOT NULL,
  seq                  INTEGER NOT NULL,
  queued_target_id     TEXT    NOT NULL,
  delivered_target_id  TEXT    NOT NULL,
  PRIMARY KEY (lead_session_id, mismatch_index)
) WITHOUT ROWID;
