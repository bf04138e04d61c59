import type { ViewTable } from './view-table';

/* The view tables of migrations/projections-postgres, column by column (the order rows are written in). */

const table = (name: string, keyLength: number, columns: ViewTable['columns'], loadOrder?: string): ViewTable => ({
  name: `teamlog.${name}`,
  keyLength,
  columns,
  ...(loadOrder === undefined ? {} : { loadOrder }),
});

export const sessionsTable = table('projection_sessions', 1, [
  ['session_id', 'text'],
  ['facts', 'json'],
]);

export const teamsTable = table('projection_teams', 1, [
  ['lead_session_id', 'text'],
  ['team_id', 'text'],
  ['scope', 'text'],
  ['next_task_number', 'integer'],
  ['has_records', 'boolean'],
  ['failure', 'json'],
]);

const snapshotColumns = (key: string): ViewTable['columns'] => [
  ['lead_session_id', 'text'],
  [key, 'text'],
  ['first_seq', 'bigint'],
  ['seq', 'bigint'],
  ['snapshot', 'json'],
];

export const membersTable = table(
  'projection_team_members',
  2,
  snapshotColumns('member_id'),
  'lead_session_id, first_seq',
);
export const tasksTable = table('projection_team_tasks', 2, snapshotColumns('task_id'), 'lead_session_id, first_seq');

export const legacyMessagesTable = table(
  'projection_team_messages',
  2,
  [
    ['lead_session_id', 'text'],
    ['message_id', 'text'],
    ['source_version', 'smallint'],
    ['queued_seq', 'bigint'],
    ['delivered_seq', 'bigint'],
    ['message', 'json'],
  ],
  'lead_session_id, queued_seq',
);

export const recordsTable = table('projection_team_records', 2, [
  ['lead_session_id', 'text'],
  ['record_index', 'integer'],
  ['seq', 'bigint'],
  ['type', 'text'],
  ['version', 'integer'],
  ['time', 'double precision'],
  ['normalised', 'boolean'],
]);

export const mismatchesTable = table('projection_team_mismatches', 2, [
  ['lead_session_id', 'text'],
  ['mismatch_index', 'integer'],
  ['message_id', 'text'],
  ['seq', 'bigint'],
  ['queued_target_id', 'text'],
  ['delivered_target_id', 'text'],
]);

export const inboxEntriesTable = table('projection_inbox_entries', 2, [
  ['session_id', 'text'],
  ['entry_index', 'integer'],
  ['item_id', 'text'],
  ['message_id', 'text'],
  ['list', 'text'],
  ['origin', 'text'],
  ['source_kind', 'text'],
  ['source', 'json'],
  ['sender_session_id', 'text'],
  ['accepted_seq', 'bigint'],
  ['accepted_time', 'double precision'],
  ['normalised', 'boolean'],
  ['status', 'text'],
  ['settled_seq', 'bigint'],
  ['settled_time', 'double precision'],
  ['header', 'json'],
]);

export const inboxListsTable = table('projection_inbox_lists', 1, [
  ['session_id', 'text'],
  ['next_turn', 'json'],
  ['next_step', 'json'],
]);

export const heldMessagesTable = table('projection_held_messages', 2, [
  ['session_id', 'text'],
  ['message_id', 'text'],
  ['seq', 'bigint'],
]);

/** The Team view of one Lead stream. */
export const teamTables: readonly ViewTable[] = [
  teamsTable,
  membersTable,
  tasksTable,
  legacyMessagesTable,
  recordsTable,
  mismatchesTable,
];

/** The tables holding a session's rows (each keyed first by its session id): what a supersession drops. */
export const sessionRowTables: readonly ViewTable[] = [
  ...teamTables,
  inboxEntriesTable,
  inboxListsTable,
  heldMessagesTable,
];

/** Every view table (a reset empties them all). */
export const viewTables: readonly ViewTable[] = [
  sessionsTable,
  ...teamTables,
  inboxEntriesTable,
  inboxListsTable,
  heldMessagesTable,
];

export const checkpointsTable = 'teamlog.projection_checkpoints';
