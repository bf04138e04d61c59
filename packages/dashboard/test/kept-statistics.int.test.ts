import fc from 'fast-check';
import { InMemoryEventStore } from '@teamlog/store';
import { TeamlogProjections, readDashboardStatistics } from '@teamlog/projections';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { appendSession, ev, relayItem } from '@teamlog/test-support/session-log-builder';
import { boundedStatistics } from '../src/bounded-statistics';
import { KeptStatistics } from '../src/kept-statistics';

const append = appendHistoryStep;

describe('the kept statistics', () => {
  it('over generated histories caught up in chunks of any size, read between chunks: equal the statistics recomputed from the whole views', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.integer({ min: 1, max: 12 }), async (history, chunk) => {
        const store = new InMemoryEventStore();
        const projections = await TeamlogProjections.inMemory(store);
        const kept = new KeptStatistics();
        for (let start = 0; start < history.length; start += chunk) {
          for (const step of history.slice(start, start + chunk)) await append(store, step);
          await projections.catchUp();
          const { state } = projections.views();
          expect(kept.read(state)).toEqual(boundedStatistics(readDashboardStatistics(state)));
        }
      }),
      { numRuns: 80, seed: 20261205 },
    );
  }, 120_000);

  it('given a session superseded after it was counted, then its earlier claims are counted no more', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    const kept = new KeptStatistics();
    await appendSession(store, 'm-a', [
      ev('teamlog/inbox/accepted', {
        teamId: 'lead-1',
        list: 'next-turn',
        message: relayItem('msg-1', 'lead-1', 'lead'),
      }),
      ev('teamlog/inbox/claimed', { list: 'next-turn', messageIds: ['msg-1'], turn: 1 }),
    ]);
    await projections.catchUp();
    expect(kept.read(projections.views().state).claimLatency.messageCount).toBe(1);
    await appendSession(store, 'm-a', [
      ev('teamlog/import/superseded', { file: 'm-a/session.v4.jsonl', by: 'm-a/session.v5.jsonl', formatVersion: 5 }),
    ]);
    await projections.catchUp();
    const { state } = projections.views();
    expect(kept.read(state)).toEqual(boundedStatistics(readDashboardStatistics(state)));
    expect(kept.read(state).claimLatency.messageCount).toBe(0);
  });
});
