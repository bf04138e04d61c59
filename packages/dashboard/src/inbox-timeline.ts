import type { InboxList, MessageId, SessionId } from '@teamlog/events';
import type { InboxView } from '@teamlog/projections';

export type TimelineKind = 'accepted' | 'claimed' | 'canceled';

/** One thing that happened to a message in a session's inbox, at the seq of the event that did it. */
export interface TimelineItem {
  readonly seq: number;
  readonly kind: TimelineKind;
  readonly messageId: MessageId;
  readonly itemId: MessageId;
  readonly sourceKind: string;
  readonly senderSessionId?: SessionId;
  readonly senderName?: string;
  readonly list?: InboxList;
  readonly origin: InboxView['origin'];
  /** The accepting event's time (epoch ms); settlements carry the seq only. */
  readonly time?: number;
}

const rank: Record<TimelineKind, number> = { accepted: 0, claimed: 1, canceled: 1 };

const itemsOf = (entry: InboxView): TimelineItem[] => {
  const common = {
    messageId: entry.messageId,
    itemId: entry.itemId,
    sourceKind: entry.sourceKind,
    ...(entry.senderSessionId === undefined ? {} : { senderSessionId: entry.senderSessionId }),
    ...(entry.senderName === undefined ? {} : { senderName: entry.senderName }),
    ...(entry.list === undefined ? {} : { list: entry.list }),
    origin: entry.origin,
  };
  const accepted: TimelineItem = { ...common, seq: entry.seq, kind: 'accepted', time: entry.time };
  if (entry.status === 'pending' || entry.settledSeq === undefined) return [accepted];
  return [accepted, { ...common, seq: entry.settledSeq, kind: entry.status }];
};

/**
 * A session's inbox as a timeline: each message's acceptance and, once settled, its claim or
 * cancellation, in seq order (an acceptance before a settlement at the same seq).
 */
export const inboxTimeline = (entries: readonly InboxView[]): TimelineItem[] =>
  entries
    .flatMap(itemsOf)
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.seq - b.item.seq || rank[a.item.kind] - rank[b.item.kind] || a.index - b.index)
    .map(({ item }) => item);
