-- teamlog's views beside the event store, in the schema "teamlog" of the same database: the
-- tables of migrations/projections-sqlite (as of its version 2) with PostgreSQL types. A
-- projection's views and its checkpoint are written in one transaction (PostgresViewStore in
-- packages/store-postgres). JSON columns are json, not jsonb: the text is kept as written.
CREATE TABLE teamlog.projection_checkpoints (
  projection        text        PRIMARY KEY,
  -- Global positions are opaque {commit, prepare} pairs of unsigned 64-bit numbers: kept as text.
  position_commit   text        NOT NULL,
  position_prepare  text        NOT NULL,
  updated_at        timestamptz NOT NULL
);

-- One document per session: header facts, lifecycle, event count, events the views could not use.
CREATE TABLE teamlog.projection_sessions (
  session_id  text PRIMARY KEY,
  facts       json NOT NULL
);

-- One row per Lead stream holding Team records of its own team (roster, tasks and mailbox below).
CREATE TABLE teamlog.projection_teams (
  lead_session_id   text    PRIMARY KEY,
  team_id           text    NOT NULL,
  scope             text,
  next_task_number  integer NOT NULL,
  has_records       boolean NOT NULL,
  -- The team's first rule violation, {seq, type, reason}; NULL while it has none.
  failure           json
);

-- Members in order of first appearance (first_seq) with their latest snapshot.
CREATE TABLE teamlog.projection_team_members (
  lead_session_id  text   NOT NULL,
  member_id        text   NOT NULL,
  first_seq        bigint NOT NULL,
  seq              bigint NOT NULL,
  snapshot         json   NOT NULL,
  PRIMARY KEY (lead_session_id, member_id)
);

-- Tasks in order of first appearance (first_seq) with their latest snapshot.
CREATE TABLE teamlog.projection_team_tasks (
  lead_session_id  text   NOT NULL,
  task_id          text   NOT NULL,
  first_seq        bigint NOT NULL,
  seq              bigint NOT NULL,
  snapshot         json   NOT NULL,
  PRIMARY KEY (lead_session_id, task_id)
);

-- The legacy mailbox: every queued message (its snapshot) in queued order, and its delivery.
CREATE TABLE teamlog.projection_team_messages (
  lead_session_id  text     NOT NULL,
  message_id       text     NOT NULL,
  source_version   smallint NOT NULL,
  queued_seq       bigint   NOT NULL,
  delivered_seq    bigint,
  message          json     NOT NULL,
  PRIMARY KEY (lead_session_id, message_id)
);

-- Team records of the Lead's own team that the fold considered (the era audit reads them), in order.
CREATE TABLE teamlog.projection_team_records (
  lead_session_id  text             NOT NULL,
  record_index     integer          NOT NULL,
  seq              bigint           NOT NULL,
  type             text             NOT NULL,
  version          integer          NOT NULL,
  time             double precision NOT NULL,
  normalised       boolean          NOT NULL,
  PRIMARY KEY (lead_session_id, record_index)
);

-- `team/message/delivered` records naming another target than the queued message, in order.
CREATE TABLE teamlog.projection_team_mismatches (
  lead_session_id      text    NOT NULL,
  mismatch_index       integer NOT NULL,
  message_id           text    NOT NULL,
  seq                  bigint  NOT NULL,
  queued_target_id     text    NOT NULL,
  delivered_target_id  text    NOT NULL,
  PRIMARY KEY (lead_session_id, mismatch_index)
);

-- Every message accepted into a session's inbox, in acceptance order.
CREATE TABLE teamlog.projection_inbox_entries (
  session_id         text             NOT NULL,
  entry_index        integer          NOT NULL,
  item_id            text             NOT NULL,
  message_id         text             NOT NULL,
  list               text,
  origin             text             NOT NULL,
  source_kind        text             NOT NULL,
  source             json             NOT NULL,
  sender_session_id  text,
  accepted_seq       bigint           NOT NULL,
  accepted_time      double precision NOT NULL,
  normalised         boolean          NOT NULL,
  status             text             NOT NULL,
  settled_seq        bigint,
  settled_time       double precision,
  header             json,
  PRIMARY KEY (session_id, entry_index)
);
CREATE INDEX projection_inbox_entries_message ON teamlog.projection_inbox_entries (message_id);

-- The two pending lists of each inbox, as entry indexes.
CREATE TABLE teamlog.projection_inbox_lists (
  session_id  text PRIMARY KEY,
  next_turn   json NOT NULL,
  next_step   json NOT NULL
);

-- Message ids each session's log holds, with the first seq (the legacy view's targetHasMessage).
CREATE TABLE teamlog.projection_held_messages (
  session_id  text   NOT NULL,
  message_id  text   NOT NULL,
  seq         bigint NOT NULL,
  PRIMARY KEY (session_id, message_id)
);
