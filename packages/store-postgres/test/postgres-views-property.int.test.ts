import fc from 'fast-check';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { type PostgresEventStore, PostgresViewStore } from '@teamlog/store-postgres';
import { appendHistoryStep, historyArbitrary } from '@teamlog/test-support/generated-history';
import { withFreshStore } from './fresh-store';

const append = appendHistoryStep;

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });

const viewsIn = async (store: PostgresEventStore, batchSize?: number): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, await PostgresViewStore.open(store), batchSize === undefined ? {} : { batchSize });

describe('PostgreSQL views: rebuild from zero equals incremental catch-up', () => {
  it('over generated histories, with restarts between chunks and any batch size (a database per history)', async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary,
        fc.array(fc.nat(80), { maxLength: 4 }),
        fc.integer({ min: 1, max: 9 }),
        (history, cuts, batchSize) =>
          withFreshStore('views_property', async (store) => {
            const boundaries = [...new Set([...cuts.map((cut) => Math.min(cut, history.length)), history.length])].sort(
              (a, b) => a - b,
            );
            let done = 0;
            for (const boundary of boundaries) {
              for (const step of history.slice(done, boundary)) await append(store, step);
              done = boundary;
              // A new runner each time: it reloads the committed views from the tables, like a restarted process.
              await (await viewsIn(store, batchSize)).catchUp();
            }
            const incremental = everything((await viewsIn(store)).views());
            const memory = await TeamlogProjections.inMemory(store);
            await memory.catchUp();
            expect(everything(memory.views())).toEqual(incremental);
            const rebuilt = await viewsIn(store, 1000);
            await rebuilt.rebuild();
            expect(everything(rebuilt.views())).toEqual(incremental);
          }),
      ),
      { numRuns: 15, seed: 20261201 },
    );
  }, 180_000);
});
