import fc from 'fast-check';
import { InMemoryEventStore } from '@teamlog/store';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { readSessions } from '../src/session-list';

const append = appendHistoryStep;

/** The counts as the whole inbox view gives them: every own entry listed, its status read. */
const countsFromInbox = (views: TeamlogViews): Map<string, { entries: number; pending: number }> => {
  const counts = new Map<string, { entries: number; pending: number }>();
  for (const entry of views.inbox()) {
    const count = counts.get(entry.sessionId) ?? { entries: 0, pending: 0 };
    count.entries += 1;
    if (entry.status === 'pending') count.pending += 1;
    counts.set(entry.sessionId, count);
  }
  return counts;
};

describe('the session list', () => {
  it('over generated histories (forks, claims, cancels, splices): its entry and pending counts equal those of the whole inbox view', async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary, async (history) => {
        const store = new InMemoryEventStore();
        const projections = await TeamlogProjections.inMemory(store);
        for (const step of history) await append(store, step);
        await projections.catchUp();
        const views = projections.views();
        const expected = countsFromInbox(views);
        for (const session of readSessions(views)) {
          const count = expected.get(session.id) ?? { entries: 0, pending: 0 };
          expect({ id: session.id, entries: session.inboxEntries, pending: session.pending }).toEqual({
            id: session.id,
            ...count,
          });
        }
      }),
      { numRuns: 80, seed: 20261204 },
    );
  }, 120_000);
});
