import * as t from 'io-ts';
import { InboxList, MessageId, MessageSource } from '@teamlog/events';
import { InboxEntry } from '@teamlog/domain';
import { InboxEntryDetail } from './inbox-projection';

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
