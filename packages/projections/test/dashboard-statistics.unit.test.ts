import { InMemoryEventStore } from '@teamlog/store';
import { summarise } from '@teamlog/projections';
import {
  appendSession,
  claim,
  delivered,
  ev,
  mailboxItem,
  member,
  queued,
  relayItem,
  splice,
  task,
  userMessage,
} from '@teamlog/test-support/session-log-builder';
import { viewsOf } from './views-of';

describe('dashboard statistics', () => {
  it('counts accepted and legacy-queued messages per sender-to-target pair', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      queued(1, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      queued(1, 'lead-1', 'm2', 'lead-1', 'lead', 'a'),
      queued(1, 'lead-1', 'm3', 'a', 'alpha', 'lead-1'),
    ]);
    await appendSession(store, 'a', [
      splice('next-turn', 0, [mailboxItem('lead-1', 'm1', 'lead-1', 'lead'), relayItem('r1', 'b', 'beta')]),
    ]);
    expect((await viewsOf(store)).statistics().messagesPerPair).toEqual([
      { senderSessionId: 'a', targetSessionId: 'lead-1', accepted: 0, legacyQueued: 1 },
      { senderSessionId: 'b', targetSessionId: 'a', accepted: 1, legacyQueued: 0 },
      { senderSessionId: 'lead-1', targetSessionId: 'a', accepted: 1, legacyQueued: 2 },
    ]);
  });

  it('measures acceptance-to-claim latency of peer messages in seqs and ms', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'a', [
      ev(
        'agent/inbox/spliced',
        { target: 'next-step', start: 0, inserted: [relayItem('r1', 'lead-1', 'lead')] },
        1_000,
      ),
      ev('step/end', { turn: 1, step: 1 }, 1_200),
      ev('agent/inbox/spliced', { target: 'next-step', start: 0, removedCount: 1, inserted: [] }, 1_500),
      ev(
        'agent/inbox/spliced',
        { target: 'next-turn', start: 0, inserted: [relayItem('r2', 'lead-1', 'lead')] },
        2_000,
      ),
      ev('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] }, 9_000),
      userMessage(mailboxItem('lead-1', 'm1', 'lead-1', 'lead')),
    ]);
    const { claimLatency } = (await viewsOf(store)).statistics();
    expect(claimLatency.messages.map((latency) => [latency.messageId, latency.seqs, latency.ms])).toEqual([
      ['r1', 2, 500],
      ['r2', 1, 7_000],
      ['m1', 0, 0],
    ]);
    expect(claimLatency.seqs).toEqual({ count: 3, min: 0, median: 1, p95: 2, max: 2, mean: 1 });
    expect(claimLatency.ms?.max).toBe(7_000);
  });

  it('leaves ms out for a normalised fixture, which has no time', async () => {
    const store = new InMemoryEventStore();
    await appendSession(
      store,
      'a',
      [splice('next-step', 0, [relayItem('r1', 'lead-1', 'lead')]), claim('next-step', 1)],
      { normalised: true, startTime: 0 },
    );
    const { claimLatency } = (await viewsOf(store)).statistics();
    expect(claimLatency.messages).toEqual([{ sessionId: 'a', messageId: 'r1', seqs: 1 }]);
    expect(claimLatency.ms).toBeNull();
  });

  it('counts undelivered legacy messages per team and lists failures', async () => {
    const store = new InMemoryEventStore();
    await appendSession(store, 'lead-1', [
      queued(2, 'lead-1', 'm1', 'lead-1', 'lead', 'a'),
      queued(2, 'lead-1', 'm2', 'lead-1', 'lead', 'a'),
      delivered(2, 'lead-1', 'm1', 'a'),
    ]);
    await appendSession(store, 'lead-2', [member(2, 'lead-2', 'b', 'beta', 'active'), task(2, 'lead-2', 'task-1', 1)]);
    const statistics = (await viewsOf(store)).statistics();
    expect(statistics.undeliveredLegacyPerTeam).toEqual([{ teamId: 'lead-1', undelivered: 1, queued: 2 }]);
    expect(statistics.failures).toEqual([
      { teamId: 'lead-2', failure: { seq: 0, type: 'team/member', reason: 'member "b" must begin provisioning' } },
    ]);
  });

  it('summarises nothing as null', () => {
    expect(summarise([])).toBeNull();
  });
});
