import fc from 'fast-check';
import { InMemoryEventStore } from '@teamlog/store';
import { TeamlogProjections, readTeams } from '@teamlog/projections';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { appendSession, ev, member, relayItem } from '@teamlog/test-support/session-log-builder';
import { KeptTeams } from '../src/kept-teams';

const append = appendHistoryStep;

describe('the kept team views', () => {
  it('over generated histories caught up in chunks of any size, read between chunks: equal the teams read from the whole views', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, fc.integer({ min: 1, max: 12 }), async (history, chunk) => {
        const store = new InMemoryEventStore();
        const projections = await TeamlogProjections.inMemory(store);
        const kept = new KeptTeams();
        for (let start = 0; start < history.length; start += chunk) {
          for (const step of history.slice(start, start + chunk)) await append(store, step);
          await projections.catchUp();
          const { state } = projections.views();
          expect(kept.read(state)).toEqual(readTeams(state));
        }
      }),
      { numRuns: 80, seed: 20261206 },
    );
  }, 120_000);

  it('given a send into one team, then the view of another team is the one built before', async () => {
    const store = new InMemoryEventStore();
    const projections = await TeamlogProjections.inMemory(store);
    await appendSession(store, 'lead-1', [member(2, 'lead-1', 'm-a', 'alpha', 'provisioning')]);
    await appendSession(store, 'lead-2', [member(2, 'lead-2', 'm-b', 'beta', 'provisioning')]);
    await projections.catchUp();
    const kept = new KeptTeams();
    const [first, second] = kept.read(projections.views().state);
    await appendSession(store, 'm-b', [
      ev('teamlog/inbox/accepted', {
        teamId: 'lead-2',
        list: 'next-turn',
        message: relayItem('msg-1', 'lead-2', 'lead'),
      }),
    ]);
    await projections.catchUp();
    const [firstAgain, secondAgain] = kept.read(projections.views().state);
    expect(firstAgain).toBe(first);
    expect(secondAgain).not.toBe(second);
    expect([firstAgain, secondAgain]).toEqual(readTeams(projections.views().state));
  });
});
