import { InMemoryEventStore } from '@teamlog/store';
import { SqliteEventStore, sqliteProjections } from '@teamlog/store-sqlite';
import { TeamlogProjections, type TeamlogViews } from '@teamlog/projections';
import {
  appendEarlierGenerations,
  appendLaterGenerations,
  supersede,
  supersededSessions,
} from '@teamlog/test-support/superseded-history';

/* A later generation with fewer entries supersedes the earlier one: no row of the earlier one is left (docs/rules.md#import-superseded). */

const everything = (views: TeamlogViews) => ({ replay: views.replay(), statistics: views.statistics() });
const teamsAndInbox = (views: TeamlogViews) => ({ teams: views.replay().teams, inbox: views.replay().inbox });

/** The views of a one-shot replay of the later files alone. */
const oneShotViews = async (): Promise<ReturnType<typeof teamsAndInbox>> => {
  const store = new InMemoryEventStore();
  await appendLaterGenerations(store);
  const memory = await TeamlogProjections.inMemory(store);
  await memory.catchUp();
  return teamsAndInbox(memory.views());
};

const supersedeAll = async (store: SqliteEventStore): Promise<void> => {
  for (const id of supersededSessions) await supersede(store, id);
};

/** The committed views reloaded, a fold from zero in memory and a rebuild agree, and equal a one-shot replay of the later files. */
const expectViewsOfLaterGenerations = async (store: SqliteEventStore): Promise<void> => {
  const reloaded = await sqliteProjections(store);
  expect(await reloaded.catchUp()).toBe(0);
  const memory = await TeamlogProjections.inMemory(store);
  await memory.catchUp();
  expect(everything(reloaded.views())).toEqual(everything(memory.views()));
  const rebuilt = await sqliteProjections(store, { batchSize: 1000 });
  await rebuilt.rebuild();
  expect(everything(rebuilt.views())).toEqual(everything(memory.views()));
  expect(teamsAndInbox(reloaded.views())).toEqual(await oneShotViews());
};

describe('SQLite views at a supersession', () => {
  it('given the earlier generation committed inline, then the supersession folded inline leaves none of its members, tasks, messages, inbox entries or held ids', async () => {
    const store = SqliteEventStore.open(':memory:');
    try {
      for (const append of [appendEarlierGenerations, supersedeAll]) {
        const projections = await sqliteProjections(store);
        const detach = projections.foldInline();
        await append(store);
        detach?.();
      }
      const [team] = (await sqliteProjections(store)).views().teams();
      expect(team?.members.map((entry) => entry.id)).toEqual(['m-a']);
      await expectViewsOfLaterGenerations(store);
    } finally {
      await store.close();
    }
  });

  it.each([1, 3, 1000])(
    'given a catch-up in batches of %i with a restart after the earlier generation, then the views equal a one-shot replay of the later files',
    async (batchSize) => {
      const store = SqliteEventStore.open(':memory:');
      try {
        await appendEarlierGenerations(store);
        await (await sqliteProjections(store, { batchSize })).catchUp();
        await supersedeAll(store);
        await (await sqliteProjections(store, { batchSize })).catchUp();
        await expectViewsOfLaterGenerations(store);
      } finally {
        await store.close();
      }
    },
  );

  it('given both generations folded in one batch, then the commit writes the later generation alone', async () => {
    const store = SqliteEventStore.open(':memory:');
    try {
      await appendEarlierGenerations(store);
      await supersedeAll(store);
      await (await sqliteProjections(store, { batchSize: 1000 })).catchUp();
      await expectViewsOfLaterGenerations(store);
    } finally {
      await store.close();
    }
  });
});
