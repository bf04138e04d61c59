import { type MessageId, type SessionId, streamEvent } from '@teamlog/events';
import {
  type InboxSessionEvent,
  type SessionEvent,
  type SessionInbox,
  evolveSessionInbox,
  initialSessionInbox,
  isInboxEvent,
} from '@teamlog/projections';
import {
  claim,
  ev,
  mailboxItem,
  promptItem,
  relayItem,
  splice,
  userMessage,
} from '@teamlog/test-support/session-log-builder';

const target = 'member-1' as SessionId;
/** An event as the views fold it (its payload checked by its codec, as a read would); only inbox events reach the inbox. */
const sessionEvent = (type: string, seq: number, data: unknown, time: number): SessionEvent => ({
  ...streamEvent(type, seq, data),
  sessionId: target,
  time,
  normalised: false,
});
const inboxEvent = (type: string, seq: number, data: unknown, time: number): InboxSessionEvent => {
  const event = sessionEvent(type, seq, data, time);
  if (!isInboxEvent(event)) throw new Error(`${type} at ${seq} is not an inbox event its codec accepts`);
  return event;
};
const fold = (events: ReadonlyArray<{ type: string; data: unknown; time?: number }>, scope?: string): SessionInbox => {
  const inbox = initialSessionInbox();
  events.forEach((event, seq) => {
    const at = sessionEvent(event.type, seq, event.data, event.time ?? 1000 * (seq + 1));
    if (isInboxEvent(at)) evolveSessionInbox(inbox, at, scope);
  });
  return inbox;
};

