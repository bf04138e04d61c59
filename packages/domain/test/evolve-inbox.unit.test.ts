import { type MessageId, type SessionId, streamEvent } from '@teamlog/events';
import {
  type InboxMessageFields,
  type InboxState,
  accumulateInbox,
  evolveInbox,
  initialInboxAccumulator,
  initialInboxState,
  pendingEntries,
  relayedMessage,
} from '@teamlog/domain';

const message = (id: string) =>
  relayedMessage(id as MessageId, { sessionId: 'lead-1' as SessionId, name: 'lead' }, [{ type: 'text', text: id }]);
const fold = (...events: Array<[string, unknown]>): InboxState =>
  events.reduce((state, [type, data], seq) => evolveInbox(state, streamEvent(type, seq, data)), initialInboxState());
const accepted = (list: string, id: string): [string, unknown] => [
  'teamlog/inbox/accepted',
  { teamId: 'lead-1', list, message: message(id) },
];
const ids = (state: InboxState, list: 'next-turn' | 'next-step') =>
  pendingEntries(state, list).map((entry) => entry.id);

/* The target inbox and session loop deciders rely on these inbox rules. */
describe('inbox fold', () => {
  it('given acceptances on both lists, then each list holds its messages in acceptance order', () => {
    const state = fold(accepted('next-turn', 'a'), accepted('next-step', 'b'), accepted('next-turn', 'c'));
    expect(ids(state, 'next-turn')).toEqual(['a', 'c']);
    expect(ids(state, 'next-step')).toEqual(['b']);
    expect(state.byId.get('c' as MessageId)).toBe(2);
  });

  it('given a claim of some ids, then only those leave the list and become claimed at the claim seq', () => {
    const state = fold(accepted('next-turn', 'a'), accepted('next-turn', 'b'), [
      'teamlog/inbox/claimed',
      { list: 'next-turn', messageIds: ['a'], turn: 1 },
    ]);
    expect(ids(state, 'next-turn')).toEqual(['b']);
    expect(state.entries[0]).toMatchObject({ status: 'claimed', settledSeq: 2 });
  });

  it('given a settled entry, then it is a new object with the keys of an accepted one in the same order, the settle seq last', () => {
    const before = fold(accepted('next-turn', 'a'));
    const pendingEntry = before.entries[0];
    const state = evolveInbox(
      before,
      streamEvent('teamlog/inbox/claimed', 1, { list: 'next-turn', messageIds: ['a'], turn: 1 }),
    );
    expect(before.entries[0]).toBe(pendingEntry);
    expect(Object.keys(state.entries[0] ?? {})).toEqual([...Object.keys(pendingEntry ?? {}), 'settledSeq']);
    expect(Object.keys(state.entries[0] ?? {})).toEqual([
      'id',
      'list',
      'origin',
      'source',
      'content',
      'acceptedSeq',
      'status',
      'settledSeq',
    ]);
  });

  it('given a cancel, then the entry leaves the list as canceled', () => {
    const state = fold(accepted('next-step', 'a'), [
      'teamlog/inbox/canceled',
      { list: 'next-step', messageIds: ['a'], reason: 'aborted' },
    ]);
    expect(ids(state, 'next-step')).toEqual([]);
    expect(state.entries[0]?.status).toBe('canceled');
  });

  it('given the conversation copy of an accepted message, then it is not counted a second time', () => {
    const state = fold(
      accepted('next-turn', 'a'),
      ['teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['a'], turn: 1 }],
      ['user/message', message('a')],
    );
    expect(state.entries).toHaveLength(1);
  });

  it('given a historical splice, then it inserts and removes on its list (docs/rules.md#inbox-splices)', () => {
    const state = fold(
      ['agent/inbox/spliced', { target: 'next-step', start: 0, inserted: [message('a'), message('b')] }],
      ['agent/inbox/spliced', { target: 'next-step', start: 0, removedCount: 1, inserted: [] }],
    );
    expect(ids(state, 'next-step')).toEqual(['b']);
    expect(state.entries[0]?.status).toBe('claimed');
  });
});

describe('inbox fold purity', () => {
  it('given an inbox, when acceptances, claims and cancels are folded, then the given inbox is unchanged', () => {
    const before = fold(accepted('next-turn', 'a'), accepted('next-step', 'b'));
    const copy = JSON.stringify({ entries: before.entries, pending: before.pending, byId: [...before.byId] });
    const events: Array<[string, unknown]> = [
      accepted('next-turn', 'c'),
      ['teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['a'], turn: 1 }],
      ['teamlog/inbox/canceled', { list: 'next-step', messageIds: ['b'], reason: 'aborted' }],
    ];
    events.forEach(([type, data], index) => {
      expect(evolveInbox(before, streamEvent(type, 10 + index, data))).not.toBe(before);
    });
    expect(JSON.stringify({ entries: before.entries, pending: before.pending, byId: [...before.byId] })).toBe(copy);
  });

  it('given an event that moves no inbox, then the same inbox comes back (nothing is copied)', () => {
    const state = fold(accepted('next-turn', 'a'));
    expect(evolveInbox(state, streamEvent('turn/start', 5, { turn: 1 }))).toBe(state);
  });

  it('given the accumulator the projections fold, then it is updated in place and agrees with the pure fold', () => {
    const events: Array<[string, unknown]> = [
      accepted('next-turn', 'a'),
      accepted('next-step', 'b'),
      ['teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['a'], turn: 1 }],
    ];
    const acc = initialInboxAccumulator();
    events.forEach(([type, data], seq) => {
      expect(accumulateInbox(acc, streamEvent(type, seq, data))).toBe(acc);
    });
    expect(acc).toEqual(fold(...events));
  });

  it('given fields as a view keeps them, then entries hold the resolved ids and no body, and claims and copies match the resolved ids', () => {
    const scoped: InboxMessageFields = {
      id: (id) => `${id}@s` as MessageId,
      source: (source) => ({ ...source, resolvedIn: 's' }) as never,
      content: () => [],
    };
    const events: Array<[string, unknown]> = [
      accepted('next-turn', 'a'),
      accepted('next-turn', 'b'),
      ['teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['a'], turn: 1 }],
      ['user/message', message('a')],
      ['agent/inbox/spliced', { target: 'next-step', start: 0, inserted: [message('c')] }],
    ];
    const given = events.map(([type, data], seq) => streamEvent(type, seq, data));
    const before = JSON.stringify(given);
    const acc = initialInboxAccumulator();
    for (const event of given) accumulateInbox(acc, event, scoped);
    expect(acc.entries.map((entry) => [entry.id, entry.status, entry.content])).toEqual([
      ['a@s', 'claimed', []],
      ['b@s', 'pending', []],
      ['c@s', 'pending', []],
    ]);
    expect(acc.entries.map((entry) => (entry.source as { resolvedIn?: string }).resolvedIn)).toEqual(['s', 's', 's']);
    expect([...acc.byId.keys()]).toEqual(['a@s', 'b@s', 'c@s']);
    expect(JSON.stringify(given)).toBe(before);
  });
});
