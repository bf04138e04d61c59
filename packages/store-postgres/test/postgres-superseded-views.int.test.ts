import { InMemoryEventStore } from '@teamlog/store';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import { type PostgresEventStore, PostgresViewStore } from '@teamlog/store-postgres';
import {
  appendEarlierGenerations,
  appendLaterGenerations,
  supersede,
  supersededSessions,
} from '@teamlog/test-support/superseded-history';
import { withFreshStore } from './fresh-store';

/* A later generation with fewer entries supersedes the earlier one: no row of the earlier one is left (docs/rules.md#import-superseded). */

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });
const teamsAndInbox = (views: TeamlogViews) => ({ teams: views.replay().teams, inbox: views.replay().inbox });

const viewsIn = async (store: PostgresEventStore, batchSize?: number): Promise<TeamlogProjections> =>
  TeamlogProjections.open(store, await PostgresViewStore.open(store), batchSize === undefined ? {} : { batchSize });

const supersedeAll = async (store: PostgresEventStore): Promise<void> => {
  for (const id of supersededSessions) await supersede(store, id);
};

describe('PostgreSQL views at a supersession', () => {
  it.each([1, 1000])(
    'given the earlier generation committed, then a catch-up in batches of %i leaves none of its rows: the reloaded views equal a fold from zero, a rebuild and a one-shot replay of the later files',
    (batchSize) =>
      withFreshStore(`views_superseded_${batchSize}`, async (store) => {
        await appendEarlierGenerations(store);
        await (await viewsIn(store, batchSize)).catchUp();
        await supersedeAll(store);
        await (await viewsIn(store, batchSize)).catchUp();

        const reloaded = await viewsIn(store);
        expect(await reloaded.catchUp()).toBe(0);
        const memory = await TeamlogProjections.inMemory(store);
        await memory.catchUp();
        expect(everything(reloaded.views())).toEqual(everything(memory.views()));
        const rebuilt = await viewsIn(store, 1000);
        await rebuilt.rebuild();
        expect(everything(rebuilt.views())).toEqual(everything(memory.views()));

        const oneShot = new InMemoryEventStore();
        await appendLaterGenerations(oneShot);
        const reference = await TeamlogProjections.inMemory(oneShot);
        await reference.catchUp();
        expect(teamsAndInbox(reloaded.views())).toEqual(teamsAndInbox(reference.views()));
      }),
  );
});