describe('inbox of a session', () => {
  it('given a steered message, when the loop claims the list, then the entry is claimed at that seq and time', () => {
    const inbox = fold([
      splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]),
      claim('next-step', 1),
      userMessage(relayItem('r1', 'lead-1', 'lead')),
    ]);
    expect(inbox.state.entries).toHaveLength(1);
    expect(inbox.state.entries[0]).toMatchObject({
      id: 'r1',
      list: 'next-step',
      status: 'claimed',
      acceptedSeq: 0,
      settledSeq: 1,
    });
    expect(inbox.details[0]).toMatchObject({
      messageId: 'r1',
      time: 1000,
      settledTime: 2000,
      header: { senderName: 'lead' },
    });
  });

  it('given an entry settled later, then its detail keeps the keys of a pending one in the same order, the settle time last', () => {
    const inbox = fold([splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')])]);
    const pendingDetail = inbox.details[0];
    evolveSessionInbox(inbox, inboxEvent(claim('next-step', 1).type, 1, claim('next-step', 1).data, 2000), undefined);
    expect(inbox.details[0]).not.toBe(pendingDetail);
    expect(Object.keys(inbox.details[0] ?? {})).toEqual(['messageId', 'time', 'normalised', 'header', 'settledTime']);
    expect(pendingDetail?.settledTime).toBeUndefined();
  });

  it('given a splice with outcome canceled, then the entry is canceled', () => {
    const inbox = fold([
      splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]),
      claim('next-step', 1, { outcome: 'canceled' }),
    ]);
    expect(inbox.state.entries[0]?.status).toBe('canceled');
  });

  it('given a mailbox item, then its Team message id is the source messageId and both ids are held', () => {
    const inbox = initialSessionInbox();
    const event = splice('next-turn', 0, [mailboxItem('lead-1', 'tm-1', 'lead-1', 'lead', 'item-9')]);
    const change = evolveSessionInbox(inbox, inboxEvent(event.type, 4, event.data, 1000), undefined);
    expect(inbox.details[0]).toMatchObject({ messageId: 'tm-1', header: { messageId: 'tm-1', senderName: 'lead' } });
    expect(change.held).toEqual([
      ['item-9', 4],
      ['tm-1', 4],
    ]);
    expect(['item-9', 'tm-1', 'other'].map((id) => inbox.held.has(id as MessageId))).toEqual([true, true, false]);
  });

  it('given a peer message written straight into the conversation, then it is accepted and claimed at once', () => {
    const inbox = fold([userMessage(mailboxItem('lead-1', 'tm-2', 'lead-1', 'lead'))]);
    expect(inbox.state.entries[0]).toMatchObject({ origin: 'direct', status: 'claimed', acceptedSeq: 0 });
    expect(inbox.details[0]?.settledTime).toBe(1000);
  });

  it('given a human prompt, then it is an inbox entry without a header, and its user/message adds nothing', () => {
    const inbox = fold([
      splice('next-turn', 0, [promptItem('p1')]),
      claim('next-turn', 1),
      userMessage(promptItem('p1')),
    ]);
    expect(inbox.state.entries).toHaveLength(1);
    expect(inbox.details[0]?.header).toBeNull();
  });

  it('given teamlog acceptance, claim and cancel events, then entries follow them', () => {
    const accepted = (id: string, list: string) =>
      ev('teamlog/inbox/accepted', { teamId: 'lead-1', list, message: relayItem(id, 'lead-1', 'lead') });
    const inbox = fold([
      accepted('a1', 'next-turn'),
      accepted('a2', 'next-step'),
      ev('teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['a1'], turn: 1 }),
      ev('teamlog/inbox/canceled', { list: 'next-step', messageIds: ['a2'], reason: 'turn aborted' }),
    ]);
    expect(inbox.state.entries.map((entry) => [entry.id, entry.origin, entry.status, entry.settledSeq])).toEqual([
      ['a1', 'accepted', 'claimed', 2],
      ['a2', 'accepted', 'canceled', 3],
    ]);
  });

  it('keeps no message bodies', () => {
    const inbox = fold([splice('next-turn', 0, [relayItem('r1', 'lead-1', 'lead')])]);
    expect(inbox.state.entries[0]?.content).toEqual([]);
  });

  it('given a normalised fixture session, then placeholder ids resolve in its scope', () => {
    const inbox = fold([splice('next-step', 0, [relayItem('{{message:17}}', '{{session:1}}', 'lead')])], 'fx');
    expect(inbox.state.entries[0]).toMatchObject({
      id: '{{message:17}}@fx',
      source: { senderSessionId: '{{session:1}}@fx' },
    });
  });

  it('given a splice that removes entries from the middle of a list, then exactly those settle, in list order', () => {
    const inbox = initialSessionInbox();
    const events = [
      splice('next-turn', 0, [relayItem('r1', 'lead-1', 'lead'), relayItem('r2', 'lead-1', 'lead')]),
      splice('next-step', 0, [relayItem('r3', 'lead-1', 'lead')]),
      splice('next-turn', 2, [relayItem('r4', 'lead-1', 'lead')]),
      splice('next-turn', 1, [], { removedCount: 2 }),
    ];
    const changes = events.map((event, seq) =>
      evolveSessionInbox(inbox, inboxEvent(event.type, seq, event.data, 1000 * (seq + 1)), undefined),
    );
    expect(changes[3]?.entries).toEqual([1, 3]);
    expect(inbox.state.entries.map((entry) => entry.status)).toEqual(['pending', 'claimed', 'pending', 'claimed']);
    expect(inbox.details.map((detail) => detail.settledTime)).toEqual([undefined, 4000, undefined, 4000]);
    expect(inbox.state.pending).toEqual({ 'next-turn': [0], 'next-step': [2] });
  });

  it('given an untracked fold, then the inbox is the same and its ids are held, but no change is made', () => {
    const events = [
      splice('next-turn', 0, [mailboxItem('lead-1', 'tm-1', 'lead-1', 'lead', 'item-9')]),
      claim('next-turn', 1),
      userMessage(promptItem('p1')),
      userMessage(mailboxItem('lead-1', 'tm-2', 'lead-1', 'lead')),
    ];
    const tracked = initialSessionInbox();
    const untracked = initialSessionInbox();
    const changes = events.map((event, seq) => {
      const at = inboxEvent(event.type, seq, event.data, 1000 * (seq + 1));
      evolveSessionInbox(tracked, at, undefined);
      return evolveSessionInbox(untracked, at, undefined, false);
    });
    expect({ state: untracked.state, details: untracked.details }).toEqual({
      state: tracked.state,
      details: tracked.details,
    });
    expect(changes.every((change) => change.entries.length === 0 && change.held.length === 0)).toBe(true);
    const ids = ['item-9', 'tm-1', 'p1', 'tm-2'] as MessageId[];
    expect(ids.map((id) => untracked.held.has(id))).toEqual([true, true, true, true]);
  });

  it("given a user's own message in a normalised fixture session, then its scoped id is held and no entry made", () => {
    const inbox = initialSessionInbox();
    const event = userMessage(promptItem('{{message:3}}'));
    const change = evolveSessionInbox(inbox, inboxEvent(event.type, 5, event.data, 1000), 'fx');
    expect(change).toEqual({ entries: [], held: [['{{message:3}}@fx', 5]] });
    expect(inbox.state.entries).toEqual([]);
  });
});
