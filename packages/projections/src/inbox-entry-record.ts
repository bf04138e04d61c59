import * as t from 'io-ts';
import { InboxList, MessageId, MessageSource, type SessionId } from '@teamlog/events';
import type { InboxEntry } from '@teamlog/domain';
import { InboxEntryDetail } from './inbox-projection';
import { senderOf } from './inbox-view';
import { inboxOf, type ProjectionState } from './projection-state';
import type { ViewRow } from './view-row-decoder';

/** An inbox entry as persisted: the domain entry (without its body) and the view's details. */
export const InboxEntryRecord = t.type(
  {
    entry: t.intersection([
      t.type({
        id: MessageId,
        origin: t.keyof({ spliced: null, accepted: null, direct: null }),
        source: MessageSource,
        acceptedSeq: t.number,
        status: t.keyof({ pending: null, claimed: null, canceled: null }),
      }),
      t.partial({ list: InboxList, settledSeq: t.number }),
    ]),
    detail: InboxEntryDetail,
  },
  'InboxEntryRecord',
);

export interface InboxEntryRecord {
  readonly entry: InboxEntry;
  readonly detail: InboxEntryDetail;
}

export const PendingLists = t.type({ 'next-turn': t.array(t.number), 'next-step': t.array(t.number) }, 'PendingLists');

/**
 * An entry's columns after its session id and index, in table order: JSON as text, and
 * `normalised` through `boolean` for a store without a boolean column type.
 */
export const inboxEntryValues = (
  entry: InboxEntry,
  detail: InboxEntryDetail,
  boolean: (value: boolean) => unknown = (value) => value,
): unknown[] => [
  entry.id,
  detail.messageId,
  entry.list ?? null,
  entry.origin,
  entry.source.kind,
  JSON.stringify(entry.source),
  senderOf(entry.source).sessionId ?? null,
  entry.acceptedSeq,
  detail.time,
  boolean(detail.normalised),
  entry.status,
  entry.settledSeq ?? null,
  detail.settledTime ?? null,
  detail.header === null ? null : JSON.stringify(detail.header),
];

/** A record's shape, for InboxEntryRecord, from a row whose JSON columns are parsed, integers are numbers and `normalised` is a boolean. */
export const inboxEntryRecordShape = (row: ViewRow): unknown => ({
  entry: {
    id: row.item_id,
    origin: row.origin,
    source: row.source,
    content: [],
    acceptedSeq: row.accepted_seq,
    status: row.status,
    ...(row.list === null ? {} : { list: row.list }),
    ...(row.settled_seq === null ? {} : { settledSeq: row.settled_seq }),
  },
  detail: {
    messageId: row.message_id,
    time: row.accepted_time,
    normalised: row.normalised,
    header: row.header,
    ...(row.settled_time === null ? {} : { settledTime: row.settled_time }),
  },
});

/** Puts a loaded entry back into its session's inbox; its index must be the next one (else `notDense`, given the expected index, is thrown). */
export const restoreInboxEntry = (
  state: ProjectionState,
  id: SessionId,
  index: unknown,
  record: InboxEntryRecord,
  notDense: (expected: number) => Error,
): void => {
  const inbox = inboxOf(state, id);
  if (inbox.state.entries.length !== index) throw notDense(inbox.state.entries.length);
  inbox.state.entries.push(record.entry);
  inbox.state.byId.set(record.entry.id, inbox.state.entries.length - 1);
  inbox.details.push(record.detail);
};

/** Every inbox entry the batch changed, with its details: what a view store's commit writes. */
export const forEachChangedInboxEntry = (
  state: ProjectionState,
  write: (id: SessionId, index: number, entry: InboxEntry, detail: InboxEntryDetail) => void,
): void => {
  state.changes.inboxEntries.forEach((indexes, id) => {
    const inbox = state.inboxes.get(id);
    if (inbox === undefined) return;
    indexes.forEach((index) =>
      write(id, index, inbox.state.entries[index] as InboxEntry, inbox.details[index] as InboxEntryDetail),
    );
  });
};
