import type { ClientBase } from 'pg';
import type { MessageId, SessionId } from '@teamlog/events';
import {
  forEachChangedInboxEntry,
  InboxEntryRecord,
  inboxEntryRecordShape,
  inboxEntryValues,
  inboxOf,
  PendingLists,
  type ProjectionState,
  restoreInboxEntry,
  SessionFacts,
  type ViewRowDecoder,
} from '@teamlog/projections';
import type { HeldMessagesBySession } from './held-messages-by-session';
import { viewRowOf } from './view-row';
import { allRows, putRows } from './view-table';
import { heldMessagesTable, inboxEntriesTable, inboxListsTable, sessionsTable } from './view-tables';

/** Write the session facts, inbox entries, pending lists and held ids a batch changed (inside the commit transaction). */
export const writeSessionRows = async (client: ClientBase, state: ProjectionState): Promise<void> => {
  const { changes } = state;
  const sessions: unknown[][] = [];
  changes.sessions.forEach((id) => {
    const facts = state.sessions.get(id);
    if (facts !== undefined) sessions.push([id, JSON.stringify(facts)]);
  });
  const entries: unknown[][] = [];
  forEachChangedInboxEntry(state, (id, index, entry, detail) =>
    entries.push([id, index, ...inboxEntryValues(entry, detail)]),
  );
  const lists: unknown[][] = [];
  changes.inboxLists.forEach((id) => {
    const inbox = state.inboxes.get(id);
    if (inbox !== undefined)
      lists.push([
        id,
        JSON.stringify(inbox.state.pending['next-turn']),
        JSON.stringify(inbox.state.pending['next-step']),
      ]);
  });
  await putRows(client, sessionsTable, sessions);
  await putRows(client, inboxEntriesTable, entries);
  await putRows(client, inboxListsTable, lists);
  // The first seq an id was held at stays: a row already there is kept.
  await putRows(
    client,
    heldMessagesTable,
    changes.held.map(({ sessionId, messageId, seq }) => [sessionId, messageId, seq]),
    'keep',
  );
};

/** Session facts, inboxes and held ids as committed, into `state` (whose held ids live in `held`). */
export const loadSessionRows = async (
  client: ClientBase,
  decoder: ViewRowDecoder,
  state: ProjectionState,
  held: HeldMessagesBySession,
): Promise<void> => {
  for (const raw of await allRows(client, sessionsTable)) {
    const id = String(raw.session_id) as SessionId;
    state.sessions.set(id, decoder.decode(SessionFacts, raw.facts, sessionsTable.name, id) as SessionFacts);
  }
  for (const raw of await allRows(client, heldMessagesTable)) {
    held.add(String(raw.session_id) as SessionId, String(raw.message_id) as MessageId, Number(raw.seq));
  }
  for (const raw of await allRows(client, inboxEntriesTable)) {
    const row = viewRowOf(inboxEntriesTable, raw);
    const id = String(row.session_id) as SessionId;
    const where = `${id}#${String(row.entry_index)}`;
    const record = decoder.decode(
      InboxEntryRecord,
      inboxEntryRecordShape(row),
      inboxEntriesTable.name,
      where,
    ) as InboxEntryRecord;
    restoreInboxEntry(state, id, row.entry_index, record, (expected) =>
      decoder.corrupt(inboxEntriesTable.name, where, `entry index is not dense (expected ${expected})`),
    );
  }
  for (const raw of await allRows(client, inboxListsTable)) {
    const id = String(raw.session_id) as SessionId;
    const lists = decoder.decode(
      PendingLists,
      { 'next-turn': raw.next_turn, 'next-step': raw.next_step },
      inboxListsTable.name,
      id,
    );
    const { pending } = inboxOf(state, id).state;
    pending['next-turn'].push(...lists['next-turn']);
    pending['next-step'].push(...lists['next-step']);
  }
};
