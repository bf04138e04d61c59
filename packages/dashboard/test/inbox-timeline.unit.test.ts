import type { MessageId, SessionId } from '@teamlog/events';
import type { InboxView } from '@teamlog/projections';
import { inboxTimeline } from '../src/inbox-timeline';

const session = 'member-1' as SessionId;
const lead = 'lead-1' as SessionId;

const entry = (
  id: string,
  seq: number,
  status: InboxView['status'],
  settledSeq?: number,
  extra: Partial<InboxView> = {},
): InboxView => ({
  sessionId: session,
  messageId: id as MessageId,
  itemId: id as MessageId,
  sourceKind: 'team-relay',
  senderSessionId: lead,
  senderName: 'lead',
  seq,
  list: 'next-turn',
  status,
  ...(settledSeq === undefined ? {} : { settledSeq }),
  origin: 'accepted',
  time: 100 + seq,
  ...extra,
});

describe('inboxTimeline', () => {
  it('shows a pending message once, as accepted', () => {
    expect(inboxTimeline([entry('m1', 4, 'pending')]).map((item) => [item.seq, item.kind, item.messageId])).toEqual([
      [4, 'accepted', 'm1'],
    ]);
  });

  it('shows a settled message twice: accepted at its seq and claimed or canceled at the settling seq', () => {
    const timeline = inboxTimeline([entry('m1', 2, 'claimed', 5), entry('m2', 3, 'canceled', 4)]);
    expect(timeline.map((item) => [item.seq, item.kind, item.messageId])).toEqual([
      [2, 'accepted', 'm1'],
      [3, 'accepted', 'm2'],
      [4, 'canceled', 'm2'],
      [5, 'claimed', 'm1'],
    ]);
  });

  it('puts an acceptance before a settlement at the same seq (a message claimed as it arrived)', () => {
    const timeline = inboxTimeline([
      entry('old', 1, 'claimed', 6),
      entry('direct', 6, 'claimed', 6, { origin: 'direct' }),
    ]);
    expect(timeline.map((item) => [item.seq, item.kind, item.messageId])).toEqual([
      [1, 'accepted', 'old'],
      [6, 'accepted', 'direct'],
      [6, 'claimed', 'old'],
      [6, 'claimed', 'direct'],
    ]);
  });

  it('keeps the sender, list and source kind on every item, and the time on the acceptance only', () => {
    const [acceptedItem, claimedItem] = inboxTimeline([entry('m1', 2, 'claimed', 5)]);
    expect(acceptedItem).toEqual({
      seq: 2,
      kind: 'accepted',
      messageId: 'm1',
      itemId: 'm1',
      sourceKind: 'team-relay',
      senderSessionId: lead,
      senderName: 'lead',
      list: 'next-turn',
      origin: 'accepted',
      time: 102,
    });
    expect(claimedItem).toEqual({
      seq: 5,
      kind: 'claimed',
      messageId: 'm1',
      itemId: 'm1',
      sourceKind: 'team-relay',
      senderSessionId: lead,
      senderName: 'lead',
      list: 'next-turn',
      origin: 'accepted',
    });
  });
});
