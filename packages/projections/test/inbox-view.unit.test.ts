import { InMemoryEventStore } from '@teamlog/store';
import {
  appendHeader,
  appendSession,
  claim,
  ev,
  mailboxItem,
  promptItem,
  relayItem,
  sid,
  splice,
  turnStart,
  userMessage,
} from '@teamlog/test-support/session-log-builder';
import { viewsOf } from './views-of';

describe('inbox view', () => {
  it('lists every accepted message with sender, source kind, list, seq and status', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [
      splice('next-turn', 0, [promptItem('p1')]),
      turnStart(1),
      claim('next-turn', 1),
      splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]),
      splice('next-turn', 0, [mailboxItem('lead-1', 'tm-1', 'lead-1', 'lead', 'item-1')]),
    ]);
    expect((await viewsOf(store)).inbox()).toEqual([
      expect.objectContaining({
        sessionId: 'a',
        messageId: 'p1',
        sourceKind: 'user',
        seq: 0,
        list: 'next-turn',
        status: 'claimed',
        settledSeq: 2,
      }),
      expect.objectContaining({
        sessionId: 'a',
        messageId: 'r1',
        sourceKind: 'team-relay',
        senderSessionId: 'lead-1',
        senderName: 'lead',
        seq: 3,
        list: 'next-step',
        status: 'pending',
      }),
      expect.objectContaining({
        sessionId: 'a',
        messageId: 'tm-1',
        itemId: 'item-1',
        sourceKind: 'team-message',
        senderSessionId: 'lead-1',
        senderName: 'lead',
        teamId: 'lead-1',
        seq: 4,
        status: 'pending',
      }),
    ]);
  });

  it('filters peer messages and one session on request', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [splice('next-turn', 0, [promptItem('p1'), relayItem('r1', 'lead-1', 'lead')])]);
    await appendSession(store, 'b', [splice('next-turn', 0, [relayItem('r2', 'lead-1', 'lead')])]);
    const views = await viewsOf(store);
    expect(views.inbox({ peerOnly: true }).map((entry) => entry.messageId)).toEqual(['r1', 'r2']);
    expect(views.inbox({ sessionId: sid('b') }).map((entry) => entry.messageId)).toEqual(['r2']);
  });

  it('leaves out what a fork inherited: before seedLength (V0/V1) or the last inherited end-seed (V2+)', async () => {
    const store = new InMemoryEventStore();
    await appendHeader(store, 'fork-v0', 0, { header: { seedLength: 2 } });
    await appendSession(store, 'fork-v0', [
      splice('next-turn', 0, [relayItem('old', 'lead-1', 'lead')]),
      claim('next-turn', 1),
      ev('session/end-seed', {}),
      splice('next-turn', 0, [relayItem('new', 'lead-1', 'lead')]),
    ]);
    await appendSession(store, 'fork-v4', [
      splice('next-turn', 0, [relayItem('old4', 'lead-1', 'lead')]),
      ev('session/end-seed', { inherited: true }),
      splice('next-turn', 1, [relayItem('new4', 'lead-1', 'lead')]),
    ]);
    const views = await viewsOf(store);
    expect(views.inbox().map((entry) => entry.messageId)).toEqual(['new', 'new4']);
  });

  it('given a claimed message, when its user/message follows with the same id, then it is still one entry', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [
      splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]),
      claim('next-step', 1),
      userMessage(relayItem('r1', 'lead-1', 'lead')),
    ]);
    expect((await viewsOf(store)).inbox()).toHaveLength(1);
  });
});
