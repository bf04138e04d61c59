import { isRight } from 'fp-ts/Either';
import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import {
  forEachChangedInboxEntry,
  type InboxEntryDetail,
  InboxEntryRecord,
  inboxEntryRecordShape,
  inboxEntryValues,
  initialProjectionState,
  restoreInboxEntry,
} from '@teamlog/projections';

/* An inbox entry's row, as both view stores write and read it. */

const columns = [
  'item_id',
  'message_id',
  'list',
  'origin',
  'source_kind',
  'source',
  'sender_session_id',
  'accepted_seq',
  'accepted_time',
  'normalised',
  'status',
  'settled_seq',
  'settled_time',
  'header',
];

const settled: InboxEntryRecord = {
  entry: {
    id: 'item-1' as MessageId,
    list: 'next-turn',
    origin: 'accepted',
    source: {
      kind: 'team-message',
      teamId: 'team-1' as TeamId,
      messageId: 'msg-1' as MessageId,
      senderId: 'lead' as SessionId,
      senderName: 'lead',
    },
    content: [],
    acceptedSeq: 4,
    status: 'claimed',
    settledSeq: 9,
  },
  detail: {
    messageId: 'msg-1' as MessageId,
    time: 1000,
    normalised: true,
    header: { senderName: 'lead' },
    settledTime: 2000,
  },
};

const pending: InboxEntryRecord = {
  entry: {
    id: 'item-2' as MessageId,
    origin: 'direct',
    source: { kind: 'user' },
    content: [],
    acceptedSeq: 5,
    status: 'pending',
  },
  detail: { messageId: 'item-2' as MessageId, time: 1500, normalised: false, header: null },
};

/** The row a store reads back: JSON columns parsed. */
const rowOf = (values: readonly unknown[]) =>
  Object.fromEntries(
    columns.map((column, index) => [
      column,
      column === 'source' || column === 'header' ? JSON.parse(String(values[index])) : values[index],
    ]),
  );

describe('inbox entry rows', () => {
  it.each([
    ['a settled entry', settled],
    ['a pending entry without optional fields', pending],
  ])('given %s, its columns read back as the same record', (_name, record) => {
    const decoded = InboxEntryRecord.decode(
      inboxEntryRecordShape(rowOf(inboxEntryValues(record.entry, record.detail as InboxEntryDetail))),
    );
    expect(isRight(decoded) && decoded.right).toEqual(record);
  });

  it('names the sender session and the source kind in their own columns, and converts normalised for a store without booleans', () => {
    const values = inboxEntryValues(settled.entry, settled.detail, (normalised) => (normalised ? 1 : 0));
    expect(values[columns.indexOf('source_kind')]).toBe('team-message');
    expect(values[columns.indexOf('sender_session_id')]).toBe('lead');
    expect(values[columns.indexOf('normalised')]).toBe(1);
    expect(inboxEntryValues(pending.entry, pending.detail)[columns.indexOf('header')]).toBeNull();
  });

  it('restores entries in index order, and refuses an index that is not the next one', () => {
    const state = initialProjectionState();
    const id = 'session-1' as SessionId;
    restoreInboxEntry(state, id, 0, settled, () => new Error('not dense'));
    expect(() => restoreInboxEntry(state, id, 2, pending, (expected) => new Error(`expected ${expected}`))).toThrow(
      'expected 1',
    );
    restoreInboxEntry(state, id, 1, pending, () => new Error('not dense'));
    const inbox = state.inboxes.get(id);
    expect(inbox?.state.entries).toEqual([settled.entry, pending.entry]);
    expect(inbox?.state.byId.get(pending.entry.id)).toBe(1);
    expect(inbox?.details).toEqual([settled.detail, pending.detail]);
  });

  it('visits only the entries the batch changed, with their details', () => {
    const state = initialProjectionState();
    const id = 'session-1' as SessionId;
    restoreInboxEntry(state, id, 0, settled, () => new Error('not dense'));
    restoreInboxEntry(state, id, 1, pending, () => new Error('not dense'));
    state.changes.inboxEntries.set(id, new Set([1]));
    state.changes.inboxEntries.set('session-gone' as SessionId, new Set([0]));
    const seen: unknown[] = [];
    forEachChangedInboxEntry(state, (session, index, entry, detail) => seen.push([session, index, entry, detail]));
    expect(seen).toEqual([[id, 1, pending.entry, pending.detail]]);
  });
});
